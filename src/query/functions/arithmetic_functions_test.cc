// The arithmetic operators with decimal results and on timestamps and
// dates, with the values and messages of Cassandra 4.1's OperationFctsTest.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "query/functions/decimal_arithmetic.h"
#include "query/functions/function_test_util.h"
#include "types/big_number.h"

namespace sibyl::query {
namespace {

using testing::Overload;
using testing::T;
using types::Kind;

Bytes Dec(std::string_view text) { return *types::ParseDecimal(text); }
Bytes Vi(std::string_view text) { return *types::ParseVarint(text); }

class ArithmeticFunctionsTest : public testing::FunctionTest {
 protected:
  OptBytes Op(const std::string& name, Kind left, const Bytes& a, Kind right, const Bytes& b) {
    return Call(name, {T(left), T(right)}, {a, b});
  }
  // The message of the function failure `name`(a, b) raises.
  std::string Failure(const std::string& name, Kind left, const Bytes& a, Kind right,
                      const Bytes& b) {
    try {
      (void)Op(name, left, a, right, b);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kFunctionFailure);
      return e.what();
    }
    return "no error";
  }
};

TEST_F(ArithmeticFunctionsTest, DecimalResultTypes) {
  EXPECT_EQ(Overload("_add", {T(Kind::kFloat), T(Kind::kVarint)})->return_type()->ToCql(),
            "decimal");
  EXPECT_EQ(Overload("_divide", {T(Kind::kInt), T(Kind::kDecimal)})->return_type()->ToCql(),
            "decimal");
  EXPECT_EQ(Overload("_modulo", {T(Kind::kDecimal), T(Kind::kCounter)})->return_type()->ToCql(),
            "decimal");
}

TEST_F(ArithmeticFunctionsTest, AdditionSubtractionAndMultiplicationKeepJavaScales) {
  const Bytes h = Dec("8.5");
  // Integers other than varint become decimals through their double: 1 is 1.0.
  EXPECT_EQ(Op("_add", Kind::kTinyint, types::EncodeTinyint(1), Kind::kDecimal, h), Dec("9.5"));
  EXPECT_EQ(Op("_multiply", Kind::kTinyint, types::EncodeTinyint(1), Kind::kDecimal, h),
            Dec("8.50"));
  EXPECT_EQ(Op("_multiply", Kind::kVarint, Vi("7"), Kind::kDecimal, h), Dec("59.5"));
  EXPECT_EQ(Op("_multiply", Kind::kDecimal, h, Kind::kDecimal, h), Dec("72.25"));
  EXPECT_EQ(Op("_multiply", Kind::kFloat, types::EncodeFloat(5.5f), Kind::kDecimal, h),
            Dec("46.75"));
  EXPECT_EQ(Op("_multiply", Kind::kDouble, types::EncodeDouble(6.5), Kind::kVarint, Vi("7")),
            Dec("45.5"));
  EXPECT_EQ(Op("_add", Kind::kFloat, types::EncodeFloat(5.5f), Kind::kVarint, Vi("7")),
            Dec("12.5"));
  EXPECT_EQ(Op("_substract", Kind::kTinyint, types::EncodeTinyint(1), Kind::kDecimal, h),
            Dec("-7.5"));
  EXPECT_EQ(Op("_substract", Kind::kDecimal, h, Kind::kDecimal, h), Dec("0.0"));
  // bigint 2147483657 is 2.147483657E9 as a double.
  EXPECT_EQ(Op("_add", Kind::kBigint, types::EncodeBigint(2147483657), Kind::kDecimal, h),
            Dec("2147483665.5"));
  // A float widens to a double before converting: 0.1f is 0.10000000149011612.
  EXPECT_EQ(Op("_add", Kind::kFloat, types::EncodeFloat(0.1f), Kind::kDecimal, Dec("0")),
            Dec("0.10000000149011612"));
  // Zero keeps the larger scale.
  EXPECT_EQ(Op("_add", Kind::kDecimal, Dec("0.000"), Kind::kDecimal, Dec("2")), Dec("2.000"));
  EXPECT_EQ(Op("_add", Kind::kDecimal, Dec("1"), Kind::kDecimal, Dec("1E+3")), Dec("1001"));
}

TEST_F(ArithmeticFunctionsTest, ResultsAreRoundedToTenThousandDigits) {
  const std::string nines(10000, '9');
  // 10000 nines + 0.5 has 10001 digits: rounded half up, the carry makes
  // 10001 again, rounded once more to 10000 digits at scale -1.
  EXPECT_EQ(Op("_add", Kind::kDecimal, Dec(nines), Kind::kDecimal, Dec("0.5")),
            Dec("1." + std::string(9999, '0') + "E+10000"));
  // Far below the rounding digit, a tiny addend vanishes.
  EXPECT_EQ(Op("_add", Kind::kDecimal, Dec(nines), Kind::kDecimal, Dec("1E-100000")), Dec(nines));
}

TEST_F(ArithmeticFunctionsTest, DivisionKeepsThirtyTwoSignificantDigits) {
  const Bytes h = Dec("8.5");
  EXPECT_EQ(Op("_divide", Kind::kDecimal, h, Kind::kInt, types::EncodeInt(3)),
            Dec("2.83333333333333333333333333333333"));
  EXPECT_EQ(Op("_divide", Kind::kTinyint, types::EncodeTinyint(1), Kind::kDecimal, h),
            Dec("0.11764705882352941176470588235294"));
  EXPECT_EQ(Op("_divide", Kind::kDecimal, h, Kind::kFloat, types::EncodeFloat(5.5f)),
            Dec("1.54545454545454545454545454545455"));
  EXPECT_EQ(Op("_divide", Kind::kFloat, types::EncodeFloat(5.5f), Kind::kVarint, Vi("7")),
            Dec("0.78571428571428571428571428571429"));
  EXPECT_EQ(Op("_divide", Kind::kDecimal, h, Kind::kBigint, types::EncodeBigint(4)), Dec("2.125"));
  // Trailing zeros are stripped, down to a negative scale.
  EXPECT_EQ(Op("_divide", Kind::kDecimal, h, Kind::kDecimal, h), Dec("1"));
  EXPECT_EQ(Op("_divide", Kind::kDecimal, Dec("1000"), Kind::kDecimal, Dec("1")), Dec("1E+3"));
  EXPECT_EQ(Op("_divide", Kind::kDecimal, Dec("0.00"), Kind::kDecimal, h), Dec("0"));
  // Rounding is half up: 2 / 3 ends in 7, -2 / 3 in -7.
  EXPECT_EQ(Op("_divide", Kind::kDecimal, Dec("-2"), Kind::kDecimal, Dec("3")),
            Dec("-0.66666666666666666666666666666667"));
  // The scale never passes 1000.
  EXPECT_EQ(Op("_divide", Kind::kDecimal, Dec("1E-1001"), Kind::kDecimal, Dec("1")), Dec("0"));
}

TEST_F(ArithmeticFunctionsTest, RemainderIsExactWithJavaScales) {
  const Bytes h = Dec("8.5");
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, h, Kind::kTinyint, types::EncodeTinyint(1)), Dec("0.5"));
  EXPECT_EQ(Op("_modulo", Kind::kInt, types::EncodeInt(3), Kind::kDecimal, h), Dec("3.0"));
  EXPECT_EQ(Op("_modulo", Kind::kVarint, Vi("7"), Kind::kDecimal, h), Dec("7"));
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, h, Kind::kDecimal, h), Dec("0.0"));
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, h, Kind::kInt, types::EncodeInt(3)), Dec("2.5"));
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, Dec("-8.5"), Kind::kInt, types::EncodeInt(3)),
            Dec("-2.5"));
  const Bytes big = Dec("123456789112345678921234567893123456");
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, big, Kind::kDecimal, Dec("2")), Dec("0"));
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, big, Kind::kInt, types::EncodeInt(2)), Dec("0.0"));
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, big, Kind::kBigint, types::EncodeBigint(2)), Dec("0.0"));
  EXPECT_EQ(Op("_modulo", Kind::kDecimal, Dec("8.50"), Kind::kDecimal, Dec("1.0")), Dec("0.50"));
}

