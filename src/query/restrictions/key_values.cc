#include "query/restrictions/key_values.h"

#include "common/error.h"
#include "schema/row_order.h"

namespace sibyl::query {

BytesView RequireKeyValue(const Value& value, const std::string& column) {
  if (value.is_unset()) ThrowInvalid("Invalid unset value for column " + column);
  if (value.is_null()) ThrowInvalid("Invalid null value in condition for column " + column);
  return value.bytes;
}

Bytes CheckedRoutingKey(const std::vector<BytesView>& components) {
  Bytes key = schema::RoutingKey(components);
  if (key.empty()) ThrowInvalid("Key may not be empty");
  CheckKeyLength(key.size());
  return key;
}

}  // namespace sibyl::query
