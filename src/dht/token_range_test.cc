#include "dht/token_range.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sibyl::dht {
namespace {

constexpr Token kMax = INT64_MAX;

bool AnyContains(const std::vector<TokenRange>& ranges, Token t) {
  for (const TokenRange& r : ranges) {
    if (r.Contains(t)) return true;
  }
  return false;
}

TEST(TokenRangeTest, ContainsAsCassandra) {
  const TokenRange plain(10, 20);
  EXPECT_FALSE(plain.Contains(10));  // left is exclusive
  EXPECT_TRUE(plain.Contains(11));
  EXPECT_TRUE(plain.Contains(20));  // right is inclusive
  EXPECT_FALSE(plain.Contains(21));

  const TokenRange wrapping(20, 10);
  EXPECT_TRUE(wrapping.Contains(kMax));
  EXPECT_TRUE(wrapping.Contains(kMinimumToken));
  EXPECT_TRUE(wrapping.Contains(10));
  EXPECT_FALSE(wrapping.Contains(15));
  EXPECT_FALSE(wrapping.Contains(20));
  EXPECT_TRUE(wrapping.Contains(21));

  // (t, t] is the whole ring.
  for (Token t : {kMinimumToken, Token{0}, kMax}) {
    const TokenRange full(t, t);
    EXPECT_TRUE(full.IsFullRing());
    for (Token p : {kMinimumToken, Token{-1}, Token{0}, Token{1}, kMax})
      EXPECT_TRUE(full.Contains(p));
  }

  // kMinimumToken as a right bound is the ring's end, as a left bound its start.
  const TokenRange to_end(0, kMinimumToken);
  EXPECT_TRUE(to_end.Contains(kMax));
  EXPECT_TRUE(to_end.Contains(kMinimumToken));
  EXPECT_FALSE(to_end.Contains(-1));
  const TokenRange from_start(kMinimumToken, 0);
  EXPECT_FALSE(from_start.Contains(kMinimumToken));
  EXPECT_TRUE(from_start.Contains(kMinimumToken + 1));
  EXPECT_TRUE(from_start.Contains(0));
  EXPECT_FALSE(from_start.Contains(1));
}

TEST(TokenRangeTest, WrapAroundAsCassandra) {
  EXPECT_FALSE(TokenRange(1, 2).IsWrapAround());
  EXPECT_TRUE(TokenRange(2, 1).IsWrapAround());
  EXPECT_TRUE(TokenRange(5, 5).IsWrapAround());
  EXPECT_TRUE(TokenRange(5, kMinimumToken).IsWrapAround());
  EXPECT_FALSE(TokenRange(5, kMinimumToken).IsTrulyWrapAround());
  EXPECT_FALSE(TokenRange::FullRing().IsTrulyWrapAround());
  EXPECT_TRUE(TokenRange(5, 5).IsTrulyWrapAround());
}

TEST(TokenRangeTest, Unwrap) {
  EXPECT_EQ(TokenRange(1, 2).Unwrap(), std::vector<TokenRange>{TokenRange(1, 2)});
  EXPECT_EQ(TokenRange(2, 1).Unwrap(),
            (std::vector<TokenRange>{{2, kMinimumToken}, {kMinimumToken, 1}}));
  EXPECT_EQ(TokenRange(7, 7).Unwrap(),
            (std::vector<TokenRange>{{7, kMinimumToken}, {kMinimumToken, 7}}));
  EXPECT_EQ(TokenRange(3, kMinimumToken).Unwrap(),
            std::vector<TokenRange>{TokenRange(3, kMinimumToken)});
  EXPECT_EQ(TokenRange::FullRing().Unwrap(), std::vector<TokenRange>{TokenRange::FullRing()});
}

TEST(TokenRangeTest, Intersection) {
  EXPECT_EQ(TokenRange(0, 10).Intersection({5, 20}), std::vector<TokenRange>{TokenRange(5, 10)});
  EXPECT_TRUE(TokenRange(0, 10).Intersection({10, 20}).empty());
  EXPECT_FALSE(TokenRange(0, 10).Intersects({10, 20}));
  EXPECT_TRUE(TokenRange(0, 10).Intersects({9, 20}));
  // Two wrapping ranges: the common part wraps too, so it comes in pieces.
  EXPECT_EQ(TokenRange(10, 5).Intersection({3, 1}),
            (std::vector<TokenRange>{{kMinimumToken, 1}, {3, 5}, {10, kMinimumToken}}));
  // A full ring split at t meets the full ring as one piece.
  EXPECT_EQ(TokenRange(7, 7).Intersection(TokenRange::FullRing()),
            std::vector<TokenRange>{TokenRange::FullRing()});
  EXPECT_EQ(TokenRange(20, 10).Intersection({0, 30}), (std::vector<TokenRange>{{0, 10}, {20, 30}}));
}

TEST(TokenRangeTest, Size) {
  EXPECT_EQ(TokenRange(0, 10).Size(), TokenCount{10});
  EXPECT_EQ(TokenRange(10, 0).Size(), kRingSize - 10);
  EXPECT_EQ(TokenRange(4, 4).Size(), kRingSize);
  EXPECT_EQ(TokenRange(0, kMinimumToken).Size(), kRingSize / 2);
  EXPECT_EQ(TokenRange(kMinimumToken, kMax).Size(), kRingSize - 1);
  EXPECT_DOUBLE_EQ(TokenRange(0, kMinimumToken).RingFraction(), 0.5);
  EXPECT_DOUBLE_EQ(TokenRange::FullRing().RingFraction(), 1.0);
}

TEST(TokenRangeTest, Ordering) {
  EXPECT_LT(TokenRange(1, 5), TokenRange(2, 3));
  EXPECT_LT(TokenRange(1, 3), TokenRange(1, 5));
  EXPECT_EQ(TokenRange(1, 3), TokenRange(1, 3));
}

// Every operation agrees with point membership, on bounds drawn from the
// places where off-by-one and wrapping mistakes live.
TEST(TokenRangeTest, RandomizedAgainstPointMembership) {
  const std::vector<Token> interesting = {
      kMinimumToken, kMinimumToken + 1, kMinimumToken + 2, -2, -1, 0, 1, 2, kMax - 1, kMax};
  std::mt19937_64 rng(15);
  auto pick = [&] { return interesting[rng() % interesting.size()]; };
  for (int i = 0; i < 5000; ++i) {
    const TokenRange a(pick(), pick());
    const TokenRange b(pick(), pick());
    const std::vector<TokenRange> both = a.Intersection(b);
    const std::vector<TokenRange> pieces = a.Unwrap();
    for (const TokenRange& piece : both) EXPECT_FALSE(piece.IsTrulyWrapAround());
    bool b_inside_a = true;
    for (Token p : interesting) {
      EXPECT_EQ(AnyContains(both, p), a.Contains(p) && b.Contains(p))
          << "(" << a.left() << ", " << a.right() << "] and (" << b.left() << ", " << b.right()
          << "] at " << p;
      EXPECT_EQ(AnyContains(pieces, p), a.Contains(p));
      if (b.Contains(p) && !a.Contains(p)) b_inside_a = false;
    }
    // Points sample the ring, so they can only refute containment.
    if (!b_inside_a) {
      EXPECT_FALSE(a.Contains(b));
    }
    if (a.Contains(b)) {
      EXPECT_EQ(b.Intersection(a), b.Intersection(b));
    }
  }
}

}  // namespace
}  // namespace sibyl::dht
