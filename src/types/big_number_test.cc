#include "types/big_number.h"

#include <gtest/gtest.h>

#include "types/cql_type_test_util.h"

namespace sibyl::types {
namespace {

using testing::DecimalBytes;

TEST(BigNumberTest, MinimalVarintEncoding) {
  EXPECT_EQ(EncodeVarintFromInt64(0), std::string("\x00", 1));
  EXPECT_EQ(EncodeVarintFromInt64(127), "\x7f");
  EXPECT_EQ(EncodeVarintFromInt64(128), std::string("\x00\x80", 2));
  EXPECT_EQ(EncodeVarintFromInt64(-1), "\xff");
  EXPECT_EQ(EncodeVarintFromInt64(-128), "\x80");
  EXPECT_EQ(EncodeVarintFromInt64(-129), "\xff\x7f");
  EXPECT_EQ(EncodeVarintFromInt64(INT64_MIN).size(), 8u);
}

TEST(BigNumberTest, VarintText) {
  EXPECT_EQ(VarintToString(std::string("\x00", 1)), "0");
  EXPECT_EQ(VarintToString(std::string("\x00\xff", 2)), "255");
  EXPECT_EQ(VarintToString("\xff"), "-1");
  EXPECT_EQ(VarintToString("\x80"), "-128");
  EXPECT_EQ(VarintToString(std::string("\xff\xff\x7f", 3)), "-129");
  // 2^64 needs nine bytes.
  EXPECT_EQ(VarintToString(std::string("\x01\x00\x00\x00\x00\x00\x00\x00\x00", 9)),
            "18446744073709551616");
}

TEST(BigNumberTest, VarintOrderIsNumeric) {
  EXPECT_LT(CompareVarint("\xff", std::string("\x00", 1)), 0);
  EXPECT_GT(CompareVarint(std::string("\x01\x00", 2), "\x7f"), 0);
  EXPECT_LT(CompareVarint(std::string("\xfe\xff", 2), "\x80"), 0);  // -257 < -128
  EXPECT_EQ(CompareVarint(std::string("\x00\x00\x05", 3), "\x05"), 0);
  EXPECT_EQ(CompareVarint(std::string("\xff\xff\x80", 3), "\x80"), 0);
  EXPECT_LT(CompareVarint("\x80", "\xff"), 0);
  EXPECT_GT(CompareVarint(std::string("\x00\x80", 2), "\x7f"), 0);
}

TEST(BigNumberTest, DecimalTextAsPythonPrintsIt) {
  EXPECT_EQ(DecimalToString(DecimalBytes(1, 15)), "1.5");
  EXPECT_EQ(DecimalToString(DecimalBytes(2, -12345)), "-123.45");
  EXPECT_EQ(DecimalToString(DecimalBytes(0, 123)), "123");
  EXPECT_EQ(DecimalToString(DecimalBytes(3, 0)), "0.000");
  EXPECT_EQ(DecimalToString(DecimalBytes(6, 1)), "0.000001");
  EXPECT_EQ(DecimalToString(DecimalBytes(8, 123)), "0.00000123");
  EXPECT_EQ(DecimalToString(DecimalBytes(9, 123)), "1.23E-7");
  EXPECT_EQ(DecimalToString(DecimalBytes(7, 1)), "1E-7");
  EXPECT_EQ(DecimalToString(DecimalBytes(-3, 1)), "1E+3");
  EXPECT_EQ(DecimalToString(DecimalBytes(-2, 12)), "1.2E+3");
  EXPECT_EQ(DecimalToString(DecimalBytes(-5, 0)), "0E+5");
  EXPECT_EQ(DecimalToString(DecimalBytes(INT32_MIN, 1)), "1E+2147483648");
  // Only the scale: the unscaled value is zero.
  Bytes scale_only;
  AppendBE32(scale_only, 2);
  EXPECT_EQ(DecimalToString(scale_only), "0.00");
}

TEST(BigNumberTest, DecimalOrderIgnoresScale) {
  EXPECT_EQ(CompareDecimal(DecimalBytes(1, 10), DecimalBytes(2, 100)), 0);
  EXPECT_GT(CompareDecimal(DecimalBytes(1, 15), DecimalBytes(2, 149)), 0);
  EXPECT_LT(CompareDecimal(DecimalBytes(1, -15), DecimalBytes(2, -149)), 0);
  EXPECT_EQ(CompareDecimal(DecimalBytes(0, 0), DecimalBytes(5, 0)), 0);
  EXPECT_GT(CompareDecimal(DecimalBytes(-3, 1), DecimalBytes(0, 999)), 0);
  EXPECT_LT(CompareDecimal(DecimalBytes(0, -1), DecimalBytes(0, 0)), 0);
  EXPECT_GT(CompareDecimal(DecimalBytes(INT32_MIN, 1), DecimalBytes(INT32_MAX, 1)), 0);
  EXPECT_LT(CompareDecimal(DecimalBytes(INT32_MAX, 1), DecimalBytes(0, 1)), 0);
  EXPECT_EQ(CompareDecimal(DecimalBytes(3, 1500), DecimalBytes(1, 15)), 0);
}

}  // namespace
}  // namespace sibyl::types
