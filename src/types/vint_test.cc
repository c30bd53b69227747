#include "types/vint.h"

#include <gtest/gtest.h>

namespace sibyl::types {
namespace {

Bytes Unsigned(uint64_t v) {
  Bytes out;
  AppendUnsignedVint(out, v);
  return out;
}

TEST(VintTest, UnsignedSizesAndBytes) {
  EXPECT_EQ(Unsigned(0), std::string("\x00", 1));
  EXPECT_EQ(Unsigned(127), "\x7f");
  EXPECT_EQ(Unsigned(128), "\x80\x80");
  EXPECT_EQ(Unsigned(0x3fff), "\xbf\xff");
  EXPECT_EQ(Unsigned(0x4000), std::string("\xc0\x40\x00", 3));
  EXPECT_EQ(Unsigned(UINT64_MAX), std::string(9, '\xff'));
  EXPECT_EQ(Unsigned(uint64_t{1} << 56).size(), 9u);
  EXPECT_EQ(Unsigned((uint64_t{1} << 56) - 1).size(), 8u);
}

TEST(VintTest, RoundTrips) {
  for (uint64_t v :
       {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{300}, uint64_t{1} << 20,
        uint64_t{1} << 35, (uint64_t{1} << 56) - 1, uint64_t{1} << 56, UINT64_MAX}) {
    const Bytes encoded = Unsigned(v);
    const auto decoded = ReadUnsignedVint(encoded);
    ASSERT_TRUE(decoded) << v;
    EXPECT_EQ(decoded->value, v);
    EXPECT_EQ(decoded->size, encoded.size());
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63}, int64_t{64},
                    INT64_MIN, INT64_MAX}) {
    Bytes encoded;
    AppendSignedVint(encoded, v);
    const auto decoded = ReadSignedVint(encoded);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(static_cast<int64_t>(decoded->value), v);
  }
  Bytes minus_one;
  AppendSignedVint(minus_one, -1);
  EXPECT_EQ(minus_one, "\x01");  // zig-zag
}

TEST(VintTest, TruncatedInput) {
  EXPECT_FALSE(ReadUnsignedVint(""));
  EXPECT_FALSE(ReadUnsignedVint("\x80"));
  EXPECT_FALSE(ReadUnsignedVint(std::string(8, '\xff')));
}

}  // namespace
}  // namespace sibyl::types
