#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "types/cql_type_test_util.h"
#include "types/value_codec.h"

namespace sibyl::types {
namespace {

using testing::DecimalBytes;

using testing::N;

// Asserts that `values` are in strictly increasing order under `type`, and
// that Compare is antisymmetric and reflexive on them.
void ExpectAscending(const TypePtr& type, const std::vector<Bytes>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(Compare(*type, values[i], values[i]), 0) << type->ToCql() << " #" << i;
    for (size_t j = i + 1; j < values.size(); ++j) {
      EXPECT_LT(Compare(*type, values[i], values[j]), 0)
          << type->ToCql() << " #" << i << " < #" << j;
      EXPECT_GT(Compare(*type, values[j], values[i]), 0)
          << type->ToCql() << " #" << j << " > #" << i;
    }
  }
}

TEST(CompareTest, SignedIntegersWithEmptyFirst) {
  ExpectAscending(N(Kind::kInt), {"", EncodeInt(INT32_MIN), EncodeInt(-1), EncodeInt(0),
                                  EncodeInt(1), EncodeInt(INT32_MAX)});
  ExpectAscending(N(Kind::kBigint), {"", EncodeBigint(INT64_MIN), EncodeBigint(-1), EncodeBigint(0),
                                     EncodeBigint(INT64_MAX)});
  ExpectAscending(N(Kind::kTimestamp),
                  {EncodeTimestamp(-1000), EncodeTimestamp(0), EncodeTimestamp(1'700'000'000'000)});
  ExpectAscending(N(Kind::kSmallint),
                  {EncodeSmallint(-300), EncodeSmallint(-1), EncodeSmallint(2)});
  ExpectAscending(N(Kind::kTinyint), {EncodeTinyint(-128), EncodeTinyint(-1), EncodeTinyint(127)});
  ExpectAscending(N(Kind::kCounter), {EncodeBigint(-5), EncodeBigint(5)});
}

TEST(CompareTest, FloatingPointAsJavaCompares) {
  const double inf = std::numeric_limits<double>::infinity();
  ExpectAscending(N(Kind::kDouble), {"", EncodeDouble(-inf), EncodeDouble(-1.5), EncodeDouble(-0.0),
                                     EncodeDouble(0.0), EncodeDouble(1e-300), EncodeDouble(inf),
                                     EncodeDouble(std::nan(""))});
  EXPECT_EQ(Compare(*N(Kind::kDouble), EncodeDouble(std::nan("")), EncodeDouble(-std::nan(""))), 0);
  ExpectAscending(N(Kind::kFloat), {EncodeFloat(-2.0f), EncodeFloat(-0.0f), EncodeFloat(0.0f),
                                    EncodeFloat(0.5f), EncodeFloat(std::nanf(""))});
}

TEST(CompareTest, BooleansFalseFirst) {
  ExpectAscending(N(Kind::kBoolean), {"", EncodeBoolean(false), EncodeBoolean(true)});
  EXPECT_EQ(Compare(*N(Kind::kBoolean), "\x01", "\x02"), 0);
}

TEST(CompareTest, TextAndBlobsBytewise) {
  ExpectAscending(N(Kind::kText), {"", "Z", "a", "ab", "b", "caf\xc3\xa9", "z", "\xc3\xa9"});
  ExpectAscending(N(Kind::kBlob), {"", std::string("\x00", 1), "\x01", "\x7f", "\x80", "\xff"});
  ExpectAscending(N(Kind::kAscii), {"A", "B", "a"});
}

TEST(CompareTest, InetInByteOrder) {
  // Cassandra compares inet bytes as they are: an IPv6 address starting with
  // zeros sorts before any IPv4 address from 1.0.0.0 on.
  ExpectAscending(N(Kind::kInet), {"", EncodeInet("::1"), EncodeInet("0.0.0.1"),
                                   EncodeInet("1.2.3.4"), EncodeInet("10.0.0.1"),
                                   EncodeInet("2001:db8::1"), EncodeInet("255.255.255.255")});
}

TEST(CompareTest, DatesAndTimes) {
  ExpectAscending(N(Kind::kDate), {EncodeDate(INT32_MIN), EncodeDate(-1), EncodeDate(0),
                                   EncodeDate(1), EncodeDate(INT32_MAX)});
  ExpectAscending(N(Kind::kTime), {EncodeTime(0), EncodeTime(1), EncodeTime(86'399'999'999'999)});
}

TEST(CompareTest, VarintAndDecimalNumerically) {
  ExpectAscending(N(Kind::kVarint),
                  {"", EncodeVarint(-1000), EncodeVarint(-1), std::string("\x00\x00", 2),
                   EncodeVarint(1), std::string("\x00\xff", 2), EncodeVarint(1000)});
  ExpectAscending(N(Kind::kDecimal),
                  {"", DecimalBytes(0, -2), DecimalBytes(1, -15), DecimalBytes(2, 0),
                   DecimalBytes(2, 149), DecimalBytes(1, 15), DecimalBytes(-2, 1)});
  EXPECT_EQ(Compare(*N(Kind::kDecimal), DecimalBytes(1, 10), DecimalBytes(3, 1000)), 0);
}

Bytes UuidBytes(const char* text) { return Uuid::Parse(text)->ToBytes(); }

TEST(CompareTest, UuidsByVersionThenValue) {
  ExpectAscending(N(Kind::kUuid),
                  {"",
                   // version 1 first, ordered by timestamp (time_hi before time_low)
                   UuidBytes("ffffffff-ffff-1000-8000-000000000000"),
                   UuidBytes("00000000-0000-1001-8000-000000000000"),
                   // then version 4, unsigned bytes
                   UuidBytes("00000000-0000-4000-8000-000000000000"),
                   UuidBytes("7fffffff-0000-4000-8000-000000000000"),
                   UuidBytes("80000000-0000-4000-0000-000000000000"),
                   UuidBytes("80000000-0000-4000-8000-000000000000"),
                   UuidBytes("80000000-0000-4000-ff00-000000000000")});
}

TEST(CompareTest, TimeuuidsByTimestampThenSignedBytes) {
  // time_low is all ones; one tick later it wraps to zero, so the later id
  // is smaller bytewise but larger by timestamp.
  const int64_t t = (int64_t{0x01d0} << 48) | (int64_t{0x1234} << 32) | 0xffffffffLL;
  const Bytes earlier = Uuid::TimeBased(t, 0xff00000000000000ULL).ToBytes();
  const Bytes later = Uuid::TimeBased(t + 1, 0).ToBytes();
  ASSERT_GT(earlier, later);
  ExpectAscending(N(Kind::kTimeuuid), {"", earlier, later});
  // Same timestamp: the low bytes compare as signed bytes, so 0x80.. < 0x00..
  const Bytes low_negative = Uuid::TimeBased(t, 0x8000000000000000ULL).ToBytes();
  const Bytes low_zero =
      Uuid::TimeBased(t, 0x8000000000000000ULL | 0x0000000000000001ULL).ToBytes();
  Bytes low_signed_small = low_zero;
  low_signed_small[9] = '\xff';  // -1 as a signed byte sorts before 0
  ExpectAscending(N(Kind::kTimeuuid), {low_signed_small, low_negative, low_zero});
}

TEST(CompareTest, CollectionsElementwise) {
  const TypePtr list = CqlType::List(N(Kind::kInt));
  ExpectAscending(list, {"", EncodeList({}), EncodeList({EncodeInt(-1)}),
                         EncodeList({EncodeInt(1)}), EncodeList({EncodeInt(1), EncodeInt(2)}),
                         EncodeList({EncodeInt(1), EncodeInt(3)}), EncodeList({EncodeInt(2)})});
  const TypePtr map = CqlType::Map(N(Kind::kInt), N(Kind::kText));
  ExpectAscending(map, {EncodeMap({{EncodeInt(1), "a"}}), EncodeMap({{EncodeInt(1), "b"}}),
                        EncodeMap({{EncodeInt(1), "b"}, {EncodeInt(0), "a"}}),
                        EncodeMap({{EncodeInt(2), "a"}})});
}

TEST(CompareTest, TuplesWithNullsFirstAndTrailingNullsIgnored) {
  const TypePtr tuple = CqlType::Tuple({N(Kind::kInt), N(Kind::kText)});
  const Bytes one = EncodeInt(1);
  const Bytes two = EncodeInt(2);
  ExpectAscending(tuple,
                  {"", EncodeTuple({std::nullopt, BytesView("z")}), EncodeTuple({BytesView(one)}),
                   EncodeTuple({BytesView(one), BytesView("a")}),
                   EncodeTuple({BytesView(two), std::nullopt}) + "",
                   EncodeTuple({BytesView(two), BytesView("a")})});
  EXPECT_EQ(
      Compare(*tuple, EncodeTuple({BytesView(one)}), EncodeTuple({BytesView(one), std::nullopt})),
      0);
}

TEST(CompareTest, VectorsElementwiseNotBytewise) {
  const TypePtr vector = CqlType::Vector(N(Kind::kFloat), 2);
  ExpectAscending(vector, {EncodeFloat(-1) + EncodeFloat(5), EncodeFloat(0) + EncodeFloat(0),
                           EncodeFloat(0) + EncodeFloat(1), EncodeFloat(2) + EncodeFloat(-9)});
}

}  // namespace
}  // namespace sibyl::types

