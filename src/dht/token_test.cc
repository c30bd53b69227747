#include "dht/token.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>

namespace sibyl::dht {
namespace {

Bytes Of(std::initializer_list<int> bytes) {
  Bytes out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

Bytes Repeat(const Bytes& unit, int times) {
  Bytes out;
  for (int i = 0; i < times; ++i) out += unit;
  return out;
}

Bytes Range(int first, int count) {
  Bytes out;
  for (int i = 0; i < count; ++i) out.push_back(static_cast<char>(first + i));
  return out;
}

// Vectors from Cassandra's partitioner as the drivers pin them (Python driver
// tests/unit/test_metadata.py, the C# and Ruby drivers' Murmur3 tests, the
// Node.js tokenizer tests).
TEST(Murmur3TokenTest, DriverVectors) {
  EXPECT_EQ(Murmur3Token("123"), -7468325962851647638);
  EXPECT_EQ(Murmur3Token("9223372036854775807"), 7162290910810015547);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0xfe}), 8)), -8927430733708461935);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0x10}), 8)), 1446172840243228796);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0x00, 0xff, 0x10, 0xfa, 0x99}), 10)), 5837342703291459765);
  EXPECT_EQ(Murmur3Token(Of({0xfe, 0xfe, 0xfe, 0xfe})), 4566408979886474012);
  EXPECT_EQ(Murmur3Token(Of({0xe2, 0xe7, 0xe2, 0xe7, 0xe2, 0xe7, 0x01})), 2222373981930033306);
  EXPECT_EQ(Murmur3Token(Of({0, 0, 0, 1})), -4069959284402364209);  // int 1
}

TEST(Murmur3TokenTest, BlockAndTailVectors) {
  EXPECT_EQ(Murmur3Token(Range(1, 16)), -5563837382979743776);
  EXPECT_EQ(Murmur3Token(Range(2, 16)), -1513403162740402161);
  EXPECT_EQ(Murmur3Token(Range(3, 16)), -495360443712684655);
  EXPECT_EQ(Murmur3Token(Range(4, 16)), 1734091135765407943);
  EXPECT_EQ(Murmur3Token(Range(5, 16)), -3199412112042527988);
  EXPECT_EQ(Murmur3Token(Range(6, 16)), -6316563938475080831);
  EXPECT_EQ(Murmur3Token(Range(7, 16)), 8228893370679682632);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0x00}), 16)), 5457549051747178710);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0xff}), 16)), -2824192546314762522);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0xfe}), 16)), -833317529301936754);
  EXPECT_EQ(Murmur3Token(Of({0, 1, 2, 3}) + Repeat(Of({0xff}), 12)), 6463632673159404390);
  EXPECT_EQ(Murmur3Token(Repeat(Of({0xfe}), 17)), -1672437813826982685);
}

TEST(Murmur3TokenTest, SignExtendedTailBytes) {
  // Tails with bytes >= 0x80: where Cassandra's hash departs from the
  // reference MurmurHash3.
  EXPECT_EQ(Murmur3Token(Of({0, 0, 0, 0})), -3485513579396041028);
  EXPECT_EQ(Murmur3Token(Of({0, 1, 0x7f, 0x7f})), 6573459401642635627);
  EXPECT_EQ(Murmur3Token(Of({0, 0xff, 0xff, 0xff})), 123573637386978882);
  EXPECT_EQ(Murmur3Token(Of({0xff, 1, 2, 3})), -2839127690952877842);
}

TEST(Murmur3TokenTest, EmptyKeyIsTheMinimumToken) {
  EXPECT_EQ(Murmur3Token(""), kMinimumToken);
  // Any real key's token is above it.
  EXPECT_GT(Murmur3Token(std::string(1, '\0')), kMinimumToken);
}

TEST(CompositeRoutingKeyTest, SplitGivesTheComponentsBack) {
  const Bytes one = Of({0, 0, 0, 1});
  const Bytes key = CompositeRoutingKey({"ab", "", one});
  EXPECT_EQ(SplitCompositeRoutingKey(key, 3), (std::vector<BytesView>{"ab", "", one}));
  // A truncated key leaves what cannot be read empty, never reads past its end.
  EXPECT_EQ(SplitCompositeRoutingKey(BytesView(key).substr(0, 6), 3),
            (std::vector<BytesView>{"ab", "", ""}));
}

TEST(CompositeRoutingKeyTest, LengthPrefixedComponentsWithTerminator) {
  const Bytes key = CompositeRoutingKey({"a", Of({0, 0, 0, 1})});
  EXPECT_EQ(key, Of({0, 1, 'a', 0, 0, 4, 0, 0, 0, 1, 0}));
  EXPECT_EQ(CompositeRoutingKey({""}), Of({0, 0, 0}));
  EXPECT_EQ(CompositeRoutingKey({}), "");
  EXPECT_EQ(CompositeRoutingKey({Bytes(300, 'x')}).substr(0, 2), Of({0x01, 0x2c}));
}

TEST(RandomTokensTest, SortedDistinctAndReproducible) {
  std::mt19937_64 rng(42);
  const auto tokens = RandomTokens(256, rng);
  ASSERT_EQ(tokens.size(), 256u);
  EXPECT_TRUE(std::is_sorted(tokens.begin(), tokens.end()));
  EXPECT_EQ(std::adjacent_find(tokens.begin(), tokens.end()), tokens.end());
  EXPECT_EQ(std::find(tokens.begin(), tokens.end(), kMinimumToken), tokens.end());
  std::mt19937_64 same_seed(42);
  EXPECT_EQ(RandomTokens(256, same_seed), tokens);
  std::mt19937_64 rng2(7);
  EXPECT_TRUE(RandomTokens(0, rng2).empty());
}

}  // namespace
}  // namespace sibyl::dht
