#include "schema/java_numbers.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sibyl::schema {
namespace {

TEST(JavaNumbersTest, IntegersAsJavaParsesThem) {
  EXPECT_EQ(ParseJavaInt("42"), 42);
  EXPECT_EQ(ParseJavaInt("+7"), 7);
  EXPECT_EQ(ParseJavaInt("-2147483648"), INT32_MIN);
  EXPECT_EQ(ParseJavaInt("2147483648"), std::nullopt);
  EXPECT_EQ(ParseJavaInt(" 1"), std::nullopt);
  EXPECT_EQ(ParseJavaInt("1.0"), std::nullopt);
  EXPECT_EQ(ParseJavaInt("-"), std::nullopt);
  EXPECT_EQ(ParseJavaLong("9223372036854775807"), INT64_MAX);
}

TEST(JavaNumbersTest, DoublesAsJavaParsesThem) {
  EXPECT_EQ(ParseJavaDouble("0.5"), 0.5);
  EXPECT_EQ(ParseJavaDouble(" 1e-3 "), 1e-3);
  EXPECT_EQ(ParseJavaDouble("2d"), 2.0);
  EXPECT_EQ(ParseJavaDouble(".5"), 0.5);
  EXPECT_TRUE(std::isnan(*ParseJavaDouble("NaN")));
  EXPECT_EQ(ParseJavaDouble("-Infinity"), -INFINITY);
  EXPECT_EQ(ParseJavaDouble("abc"), std::nullopt);
  EXPECT_EQ(ParseJavaDouble("1e"), std::nullopt);
  EXPECT_EQ(ParseJavaDouble(""), std::nullopt);
  EXPECT_TRUE(IsJavaNumeric("123"));
  EXPECT_FALSE(IsJavaNumeric("-1"));
  EXPECT_FALSE(IsJavaNumeric(""));
}

}  // namespace
}  // namespace sibyl::schema
