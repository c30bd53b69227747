#pragma once
// Durations written in CQL, read as Cassandra 4.1's cql3.Duration.from reads
// them. Three syntaxes, each optionally preceded by '-':
//
//   1y2mo3w4d5h6m7s8ms9us10ns   units in this order, each at most once (case
//                               does not matter; µs is micros; m is minutes,
//                               mo months)
//   P1Y2M3DT4H5M6S              ISO 8601 with designators (each optional)
//   P4W                         ISO 8601 weeks
//   P0001-02-03T04:05:06        ISO 8601 alternative format
//
// A duration keeps months, days and nanoseconds apart (a month is not a fixed
// number of days); years count 12 months and weeks 7 days.

#include <cstdint>
#include <string>
#include <string_view>

namespace sibyl::types {

struct DurationValue {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanoseconds = 0;
  bool operator==(const DurationValue&) const = default;
};

// Throws CqlError(kInvalid) with Cassandra's messages:
//   "Unable to convert '1x' to a duration"
//   "Invalid duration. The hours should be after days"   (for 1h1d)
//   "Invalid duration. The seconds are specified multiple times"
//   "Invalid duration. The total number of months must be less or equal to 2147483647"
// Deliberate difference: a number past 2^63 - 1 fails with "Unable to
// convert ..." where Cassandra fails with an internal error.
[[nodiscard]] DurationValue ParseDurationLiteral(std::string_view text);

// The form Cassandra's Duration.toString and cqlsh write: "1y2mo3d4h5m6s7ms",
// "-1mo", and "" for a zero duration. REQUIRES: all parts of one sign.
[[nodiscard]] std::string DurationToString(const DurationValue& duration);

}  // namespace sibyl::types
