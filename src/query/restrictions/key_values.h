#pragma once
// The bound values of partition key and clustering restrictions, checked
// with Cassandra 4.1's messages: shared by the reads (Restrictions::Bind)
// and the writes (Restrictions::BindWrite), which validate keys alike
// (QueryProcessor.validateKey, the restrictions' appendTo).

#include <cstddef>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "schema/row_order.h"

namespace sibyl::query {

using schema::CheckKeyLength;
using schema::kMaxKeyLength;

// The bytes of a bound key or clustering value; InvalidRequest for unset
// and null values.
BytesView RequireKeyValue(const Value& value, const std::string& column);

// The routing key of one partition from its key components (in key order);
// InvalidRequest when it is empty or too long.
Bytes CheckedRoutingKey(const std::vector<BytesView>& components);

}  // namespace sibyl::query
