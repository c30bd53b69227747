#pragma once
// Values written as Java writes them, where Cassandra's functions turn
// values into text: CAST(x AS text) (each serializer's toCQLLiteral in 4.1)
// and toJson() (each type's toJSONString). Internal to the function library
// and meant for SELECT JSON as well.

#include <cstdint>
#include <string>

#include "common/bytes.h"
#include "common/json_string.h"
#include "types/cql_type.h"
#include "types/duration_literal.h"

namespace sibyl::query {

// TimestampSerializer's UTC formats: "2011-02-03T04:05:00.000Z" with
// separator 'T' (CAST), "2011-02-03 04:05:00.000Z" with ' ' (JSON).
[[nodiscard]] std::string JavaTimestampText(int64_t millis, char separator);
// TimeSerializer.toString: "04:05:06.000000007".
[[nodiscard]] std::string JavaTimeText(int64_t nanos_of_day);
// InetAddress.getHostAddress: "127.0.0.1", "0:0:0:0:0:0:0:1" (Java never
// shortens IPv6 with ::).
[[nodiscard]] std::string JavaInetText(BytesView address);

// CAST(value AS text) for the types CastFcts can cast to text: every
// numeric type, ascii, inet, boolean, timestamp, date, time, uuid and
// timeuuid. REQUIRES: a valid, non-empty value of `type`.
[[nodiscard]] std::string CastText(const types::CqlType& type, BytesView value);

// toJson(value): the JSON text Cassandra 4.1 writes for a value of `type`
// (AbstractType.toJSONString): numbers bare (NaN and infinities as null),
// text, dates, times, timestamps, uuids, inet and durations as JSON
// strings, blobs as "0x...", lists, sets, tuples and vectors as [a, b],
// maps and UDTs as {"k": v} (non-text keys written as a JSON string of
// their JSON). nullopt (null) is "null"; the empty value of a non-text
// type is "".
[[nodiscard]] std::string ToJsonText(const types::CqlType& type,
                                     const std::optional<BytesView>& value);

// QuoteJsonString (common/json_string.h) quotes a string as JSON.
using ::sibyl::QuoteJsonString;

}  // namespace sibyl::query