TEST_F(ArithmeticFunctionsTest, DecimalFailuresAndNulls) {
  EXPECT_EQ(Failure("_divide", Kind::kDecimal, Dec("8.5"), Kind::kTinyint, types::EncodeTinyint(0)),
            "the operation 'decimal / tinyint' failed: BigInteger divide by zero");
  // Java's long fast path: a dividend already at the quotient's scale.
  EXPECT_EQ(Failure("_divide", Kind::kDecimal, Dec("1E-1000"), Kind::kDecimal, Dec("0")),
            "the operation 'decimal / decimal' failed: / by zero");
  EXPECT_EQ(Failure("_modulo", Kind::kDecimal, Dec("8.5"), Kind::kInt, types::EncodeInt(0)),
            "the operation 'decimal % int' failed: Division by zero");
  EXPECT_EQ(Failure("_modulo", Kind::kDecimal, Dec("0"), Kind::kDecimal, Dec("0.0")),
            "the operation 'decimal % decimal' failed: Division undefined");
  EXPECT_EQ(
      Failure("_add", Kind::kDecimal, Dec("1"), Kind::kDouble, types::EncodeDouble(std::nan(""))),
      "the operation 'decimal + double' failed: A NaN cannot be converted into a decimal");
  EXPECT_EQ(Failure("_add", Kind::kDecimal, Dec("1"), Kind::kFloat,
                    types::EncodeFloat(-std::numeric_limits<float>::infinity())),
            "the operation 'decimal + float' failed: An infinite number cannot be converted "
            "into a decimal");
  EXPECT_EQ(Call("_add", {T(Kind::kDecimal), T(Kind::kInt)}, {Dec("1"), std::nullopt}),
            std::nullopt);
  EXPECT_EQ(Call("_add", {T(Kind::kDecimal), T(Kind::kInt)}, {Bytes(), types::EncodeInt(1)}),
            std::nullopt);
}

