#include "types/date_time_literal.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace sibyl::types {
namespace {

template <typename Parse>
std::string ErrorOf(Parse parse, std::string_view text) {
  try {
    (void)parse(text);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    return e.what();
  }
  return "no error";
}

std::string DateError(std::string_view text) { return ErrorOf(ParseDateLiteral, text); }
std::string TimeError(std::string_view text) { return ErrorOf(ParseTimeLiteral, text); }

TEST(DateLiteralTest, IsoDates) {
  EXPECT_EQ(ParseDateLiteral("1970-01-01"), 0);
  EXPECT_EQ(ParseDateLiteral("2024-01-01"), 19723);
  EXPECT_EQ(ParseDateLiteral("2000-02-29"), 11016);  // a leap year
  EXPECT_EQ(ParseDateLiteral("1969-12-31"), -1);
  EXPECT_EQ(ParseDateLiteral("0001-01-01"), -719162);
  EXPECT_EQ(ParseDateLiteral("0000-12-31"), -719163);  // ISO year 0 is 1 BC
  EXPECT_EQ(ParseDateLiteral("-0001-01-01"), -719893);
  EXPECT_EQ(ParseDateLiteral("+10000-01-01"), 2932897);
  EXPECT_EQ(ParseDateLiteral("1582-10-04"), -141438);  // proleptic Gregorian: no Julian gap
  EXPECT_EQ(ParseDateLiteral("1582-10-15"), -141427);
}

TEST(DateLiteralTest, RawDayNumbersHaveTheEpochAt2To31) {
  EXPECT_EQ(ParseDateLiteral("2147483648"), 0);
  EXPECT_EQ(ParseDateLiteral("0"), INT32_MIN);
  EXPECT_EQ(ParseDateLiteral("4294967295"), INT32_MAX);
  EXPECT_EQ(ParseDateLiteral("2147483647"), -1);
  EXPECT_EQ(DateError("-1"), "Unable to make unsigned int (for date) from: '-1'");
  EXPECT_EQ(DateError("4294967296"), "Unable to make unsigned int (for date) from: '4294967296'");
  EXPECT_EQ(DateError("99999999999999999999"),
            "Unable to make unsigned int (for date) from: '99999999999999999999'");
}

TEST(DateLiteralTest, StrictDatesAndRange) {
  for (const char* bad :
       {"2021-02-29", "2021-04-31", "2021-13-01", "2021-00-10", "2021-1-01", "21-01-01",
        "12345-01-01", "-0000-01-01", "2021-01-01 ", "", "today", "2021/01/01", "+2021-01-01"}) {
    EXPECT_EQ(DateError(bad),
              "Unable to coerce '" + std::string(bad) + "' to a formatted date (long)")
        << bad;
  }
  EXPECT_EQ(ParseDateLiteral("-5877641-06-23"), INT32_MIN);
  EXPECT_EQ(ParseDateLiteral("+5881580-07-11"), INT32_MAX);
  EXPECT_EQ(DateError("-5877641-06-22"),
            "Input date -5877641-06-22 is less than min supported date -5877641-06-23T00:00Z");
  EXPECT_EQ(DateError("+5881580-07-12"),
            "Input date +5881580-07-12 is greater than max supported date +5881580-07-11T00:00Z");
  // Past the range milliseconds can hold, Cassandra's conversion fails first.
  EXPECT_EQ(DateError("+999999999-01-01"),
            "Unable to coerce '+999999999-01-01' to a formatted date (long)");
}

TEST(DateLiteralTest, JavaLocalDateText) {
  EXPECT_EQ(JavaLocalDateString(0), "1970-01-01");
  EXPECT_EQ(JavaLocalDateString(-719162), "0001-01-01");
  EXPECT_EQ(JavaLocalDateString(-719893), "-0001-01-01");
  EXPECT_EQ(JavaLocalDateString(2932897), "+10000-01-01");
  EXPECT_EQ(JavaLocalDateString(INT32_MIN), "-5877641-06-23");
}

TEST(TimeLiteralTest, TimesOfDay) {
  EXPECT_EQ(ParseTimeLiteral("00:00:00"), 0);
  EXPECT_EQ(ParseTimeLiteral("01:02:03"), 3'723'000'000'000);
  EXPECT_EQ(ParseTimeLiteral("01:02:03.5"), 3'723'500'000'000);
  EXPECT_EQ(ParseTimeLiteral("01:02:03.000000006"), 3'723'000'000'006);
  EXPECT_EQ(ParseTimeLiteral("23:59:59.999999999"), 86'399'999'999'999);
  EXPECT_EQ(ParseTimeLiteral("  1:2:3 "), 3'723'000'000'000);  // trimmed, short fields
  EXPECT_EQ(ParseTimeLiteral("+1:-0:3"), 3'603'000'000'000);   // Integer.parseInt's signs
  EXPECT_EQ(ParseTimeLiteral("12345"), 12345);
  EXPECT_EQ(ParseTimeLiteral("86399999999999"), 86'399'999'999'999);
}

TEST(TimeLiteralTest, CassandraMessages) {
  EXPECT_EQ(TimeError("86400000000000"), "Unable to make long (for time) from: '86400000000000'");
  EXPECT_EQ(TimeError("-1"), "Unable to make long (for time) from: '-1'");
  for (const char* bad : {"24:00:00", "12:60:00", "12:00:60", "12:00", "12:00:", ":00:00",
                          "12:00:00.", "12:00:00.1234567890", "12:00:00.a", "12:00:00.1a",
                          "ab:cd:ef", "", "noon", "12:00:00 PM"}) {
    EXPECT_EQ(TimeError(bad),
              "(TimeType) Unable to coerce '" + std::string(bad) + "' to a formatted time (long)")
        << bad;
  }
}

}  // namespace
}  // namespace sibyl::types
