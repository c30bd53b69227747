#include "types/value_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "common/error.h"

namespace sibyl::types {
namespace {

TEST(ValueCodecTest, FixedWidthRoundTrips) {
  for (int32_t v : {0, 1, -1, INT32_MIN, INT32_MAX}) EXPECT_EQ(DecodeInt(EncodeInt(v)), v);
  for (int64_t v : {int64_t{0}, int64_t{-1}, INT64_MIN, INT64_MAX}) {
    EXPECT_EQ(DecodeBigint(EncodeBigint(v)), v);
    EXPECT_EQ(DecodeBigint(EncodeTimestamp(v)), v);
  }
  for (int16_t v : {int16_t{0}, int16_t{-1}, int16_t{INT16_MIN}, int16_t{INT16_MAX}}) {
    EXPECT_EQ(DecodeSmallint(EncodeSmallint(v)), v);
  }
  for (int8_t v : {int8_t{0}, int8_t{-1}, int8_t{-128}, int8_t{127}}) {
    EXPECT_EQ(DecodeTinyint(EncodeTinyint(v)), v);
  }
  EXPECT_TRUE(DecodeBoolean(EncodeBoolean(true)));
  EXPECT_FALSE(DecodeBoolean(EncodeBoolean(false)));
  for (double v : {0.0, -0.0, 1.5, -1e300, std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(DecodeDouble(EncodeDouble(v)), v);
  }
  EXPECT_TRUE(std::isnan(DecodeDouble(EncodeDouble(std::nan("")))));
  for (float v : {0.0f, 1.1f, -3.4e38f}) EXPECT_EQ(DecodeFloat(EncodeFloat(v)), v);
  for (int32_t d : {0, 1, -1, 19000, INT32_MIN, INT32_MAX}) EXPECT_EQ(DecodeDate(EncodeDate(d)), d);
}

TEST(ValueCodecTest, WireBytes) {
  EXPECT_EQ(EncodeInt(1), std::string("\x00\x00\x00\x01", 4));
  EXPECT_EQ(EncodeBigint(-2), std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8));
  EXPECT_EQ(EncodeBoolean(true), "\x01");
  EXPECT_EQ(EncodeDouble(1.0), std::string("\x3f\xf0\x00\x00\x00\x00\x00\x00", 8));
  EXPECT_EQ(EncodeFloat(1.0f), std::string("\x3f\x80\x00\x00", 4));
  // The epoch is day 2^31.
  EXPECT_EQ(EncodeDate(0), std::string("\x80\x00\x00\x00", 4));
  EXPECT_EQ(EncodeDate(-1), std::string("\x7f\xff\xff\xff", 4));
  EXPECT_EQ(EncodeVarint(256), std::string("\x01\x00", 2));
  EXPECT_EQ(EncodeText("hé"), "h\xc3\xa9");
  // 1 month, 2 days, 3 ns as zig-zag vints.
  EXPECT_EQ(EncodeDuration(1, 2, 3), "\x02\x04\x06");
  EXPECT_EQ(EncodeDuration(-1, 0, -1), std::string("\x01\x00\x01", 3));
}

TEST(ValueCodecTest, Inet) {
  EXPECT_EQ(EncodeInet("127.0.0.1"), std::string("\x7f\x00\x00\x01", 4));
  const Bytes v6 = EncodeInet("::1");
  ASSERT_EQ(v6.size(), 16u);
  EXPECT_EQ(v6[15], 1);
  EXPECT_EQ(EncodeInet("2001:db8::ff00:42:8329").size(), 16u);
  try {
    (void)EncodeInet("300.1.1.1");
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(), "Unable to make inet address from '300.1.1.1'");
  }
  EXPECT_THROW((void)EncodeInet("localhost"), CqlError);
}

TEST(ValueCodecTest, ListsAndSetsRoundTrip) {
  const Bytes list = EncodeList({EncodeInt(1), EncodeInt(2), ""});
  EXPECT_EQ(list, std::string("\x00\x00\x00\x03"
                              "\x00\x00\x00\x04\x00\x00\x00\x01"
                              "\x00\x00\x00\x04\x00\x00\x00\x02"
                              "\x00\x00\x00\x00",
                              24));
  const auto elements = DecodeListElements(list);
  ASSERT_EQ(elements.size(), 3u);
  EXPECT_EQ(DecodeInt(elements[1]), 2);
  EXPECT_TRUE(elements[2].empty());
  EXPECT_TRUE(DecodeListElements(EncodeList({})).empty());
}

TEST(ValueCodecTest, MapsRoundTrip) {
  const Bytes map = EncodeMap({{"a", EncodeInt(1)}, {"bb", EncodeInt(2)}});
  const auto entries = DecodeMapEntries(map);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].first, "a");
  EXPECT_EQ(DecodeInt(entries[0].second), 1);
  EXPECT_EQ(entries[1].first, "bb");
}

TEST(ValueCodecTest, TuplesRoundTripWithNulls) {
  const Bytes int_one = EncodeInt(1);
  const Bytes tuple = EncodeTuple({BytesView(int_one), std::nullopt, BytesView("x")});
  EXPECT_EQ(tuple, std::string("\x00\x00\x00\x04\x00\x00\x00\x01"
                               "\xff\xff\xff\xff"
                               "\x00\x00\x00\x01x",
                               17));
  const auto components = DecodeTupleComponents(tuple);
  ASSERT_EQ(components.size(), 3u);
  EXPECT_EQ(DecodeInt(*components[0]), 1);
  EXPECT_FALSE(components[1].has_value());
  EXPECT_EQ(*components[2], "x");
}

void ExpectInvalid(const std::function<void()>& f, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "expected: " << message;
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_EQ(e.what(), message);
  }
}

TEST(ValueCodecTest, MalformedCollections) {
  ExpectInvalid([] { DecodeListElements(std::string("\x00\x00\x00\x02\x00\x00\x00\x00", 8)); },
                "Not enough bytes to read a list");
  ExpectInvalid([] { DecodeListElements(std::string("\x00\x00", 2)); },
                "Not enough bytes to read a list");
  ExpectInvalid([] { DecodeListElements(std::string("\x00\x00\x00\x00\x01", 5)); },
                "Unexpected extraneous bytes after list value");
  ExpectInvalid([] { DecodeListElements(std::string("\x00\x00\x00\x01\xff\xff\xff\xff", 8)); },
                "Null value read when not allowed");
  ExpectInvalid([] { DecodeMapEntries(std::string("\x00\x00\x00\x01\x00\x00\x00\x00", 8)); },
                "Not enough bytes to read a map");
  ExpectInvalid([] { DecodeTupleComponents(std::string("\x00\x00\x00\x05\x00", 5)); },
                "Not enough bytes to read 0th component");
}

}  // namespace
}  // namespace sibyl::types
