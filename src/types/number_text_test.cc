#include "types/number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "types/big_number.h"

namespace sibyl::types {
namespace {

TEST(NumberTextTest, JavaIntegersAcceptOneSignAndDigitsWithinRange) {
  EXPECT_EQ(ParseJavaLong("0"), 0);
  EXPECT_EQ(ParseJavaLong("+7"), 7);
  EXPECT_EQ(ParseJavaLong("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(ParseJavaLong("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseJavaLong("009"), 9);
  EXPECT_FALSE(ParseJavaLong("9223372036854775808"));
  EXPECT_FALSE(ParseJavaLong("-9223372036854775809"));
  EXPECT_FALSE(ParseJavaLong(""));
  EXPECT_FALSE(ParseJavaLong("-"));
  EXPECT_FALSE(ParseJavaLong("+-1"));
  EXPECT_FALSE(ParseJavaLong("1 "));
  EXPECT_FALSE(ParseJavaLong("0x10"));
  EXPECT_EQ(ParseJavaInteger("-128", -128, 127), -128);
  EXPECT_FALSE(ParseJavaInteger("128", -128, 127));
  EXPECT_FALSE(ParseJavaInteger("2147483648", INT32_MIN, INT32_MAX));
}

TEST(NumberTextTest, JavaDoublesAndFloats) {
  EXPECT_EQ(ParseJavaDouble("1.5"), 1.5);
  EXPECT_EQ(ParseJavaDouble("-2e3"), -2000.0);
  EXPECT_EQ(ParseJavaDouble("+.5"), 0.5);
  EXPECT_EQ(ParseJavaDouble("1."), 1.0);
  EXPECT_EQ(ParseJavaDouble("7d"), 7.0);
  EXPECT_EQ(ParseJavaDouble("1e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ParseJavaDouble("1e-400"), 0.0);
  EXPECT_TRUE(std::signbit(*ParseJavaDouble("-0")));
  EXPECT_TRUE(std::isnan(*ParseJavaDouble("NaN")));
  EXPECT_EQ(ParseJavaDouble("-Infinity"), -std::numeric_limits<double>::infinity());
  EXPECT_FALSE(ParseJavaDouble("inf"));
  EXPECT_FALSE(ParseJavaDouble("nan"));
  EXPECT_FALSE(ParseJavaDouble("."));
  EXPECT_FALSE(ParseJavaDouble("1e"));
  EXPECT_FALSE(ParseJavaDouble("1,5"));
  // Float.parseFloat rounds once, straight to float.
  EXPECT_EQ(ParseJavaFloat("1.1"), 1.1f);
  EXPECT_EQ(ParseJavaFloat("3.4028236e38"), std::numeric_limits<float>::infinity());
  EXPECT_EQ(ParseJavaFloat("16777217"), 16777216.0f);
}

TEST(NumberTextTest, JavaToStringLayout) {
  EXPECT_EQ(JavaDoubleToString(1.0), "1.0");
  EXPECT_EQ(JavaDoubleToString(100.0), "100.0");
  EXPECT_EQ(JavaDoubleToString(0.001), "0.001");
  EXPECT_EQ(JavaDoubleToString(0.0001), "1.0E-4");
  EXPECT_EQ(JavaDoubleToString(1e7), "1.0E7");
  EXPECT_EQ(JavaDoubleToString(9999999.0), "9999999.0");
  EXPECT_EQ(JavaDoubleToString(1.5e300), "1.5E300");
  EXPECT_EQ(JavaDoubleToString(-2.5), "-2.5");
  EXPECT_EQ(JavaDoubleToString(0.1), "0.1");
  EXPECT_EQ(JavaDoubleToString(-0.0), "-0.0");
  EXPECT_EQ(JavaDoubleToString(0.0), "0.0");
  EXPECT_EQ(JavaDoubleToString(std::nan("")), "NaN");
  EXPECT_EQ(JavaDoubleToString(-std::numeric_limits<double>::infinity()), "-Infinity");
  EXPECT_EQ(JavaDoubleToString(std::numeric_limits<double>::denorm_min()), "4.9E-324");
  EXPECT_EQ(JavaFloatToString(1.1f), "1.1");
  EXPECT_EQ(JavaFloatToString(3.4028235e38f), "3.4028235E38");
  EXPECT_EQ(JavaFloatToString(1e-5f), "1.0E-5");
}

TEST(NumberTextTest, ToStringReadsBackExactly) {
  for (double v : {0.1, 1.0 / 3, 123456.789, 1e-300, 5e-324, 1.7976931348623157e308, -42.0}) {
    EXPECT_EQ(ParseJavaDouble(JavaDoubleToString(v)), v) << v;
  }
  for (float v : {0.1f, 1.0f / 3, 1e-45f, 3.4028235e38f, -7.25f}) {
    EXPECT_EQ(ParseJavaFloat(JavaFloatToString(v)), v) << v;
  }
}

TEST(BigNumberParseTest, VarintsAsBigInteger) {
  EXPECT_EQ(ParseVarint("0"), std::string("\x00", 1));
  EXPECT_EQ(ParseVarint("-1"), "\xff");
  EXPECT_EQ(ParseVarint("+128"), std::string("\x00\x80", 2));
  EXPECT_EQ(ParseVarint("-128"), "\x80");
  EXPECT_EQ(ParseVarint("-129"), std::string("\xff\x7f", 2));
  EXPECT_EQ(ParseVarint("0010"), "\x0a");  // leading zeros are decimal, not octal
  EXPECT_EQ(VarintToString(*ParseVarint("-123456789012345678901234567890")),
            "-123456789012345678901234567890");
  EXPECT_EQ(VarintToString(*ParseVarint("18446744073709551616")), "18446744073709551616");
  EXPECT_FALSE(ParseVarint(""));
  EXPECT_FALSE(ParseVarint("-"));
  EXPECT_FALSE(ParseVarint("1.0"));
  EXPECT_FALSE(ParseVarint("1e3"));
}

TEST(BigNumberParseTest, DecimalsAsBigDecimalKeepTheirScale) {
  EXPECT_EQ(DecimalToString(*ParseDecimal("1.50")), "1.50");
  EXPECT_EQ(DecimalToString(*ParseDecimal("-0.000")), "0.000");
  EXPECT_EQ(DecimalToString(*ParseDecimal("1E+3")), "1E+3");
  EXPECT_EQ(DecimalToString(*ParseDecimal("1e3")), "1E+3");
  EXPECT_EQ(DecimalToString(*ParseDecimal("12.5e-2")), "0.125");
  EXPECT_EQ(DecimalToString(*ParseDecimal("1.23E-7")), "1.23E-7");
  EXPECT_EQ(DecimalToString(*ParseDecimal(".5")), "0.5");
  EXPECT_EQ(DecimalToString(*ParseDecimal("7.")), "7");
  EXPECT_EQ(DecimalToString(*ParseDecimal("123456789012345678901234567890.0123456789")),
            "123456789012345678901234567890.0123456789");
  EXPECT_EQ(CompareDecimal(*ParseDecimal("1.0"), *ParseDecimal("1")), 0);
  EXPECT_FALSE(ParseDecimal("."));
  EXPECT_FALSE(ParseDecimal(""));
  EXPECT_FALSE(ParseDecimal("1e"));
  EXPECT_FALSE(ParseDecimal("1.2.3"));
  EXPECT_FALSE(ParseDecimal("NaN"));
  EXPECT_FALSE(ParseDecimal("1e9999999999"));  // the scale would not fit an int
}

}  // namespace
}  // namespace sibyl::types
