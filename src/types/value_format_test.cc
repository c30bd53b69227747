#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "types/value_codec.h"

namespace sibyl::types {
namespace {

TypePtr N(Kind kind) { return CqlType::Native(kind); }

std::string F(const TypePtr& type, BytesView v) { return Format(*type, v); }

TEST(FormatTest, Numbers) {
  EXPECT_EQ(F(N(Kind::kInt), EncodeInt(-42)), "-42");
  EXPECT_EQ(F(N(Kind::kInt), ""), "");
  EXPECT_EQ(F(N(Kind::kBigint), EncodeBigint(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(F(N(Kind::kSmallint), EncodeSmallint(-7)), "-7");
  EXPECT_EQ(F(N(Kind::kTinyint), EncodeTinyint(-128)), "-128");
  EXPECT_EQ(F(N(Kind::kCounter), EncodeBigint(12)), "12");
  EXPECT_EQ(F(N(Kind::kVarint), EncodeVarint(-129)), "-129");
  Bytes decimal;
  AppendBE32(decimal, 1);
  decimal += EncodeVarint(15);
  EXPECT_EQ(F(N(Kind::kDecimal), decimal), "1.5");
}

TEST(FormatTest, FloatingPointAsCqlsh) {
  EXPECT_EQ(F(N(Kind::kFloat), EncodeFloat(1.1f)), "1.1");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(3.14159265)), "3.14159");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(0.5)), "0.5");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(0.001234)), "0.001234");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(12345.0)), "12345");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(123456.789)), "1.2346e+05");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(1e-20)), "1e-20");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(0.0)), "0");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(std::nan(""))), "NaN");
  EXPECT_EQ(F(N(Kind::kDouble), EncodeDouble(std::numeric_limits<double>::infinity())), "Infinity");
  EXPECT_EQ(F(N(Kind::kFloat), EncodeFloat(-std::numeric_limits<float>::infinity())), "-Infinity");
}

TEST(FormatTest, TextBareAtTopQuotedInside) {
  EXPECT_EQ(F(N(Kind::kText), "it's"), "it's");
  EXPECT_EQ(F(N(Kind::kText), ""), "");
  EXPECT_EQ(F(N(Kind::kText), "caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(F(N(Kind::kText), "a\nb\\c\x01"), "a\\nb\\\\c\\x01");
  EXPECT_EQ(F(N(Kind::kText), "nb\xc2\xa0sp"), "nb\\xa0sp");
  EXPECT_EQ(F(CqlType::List(N(Kind::kText)), EncodeList({"it's", ""})), "['it''s', '']");
  EXPECT_EQ(F(N(Kind::kAscii), "abc"), "abc");
}

TEST(FormatTest, OtherScalars) {
  EXPECT_EQ(F(N(Kind::kBoolean), EncodeBoolean(true)), "True");
  EXPECT_EQ(F(N(Kind::kBoolean), EncodeBoolean(false)), "False");
  EXPECT_EQ(F(N(Kind::kBlob), std::string("\xca\xfe", 2)), "0xcafe");
  EXPECT_EQ(F(N(Kind::kBlob), ""), "0x");
  EXPECT_EQ(F(N(Kind::kUuid), Uuid::Parse("550E8400-E29B-41D4-A716-446655440000")->ToBytes()),
            "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(F(N(Kind::kInet), EncodeInet("127.0.0.1")), "127.0.0.1");
  EXPECT_EQ(F(N(Kind::kInet), EncodeInet("2001:db8:0:0:0:0:0:1")), "2001:db8::1");
}

TEST(FormatTest, TimestampsDatesTimes) {
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(0)), "1970-01-01 00:00:00.000000+0000");
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(1'704'067'200'123)),
            "2024-01-01 00:00:00.123000+0000");
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(-1)), "1969-12-31 23:59:59.999000+0000");
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(951'782'400'000)),
            "2000-02-29 00:00:00.000000+0000");
  // Outside the years Python can show, cqlsh prints the number.
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(INT64_MAX)), "9223372036854775807");
  EXPECT_EQ(F(N(Kind::kDate), EncodeDate(0)), "1970-01-01");
  EXPECT_EQ(F(N(Kind::kDate), EncodeDate(19723)), "2024-01-01");
  EXPECT_EQ(F(N(Kind::kDate), EncodeDate(-719162)), "0001-01-01");
  EXPECT_EQ(F(N(Kind::kDate), EncodeDate(-719163)), "-719163");
  EXPECT_EQ(F(N(Kind::kDate), EncodeDate(2'932'896)), "9999-12-31");
  EXPECT_EQ(F(N(Kind::kTime), EncodeTime(3'723'004'005'006)), "01:02:03.004005006");
  EXPECT_EQ(F(N(Kind::kTime), EncodeTime(0)), "00:00:00.000000000");
}

TEST(FormatTest, Durations) {
  EXPECT_EQ(F(N(Kind::kDuration), EncodeDuration(14, 3, 3'723'004'005'006)),
            "1y2mo3d1h2m3s4ms5us6ns");
  EXPECT_EQ(F(N(Kind::kDuration), EncodeDuration(-1, 0, 0)), "-1mo");
  EXPECT_EQ(F(N(Kind::kDuration), EncodeDuration(0, 0, -90'000'000'000)), "-1m30s");
  EXPECT_EQ(F(N(Kind::kDuration), EncodeDuration(0, 0, 0)), "");
}

TEST(FormatTest, CollectionsTuplesUdtsVectors) {
  EXPECT_EQ(F(CqlType::List(N(Kind::kInt)), EncodeList({EncodeInt(1), EncodeInt(2)})), "[1, 2]");
  EXPECT_EQ(F(CqlType::Set(N(Kind::kInt)), EncodeList({EncodeInt(1), EncodeInt(2)})), "{1, 2}");
  EXPECT_EQ(F(CqlType::Set(N(Kind::kInt)), EncodeList({})), "{}");
  EXPECT_EQ(F(CqlType::Map(N(Kind::kText), N(Kind::kInt)), EncodeMap({{"a", EncodeInt(1)}})),
            "{'a': 1}");
  const Bytes one = EncodeInt(1);
  EXPECT_EQ(F(CqlType::Tuple({N(Kind::kInt), N(Kind::kText), N(Kind::kText)}),
              EncodeTuple({BytesView(one), std::nullopt, BytesView("x")})),
            "(1, null, 'x')");
  const TypePtr udt =
      CqlType::Udt("ks", "address", {"street", "Zip"}, {N(Kind::kText), N(Kind::kInt)}, true);
  EXPECT_EQ(F(udt, EncodeTuple({BytesView("Main")})), "{street: 'Main', \"Zip\": null}");
  EXPECT_EQ(F(CqlType::Vector(N(Kind::kFloat), 2), EncodeFloat(1.5f) + EncodeFloat(2)), "[1.5, 2]");
  EXPECT_EQ(F(CqlType::Vector(N(Kind::kText), 2), std::string("\x01"
                                                              "a"
                                                              "\x00",
                                                              3)),
            "['a', '']");
  EXPECT_EQ(F(CqlType::List(CqlType::Map(N(Kind::kInt), N(Kind::kBoolean), true)),
              EncodeList({EncodeMap({{EncodeInt(1), EncodeBoolean(true)}})})),
            "[{1: True}]");
}

TEST(FormatTest, InvalidValueShownAsBlob) {
  EXPECT_EQ(F(N(Kind::kInt), std::string("\x01\x02\x03", 3)), "0x010203");
  EXPECT_EQ(F(N(Kind::kText), "\xff"), "0xff");
}

}  // namespace
}  // namespace sibyl::types
