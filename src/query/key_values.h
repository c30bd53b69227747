#pragma once
// The bound values of partition key and clustering restrictions, checked
// with Cassandra 4.1's messages: shared by the reads (Restrictions::Bind)
// and the writes (ModificationWhere), which validate keys alike
// (QueryProcessor.validateKey, the restrictions' appendTo).

#include <cstddef>
#include <string>
#include <vector>

#include "common/bytes.h"

namespace sibyl::query {

// FBUtilities.MAX_UNSIGNED_SHORT: the longest key and clustering value.
inline constexpr size_t kMaxKeyLength = 65535;

// The bytes of a bound key or clustering value; InvalidRequest for unset
// and null values.
BytesView RequireKeyValue(const Value& value, const std::string& column);

// InvalidRequest "Key length of N is longer than maximum of 65535".
void CheckKeyLength(size_t length);

// The routing key of one partition from its key components (in key order);
// InvalidRequest when it is empty or too long.
Bytes CheckedRoutingKey(const std::vector<BytesView>& components);

}  // namespace sibyl::query
