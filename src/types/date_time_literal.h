#pragma once
// The CQL date and time types written as text or integers, read as
// Cassandra 4.1's SimpleDateSerializer.dateStringToDays and
// TimeSerializer.timeStringToLong read them.

#include <cstdint>
#include <string>
#include <string_view>

namespace sibyl::types {

// A date: either -?digits, the raw unsigned day number with the epoch at 2^31
// (0 .. 4294967295), or an ISO date uuuu-MM-dd (a year of four to ten digits,
// '+' before more than four, '-' for years before year 0; the date must
// exist: 2021-02-29 is refused). Returns days since 1970-01-01, which is what
// EncodeDate takes. Throws CqlError(kInvalid) with Cassandra's messages:
//   "Unable to make unsigned int (for date) from: '-1'"
//   "Unable to coerce '2021-02-29' to a formatted date (long)"
//   "Input date -5877642-01-01 is less than min supported date -5877641-06-23T00:00Z"
//   "Input date +5881581-01-01 is greater than max supported date +5881580-07-11T00:00Z"
[[nodiscard]] int32_t ParseDateLiteral(std::string_view text);

// A time of day: either -?digits nanoseconds (0 .. 86399999999999), or
// hh:mm:ss[.fffffffff] (surrounding whitespace ignored; each of hh, mm, ss
// may carry a sign, as Java's Integer.parseInt allows). Returns nanoseconds
// since midnight. Throws CqlError(kInvalid) with Cassandra's messages:
//   "Unable to make long (for time) from: '86400000000000'"
//   "(TimeType) Unable to coerce '25:00:00' to a formatted time (long)"
[[nodiscard]] int64_t ParseTimeLiteral(std::string_view text);

// A day count as java.time's LocalDate.toString writes it: "2024-01-05",
// "+10000-01-01", "-0001-12-31".
[[nodiscard]] std::string JavaLocalDateString(int64_t days_since_epoch);

}  // namespace sibyl::types
