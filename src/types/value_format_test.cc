#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "types/cql_type_test_util.h"
#include "types/value_codec.h"

namespace sibyl::types {
namespace {

using testing::N;

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
  // Field names as declared, unquoted: the driver's named tuple carries them so.
  EXPECT_EQ(F(udt, EncodeTuple({BytesView("Main")})), "{street: 'Main', Zip: null}");
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

TEST(FormatTest, TimestampsAndInetQuotedInsideCollections) {
  EXPECT_EQ(F(CqlType::List(N(Kind::kTimestamp)), EncodeList({EncodeTimestamp(0)})),
            "['1970-01-01 00:00:00.000000+0000']");
  EXPECT_EQ(F(CqlType::Set(N(Kind::kInet)), EncodeList({EncodeInet("10.0.0.1")})), "{'10.0.0.1'}");
  EXPECT_EQ(F(CqlType::Tuple({N(Kind::kTimestamp), N(Kind::kDate), N(Kind::kTime)}),
              EncodeTuple({BytesView(EncodeTimestamp(0)), BytesView(EncodeDate(0)),
                           BytesView(EncodeTime(0))})),
            "('1970-01-01 00:00:00.000000+0000', 1970-01-01, 00:00:00.000000000)");
  EXPECT_EQ(F(CqlType::Map(N(Kind::kUuid), N(Kind::kDuration)),
              EncodeMap({{Uuid::Parse("550e8400-e29b-41d4-a716-446655440000")->ToBytes(),
                          EncodeDuration(0, 1, 0)}})),
            "{550e8400-e29b-41d4-a716-446655440000: 1d}");
}

TEST(FormatTest, EarlyYearsAsPythonPrintsThem) {
  // 0999-01-01T00:00:00Z: strftime's %Y does not pad below 1000.
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(-30'641'760'000'000)),
            "999-01-01 00:00:00.000000+0000");
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(-12'219'292'800'000)),
            "1582-10-15 00:00:00.000000+0000");
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(-62'135'596'800'000)),
            "1-01-01 00:00:00.000000+0000");
  EXPECT_EQ(F(N(Kind::kTimestamp), EncodeTimestamp(-62'135'596'800'001)), "-62135596800001");
  EXPECT_EQ(F(N(Kind::kDate), EncodeDate(-719162)), "0001-01-01");
}

TEST(FormatTest, SetsAndMapsInPythonOrder) {
  // Cassandra orders time UUIDs by time and inet addresses by bytes; cqlsh
  // sorts them again the way Python compares UUID objects and strings.
  // `later` has the later time but smaller bytes (its time_low is 0).
  const Bytes later = Uuid::TimeBased(0x100000000, 0x8000000000000000ULL).ToBytes();
  const Bytes sooner = Uuid::TimeBased(0x0ffffffff, 0x8000000000000000ULL).ToBytes();
  ASSERT_LT(Compare(*N(Kind::kTimeuuid), sooner, later), 0);
  EXPECT_EQ(
      F(CqlType::Set(N(Kind::kTimeuuid)), EncodeList({sooner, later})),
      "{" + Uuid::FromBytes(later).ToString() + ", " + Uuid::FromBytes(sooner).ToString() + "}");
  EXPECT_EQ(
      F(CqlType::Map(N(Kind::kInet), N(Kind::kInt)),
        EncodeMap({{EncodeInet("9.0.0.1"), EncodeInt(1)}, {EncodeInet("10.0.0.1"), EncodeInt(2)}})),
      "{'10.0.0.1': 2, '9.0.0.1': 1}");
  EXPECT_EQ(
      F(CqlType::List(N(Kind::kInet)), EncodeList({EncodeInet("9.0.0.1"), EncodeInet("10.0.0.1")})),
      "['9.0.0.1', '10.0.0.1']");
}

TEST(FormatTest, UdtFieldNamesAsThePythonDriverNamesThem) {
  const TypePtr plain =
      CqlType::Udt("ks", "u", {"Zip", "select"}, {N(Kind::kInt), N(Kind::kInt)}, true);
  EXPECT_EQ(F(plain, EncodeTuple({std::nullopt})), "{Zip: null, select: null}");
  // namedtuple refuses keywords and non-identifiers: those fields get positional names.
  const TypePtr odd = CqlType::Udt("ks", "u", {"from", "ok", "two words"},
                                   {N(Kind::kInt), N(Kind::kInt), N(Kind::kInt)}, true);
  EXPECT_EQ(F(odd, EncodeTuple({std::nullopt})), "{field_0_: null, ok: null, field_2_: null}");
}

TEST(FormatTest, InvalidValueShownAsBlob) {
  EXPECT_EQ(F(N(Kind::kInt), std::string("\x01\x02\x03", 3)), "0x010203");
  EXPECT_EQ(F(N(Kind::kText), "\xff"), "0xff");
}

}  // namespace
}  // namespace sibyl::types
