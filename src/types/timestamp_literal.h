#pragma once
// Timestamps written as text or integers, read as Cassandra 4.1's
// TimestampSerializer.dateStringToTimestamp reads them:
//
//   'now' (any case)            the statement's current time
//   -?digits                    milliseconds since the epoch
//   y-M-d[T| ]H:m[:s[.f]][zone] date and time; each field 1 to 19 digits
//                               (2024-1-5 3:04 is fine), 0 to 9 fraction
//                               digits truncated to milliseconds
//   yyyy-MM-dd zone             a date at midnight in a zone
//   yyyy-MM-dd[offset]          an ISO date at midnight, UTC or an offset
//
// where zone is one of
//   (nothing)                   the server's zone: UTC (see below)
//   +HH | +HHmm | Z             right after the time, or after one space
//   +HH:MM | Z                  right after the time
//   ' ' zone-name               one space, then +HH:MM[:ss], Z, UTC, GMT,
//                               GMT0, UT, GMT+HH:MM[:ss], UT+HH:MM[:ss], or a
//                               tz database region such as Europe/Paris
//
// Java's resolution quirks are kept: a day past the end of its month is
// moved back to the month's last day (2021-02-30 is 2021-02-28), and 24:00
// is midnight of the next day.
//
// Deliberate differences from Cassandra:
//  * Without a zone Cassandra uses its JVM's default zone; Sibyl uses UTC,
//    which is what Cassandra's own Docker images run with.
//  * Localized zone names that are not tz database ids ("PST", "Central
//    European Time") are refused; java.time guesses a region for them.
//  * A year so large that the milliseconds overflow is refused with the
//    parse error; Cassandra fails with an internal error.

#include <cstdint>
#include <string_view>

namespace sibyl::types {

// Throws CqlError(kInvalid) with Cassandra's message:
//   "Unable to make long (for date) from: '99999999999999999999'"
//   "Unable to parse a date/time from '2024-13-01'"
[[nodiscard]] int64_t ParseTimestampLiteral(std::string_view text, int64_t now_millis);

}  // namespace sibyl::types
