#include "types/duration_literal.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace sibyl::types {
namespace {

constexpr int64_t kHourNanos = 3'600'000'000'000;
constexpr int64_t kMinuteNanos = 60'000'000'000;
constexpr int64_t kSecondNanos = 1'000'000'000;

DurationValue D(int32_t months, int32_t days, int64_t nanos) { return {months, days, nanos}; }

std::string DurationErrorOf(std::string_view text) {
  try {
    (void)ParseDurationLiteral(text);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    return e.what();
  }
  return "no error";
}

TEST(DurationLiteralTest, StandardUnits) {
  EXPECT_EQ(ParseDurationLiteral("1h30m"), D(0, 0, kHourNanos + 30 * kMinuteNanos));
  EXPECT_EQ(
      ParseDurationLiteral("1y2mo3w4d5h6m7s8ms9us10ns"),
      D(14, 25, 5 * kHourNanos + 6 * kMinuteNanos + 7 * kSecondNanos + 8'000'000 + 9'000 + 10));
  EXPECT_EQ(ParseDurationLiteral("2Y3MO"), D(27, 0, 0));
  EXPECT_EQ(ParseDurationLiteral("5Ms"), D(0, 0, 5'000'000));        // ms in any case
  EXPECT_EQ(ParseDurationLiteral("5M"), D(0, 0, 5 * kMinuteNanos));  // M alone is minutes
  EXPECT_EQ(ParseDurationLiteral("3\xC2\xB5s"), D(0, 0, 3000));      // µs
  EXPECT_EQ(ParseDurationLiteral("3US"), D(0, 0, 3000));
  EXPECT_EQ(ParseDurationLiteral("0s"), D(0, 0, 0));
  EXPECT_EQ(ParseDurationLiteral("-1mo"), D(-1, 0, 0));
  EXPECT_EQ(ParseDurationLiteral("-1d2h"), D(0, -1, -2 * kHourNanos));
}

TEST(DurationLiteralTest, Iso8601Forms) {
  EXPECT_EQ(ParseDurationLiteral("P1Y2M3DT4H5M6S"),
            D(14, 3, 4 * kHourNanos + 5 * kMinuteNanos + 6 * kSecondNanos));
  EXPECT_EQ(ParseDurationLiteral("PT5M"), D(0, 0, 5 * kMinuteNanos));
  EXPECT_EQ(ParseDurationLiteral("P5M"), D(5, 0, 0));
  EXPECT_EQ(ParseDurationLiteral("P"), D(0, 0, 0));
  EXPECT_EQ(ParseDurationLiteral("PT"), D(0, 0, 0));
  EXPECT_EQ(ParseDurationLiteral("P4W"), D(0, 28, 0));
  EXPECT_EQ(ParseDurationLiteral("-P2W"), D(0, -14, 0));
  EXPECT_EQ(ParseDurationLiteral("P0001-02-03T04:05:06"),
            D(14, 3, 4 * kHourNanos + 5 * kMinuteNanos + 6 * kSecondNanos));
  EXPECT_EQ(ParseDurationLiteral("-P0000-00-01T00:00:00"), D(0, -1, 0));
}

TEST(DurationLiteralTest, CassandraMessages) {
  EXPECT_EQ(DurationErrorOf("1x"), "Unable to convert '1x' to a duration");
  EXPECT_EQ(DurationErrorOf("-1x"), "Unable to convert '1x' to a duration");
  EXPECT_EQ(DurationErrorOf("5"), "Unable to convert '5' to a duration");
  EXPECT_EQ(DurationErrorOf(""), "Unable to convert '' to a duration");
  EXPECT_EQ(DurationErrorOf("1h 2m"), "Unable to convert '1h 2m' to a duration");
  EXPECT_EQ(DurationErrorOf("P1H"), "Unable to convert 'P1H' to a duration");
  EXPECT_EQ(DurationErrorOf("P1D1M"), "Unable to convert 'P1D1M' to a duration");
  EXPECT_EQ(DurationErrorOf("PxW"), "Unable to convert 'PxW' to a duration");
  EXPECT_EQ(DurationErrorOf("P1-02-03T04:05:06"),
            "Unable to convert 'P1-02-03T04:05:06' to a duration");
  EXPECT_EQ(DurationErrorOf("1h1d"), "Invalid duration. The hours should be after days");
  EXPECT_EQ(DurationErrorOf("1s1s"), "Invalid duration. The seconds are specified multiple times");
  EXPECT_EQ(DurationErrorOf("1ms1s"), "Invalid duration. The milliseconds should be after seconds");
  EXPECT_EQ(DurationErrorOf("2147483648mo"),
            "Invalid duration. The total number of months must be less or equal to 2147483647");
  EXPECT_EQ(DurationErrorOf("178956971y"),
            "Invalid duration. The total number of months must be less or equal to 2147483647");
  EXPECT_EQ(ParseDurationLiteral("178956970y7mo"), D(2147483647, 0, 0));
  EXPECT_EQ(DurationErrorOf("306783379w1d"),
            "Invalid duration. The total number of days must be less or equal to 2147483647");
  // Cassandra's nanoseconds message names the int limit too.
  EXPECT_EQ(DurationErrorOf("2562048h"),
            "Invalid duration. The total number of nanoseconds must be less or equal to "
            "2147483647");
  EXPECT_EQ(DurationErrorOf("99999999999999999999ns"),
            "Unable to convert '99999999999999999999ns' to a duration");
}

TEST(DurationLiteralTest, ToStringAsCassandraWritesIt) {
  EXPECT_EQ(
      DurationToString(D(14, 3, kHourNanos + 2 * kMinuteNanos + 3 * kSecondNanos + 4'005'006)),
      "1y2mo3d1h2m3s4ms5us6ns");
  EXPECT_EQ(DurationToString(D(-1, 0, 0)), "-1mo");
  EXPECT_EQ(DurationToString(D(0, 0, -90 * kSecondNanos)), "-1m30s");
  EXPECT_EQ(DurationToString(D(0, 0, 0)), "");
  EXPECT_EQ(DurationToString(D(INT32_MIN, INT32_MIN, INT64_MIN)),
            "-178956970y8mo2147483648d2562047h47m16s854ms775us808ns");
  for (const auto& d : {D(14, 3, 7), D(0, -3, -kHourNanos), D(INT32_MAX, INT32_MAX, INT64_MAX)}) {
    EXPECT_EQ(ParseDurationLiteral(DurationToString(d)), d);
  }
}

}  // namespace
}  // namespace sibyl::types