namespace sibyl::types {
namespace {

TEST(CompareTest, MalformedValuesDoNotReadPastTheirEnd) {
  const Bytes uuid = UuidBytes("ffffffff-0000-4000-8000-000000000000");
  EXPECT_LT(Compare(*N(Kind::kUuid), "abc", uuid), 0);  // bytewise
  EXPECT_NE(Compare(*N(Kind::kInt), "abc", EncodeInt(1)), 0);
  EXPECT_NE(Compare(*N(Kind::kDecimal), "ab", "abcd"), 0);
  const TypePtr texts = CqlType::Vector(N(Kind::kText), 2);
  EXPECT_NE(Compare(*texts,
                    std::string("\x05"
                                "a",
                                2),
                    std::string("\x01"
                                "a"
                                "\x01"
                                "b",
                                4)),
            2);
  EXPECT_NE(
      Compare(*CqlType::List(N(Kind::kInt)), std::string("\x00\x00\x00\x09", 4), EncodeList({})),
      2);
}

}  // namespace
}  // namespace sibyl::types

namespace sibyl::types {
namespace {

TypePtr Native(Kind kind) { return CqlType::Native(kind); }

// A DESC clustering column sorts in the exact reverse of its type's order,
// the empty value last.
TEST(CompareTest, ReversedOrderForDescendingClustering) {
  const std::vector<std::pair<TypePtr, std::vector<Bytes>>> cases = {
      {Native(Kind::kInt), {"", EncodeInt(-5), EncodeInt(0), EncodeInt(7)}},
      {Native(Kind::kText), {"", "A", "a", "b"}},
      {Native(Kind::kTimestamp), {"", EncodeTimestamp(-1), EncodeTimestamp(1)}},
      {Native(Kind::kDouble), {"", EncodeDouble(-1), EncodeDouble(-0.0), EncodeDouble(0.0)}},
      {Native(Kind::kDate), {EncodeDate(-1), EncodeDate(0), EncodeDate(1)}},
      {Native(Kind::kTime), {EncodeTime(0), EncodeTime(1)}},
      {Native(Kind::kDuration), {EncodeDuration(0, 0, 1), EncodeDuration(0, 1, 0)}},
      {CqlType::Tuple({Native(Kind::kInt)}),
       {EncodeTuple({}), EncodeTuple({BytesView(EncodeInt(1))})}},
  };
  for (const auto& [type, ascending] : cases) {
    for (size_t i = 0; i < ascending.size(); ++i) {
      EXPECT_EQ(CompareReversed(*type, ascending[i], ascending[i]), 0);
      for (size_t j = i + 1; j < ascending.size(); ++j) {
        EXPECT_GT(CompareReversed(*type, ascending[i], ascending[j]), 0) << type->ToCql() << i << j;
        EXPECT_LT(CompareReversed(*type, ascending[j], ascending[i]), 0) << type->ToCql() << i << j;
      }
    }
  }
}

TEST(CompareTest, UserTypesFieldByField) {
  const TypePtr udt =
      CqlType::Udt("ks", "p", {"a", "b"}, {Native(Kind::kInt), Native(Kind::kText)}, true);
  const Bytes one = EncodeInt(1);
  const Bytes two = EncodeInt(2);
  const std::vector<Bytes> ascending = {
      EncodeTuple({std::nullopt, BytesView("z")}), EncodeTuple({BytesView(one)}),
      EncodeTuple({BytesView(one), BytesView("a")}), EncodeTuple({BytesView(two), BytesView("")})};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(Compare(*udt, ascending[i], ascending[i + 1]), 0) << i;
  }
  // A trailing null equals an absent field.
  EXPECT_EQ(
      Compare(*udt, EncodeTuple({BytesView(one), std::nullopt}), EncodeTuple({BytesView(one)})), 0);
}

}  // namespace
}  // namespace sibyl::types
