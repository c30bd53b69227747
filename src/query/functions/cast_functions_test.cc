// CAST: Java's number conversions and text forms.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "query/functions/function_test_util.h"
#include "types/big_number.h"
#include "types/uuid.h"

namespace sibyl::query {
namespace {

using testing::T;
using types::Kind;

using testing::Decimal;
Bytes Varint(std::string_view text) { return *types::ParseVarint(text); }

class CastFunctionsTest : public testing::FunctionTest {
 protected:
  OptBytes Cast(Kind from, Kind to, const std::optional<Bytes>& value) {
    return Call(CastFunctionName(*T(to)), {T(from)}, {value});
  }
  std::string Text(Kind from, const Bytes& value) { return *Cast(from, Kind::kText, value); }
};

TEST_F(CastFunctionsTest, NarrowingKeepsTheLowBits) {
  EXPECT_EQ(Cast(Kind::kInt, Kind::kTinyint, types::EncodeInt(300)), types::EncodeTinyint(44));
  EXPECT_EQ(Cast(Kind::kInt, Kind::kSmallint, types::EncodeInt(-70000)),
            types::EncodeSmallint(-4464));
  EXPECT_EQ(Cast(Kind::kBigint, Kind::kInt, types::EncodeBigint(0x1'0000'0005)),
            types::EncodeInt(5));
  EXPECT_EQ(Cast(Kind::kVarint, Kind::kBigint, Varint("18446744073709551621")),
            types::EncodeBigint(5));
  EXPECT_EQ(Cast(Kind::kCounter, Kind::kInt, types::EncodeBigint(-1)), types::EncodeInt(-1));
}

TEST_F(CastFunctionsTest, FloatingPointSaturatesAndTruncates) {
  EXPECT_EQ(Cast(Kind::kDouble, Kind::kInt, types::EncodeDouble(1e20)),
            types::EncodeInt(std::numeric_limits<int32_t>::max()));
  EXPECT_EQ(Cast(Kind::kDouble, Kind::kBigint, types::EncodeDouble(-1e30)),
            types::EncodeBigint(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(Cast(Kind::kDouble, Kind::kInt, types::EncodeDouble(std::nan(""))),
            types::EncodeInt(0));
  EXPECT_EQ(Cast(Kind::kFloat, Kind::kInt, types::EncodeFloat(-2.9f)), types::EncodeInt(-2));
  // (byte) (int) 300.5 = 44.
  EXPECT_EQ(Cast(Kind::kDouble, Kind::kTinyint, types::EncodeDouble(300.5)),
            types::EncodeTinyint(44));
  EXPECT_EQ(Cast(Kind::kDouble, Kind::kFloat, types::EncodeDouble(0.1)), types::EncodeFloat(0.1f));
  EXPECT_EQ(Cast(Kind::kBigint, Kind::kDouble, types::EncodeBigint(1LL << 60)),
            types::EncodeDouble(1152921504606846976.0));
}

TEST_F(CastFunctionsTest, DecimalsAndVarints) {
  EXPECT_EQ(Cast(Kind::kDecimal, Kind::kInt, Decimal("-1.9")), types::EncodeInt(-1));
  EXPECT_EQ(Cast(Kind::kDecimal, Kind::kDouble, Decimal("0.1")), types::EncodeDouble(0.1));
  EXPECT_EQ(Cast(Kind::kDecimal, Kind::kVarint, Decimal("12.7")), Varint("12"));
  EXPECT_EQ(Cast(Kind::kInt, Kind::kDecimal, types::EncodeInt(7)), Decimal("7"));
  // Float through its own text (4.1.3+): 5.2, not 5.199999809265137.
  EXPECT_EQ(Cast(Kind::kFloat, Kind::kDecimal, types::EncodeFloat(5.2f)), Decimal("5.2"));
  EXPECT_EQ(Cast(Kind::kDouble, Kind::kDecimal, types::EncodeDouble(1e10)), Decimal("1.0E10"));
  EXPECT_EQ(Cast(Kind::kVarint, Kind::kDecimal, Varint("123456789012345678901234567890")),
            Decimal("123456789012345678901234567890"));
  EXPECT_EQ(Cast(Kind::kVarint, Kind::kDouble, Varint("9007199254740993")),
            types::EncodeDouble(9007199254740992.0));
}

TEST_F(CastFunctionsTest, NaNToDecimalFails) {
  try {
    (void)Cast(Kind::kDouble, Kind::kDecimal, types::EncodeDouble(std::nan("")));
    FAIL() << "no error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kFunctionFailure);
    const auto* info = std::get_if<FunctionFailureInfo>(&e.detail());
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->function, "castAsDecimal");
    EXPECT_EQ(std::string(e.what()),
              "java.lang.NumberFormatException: Character N is neither a decimal digit number, "
              "decimal point, nor \"e\" notation exponential mark.");
  }
}

TEST_F(CastFunctionsTest, ToText) {
  EXPECT_EQ(Text(Kind::kInt, types::EncodeInt(-42)), "-42");
  EXPECT_EQ(Text(Kind::kFloat, types::EncodeFloat(1e10f)), "1.0E10");
  EXPECT_EQ(Text(Kind::kDouble, types::EncodeDouble(0.5)), "0.5");
  EXPECT_EQ(Text(Kind::kDecimal, Decimal("1E+3")), "1E+3");
  EXPECT_EQ(Text(Kind::kDecimal, Decimal("0.0000001")), "1E-7");
  EXPECT_EQ(Text(Kind::kDecimal, Decimal("0.000001")), "0.000001");
  EXPECT_EQ(Text(Kind::kDecimal, Decimal("-12.50")), "-12.50");
  EXPECT_EQ(Text(Kind::kVarint, Varint("-123456789012345678901234567890")),
            "-123456789012345678901234567890");
  EXPECT_EQ(Text(Kind::kBoolean, types::EncodeBoolean(true)), "true");
  EXPECT_EQ(Text(Kind::kInet, types::EncodeInet("127.0.0.1")), "127.0.0.1");
  EXPECT_EQ(Text(Kind::kInet, types::EncodeInet("::1")), "0:0:0:0:0:0:0:1");
  EXPECT_EQ(Text(Kind::kInet, types::EncodeInet("2001:db8::ff00:42:8329")),
            "2001:db8:0:0:0:ff00:42:8329");
  EXPECT_EQ(Text(Kind::kTimestamp, types::EncodeTimestamp(1296705900000)),
            "2011-02-03T04:05:00.000Z");
  EXPECT_EQ(Text(Kind::kDate, types::EncodeDate(15008)), "2011-02-03");
  EXPECT_EQ(Text(Kind::kTime, types::EncodeTime(39'782'000'000'001)), "11:03:02.000000001");
  const Bytes id = types::Uuid::Parse("62c36092-82a1-3a00-93d1-46196ee77204")->ToBytes();
  EXPECT_EQ(Text(Kind::kUuid, id), "62c36092-82a1-3a00-93d1-46196ee77204");
  EXPECT_EQ(*Cast(Kind::kBoolean, Kind::kAscii, types::EncodeBoolean(false)), "false");
  EXPECT_EQ(*Cast(Kind::kAscii, Kind::kText, Bytes("abc")), "abc");
}

TEST_F(CastFunctionsTest, TemporalCasts) {
  EXPECT_EQ(Cast(Kind::kTimestamp, Kind::kDate, types::EncodeTimestamp(1296705900000)),
            types::EncodeDate(15008));
  EXPECT_EQ(Cast(Kind::kDate, Kind::kTimestamp, types::EncodeDate(1)),
            types::EncodeTimestamp(86'400'000));
  const OptBytes id = Call("now", {}, {});
  EXPECT_EQ(Cast(Kind::kTimeuuid, Kind::kTimestamp, id), types::EncodeTimestamp(1'700'000'000'123));
  EXPECT_EQ(Cast(Kind::kTimeuuid, Kind::kDate, id), types::EncodeDate(19675));
}

TEST_F(CastFunctionsTest, NullStaysNull) {
  EXPECT_EQ(Cast(Kind::kInt, Kind::kBigint, std::nullopt), std::nullopt);
  EXPECT_EQ(Cast(Kind::kInt, Kind::kText, std::nullopt), std::nullopt);
  EXPECT_EQ(Cast(Kind::kTimestamp, Kind::kDate, std::nullopt), std::nullopt);
  EXPECT_EQ(Cast(Kind::kAscii, Kind::kText, std::nullopt), std::nullopt);
}

TEST_F(CastFunctionsTest, WhichCastsExist) {
  const auto& r = FunctionRegistry::Native();
  EXPECT_EQ(r.Overloads("castAsInt").size(), 8u);  // every numeric but int
  // 9 numerics, ascii, inet, boolean, timeuuid, timestamp, date, time, uuid.
  EXPECT_EQ(r.Overloads("castAsText").size(), 17u);
  EXPECT_EQ(r.Overloads("castAsAscii").size(), 16u);
  EXPECT_EQ(r.Overloads("castAsDate").size(), 2u);
  EXPECT_EQ(r.Overloads("castAsTimestamp").size(), 2u);
  EXPECT_TRUE(r.Overloads("castAsBlob").empty());
  EXPECT_TRUE(r.Overloads("castAsUuid").empty());
}

}  // namespace
}  // namespace sibyl::query