TEST_F(ArithmeticFunctionsTest, TimestampPlusOrMinusDuration) {
  const Bytes ts = types::EncodeTimestamp(1474992600000);  // 2016-09-27 16:10:00 UTC
  EXPECT_EQ(Op("_substract", Kind::kTimestamp, ts, Kind::kDuration,
               types::EncodeDuration(0, 0, 600'000'000'000)),
            types::EncodeTimestamp(1474992000000));
  EXPECT_EQ(Op("_add", Kind::kTimestamp, ts, Kind::kDuration, types::EncodeDuration(0, 1, 0)),
            types::EncodeTimestamp(1474992600000 + 86'400'000));
  // Months clamp the day of month: January 31 + 1 month is February 29.
  const Bytes jan31 = types::EncodeTimestamp(1454241600000);  // 2016-01-31 12:00 UTC
  EXPECT_EQ(Op("_add", Kind::kTimestamp, jan31, Kind::kDuration, types::EncodeDuration(1, 0, 0)),
            types::EncodeTimestamp(1456747200000));
  EXPECT_EQ(Op("_add", Kind::kTimestamp, jan31, Kind::kDuration, types::EncodeDuration(1, 1, 0)),
            types::EncodeTimestamp(1456833600000));
  // February 29 - 1 month is January 29.
  EXPECT_EQ(Op("_substract", Kind::kTimestamp, types::EncodeTimestamp(1456747200000),
               Kind::kDuration, types::EncodeDuration(1, 0, 0)),
            types::EncodeTimestamp(1456747200000 - int64_t{31} * 86'400'000));
  // With months, the milliseconds are narrowed to an int as Cassandra does:
  // 600h is 2160000000 ms, which wraps to -2134967296.
  EXPECT_EQ(Op("_add", Kind::kTimestamp, types::EncodeTimestamp(0), Kind::kDuration,
               types::EncodeDuration(1, 0, int64_t{600} * 3'600'000'000'000)),
            types::EncodeTimestamp(int64_t{31} * 86'400'000 - 2134967296));
  EXPECT_EQ(Failure("_substract", Kind::kTimestamp, ts, Kind::kDuration,
                    types::EncodeDuration(0, 0, 10'000)),
            "the operation 'timestamp - duration' failed: The duration must have a millisecond "
            "precision. Was: 10us");
  EXPECT_EQ(Call("_add", {T(Kind::kTimestamp), T(Kind::kDuration)},
                 {std::nullopt, types::EncodeDuration(0, 1, 0)}),
            std::nullopt);
}

TEST_F(ArithmeticFunctionsTest, DatePlusOrMinusDuration) {
  const Bytes date = types::EncodeDate(17078);  // 2016-10-04
  EXPECT_EQ(Op("_substract", Kind::kDate, date, Kind::kDuration, types::EncodeDuration(0, 5, 0)),
            types::EncodeDate(17073));
  EXPECT_EQ(Op("_add", Kind::kDate, types::EncodeDate(16831), Kind::kDuration,
               types::EncodeDuration(1, 0, 0)),
            types::EncodeDate(16860));  // 2016-01-31 + 1mo = 2016-02-29
  EXPECT_EQ(Op("_add", Kind::kDate, types::EncodeDate(-1), Kind::kDuration,
               types::EncodeDuration(0, 1, 0)),
            types::EncodeDate(0));
  EXPECT_EQ(Failure("_substract", Kind::kDate, date, Kind::kDuration,
                    types::EncodeDuration(0, 0, 600'000'000'000)),
            "the operation 'date - duration' failed: The duration must have a day precision. "
            "Was: 10m");
  EXPECT_EQ(Failure("_add", Kind::kDate, types::EncodeDate(std::numeric_limits<int32_t>::max()),
                    Kind::kDuration, types::EncodeDuration(0, 1, 0)),
            "the operation 'date + duration' failed: Input date +5881580-07-12 is greater than "
            "max supported date +5881580-07-11T00:00Z");
  EXPECT_EQ(
      Failure("_substract", Kind::kDate, types::EncodeDate(std::numeric_limits<int32_t>::min()),
              Kind::kDuration, types::EncodeDuration(0, 1, 0)),
      "the operation 'date - duration' failed: Input date -5877641-06-22 is less than min "
      "supported date -5877641-06-23T00:00Z");
}

}  // namespace
}  // namespace sibyl::query
