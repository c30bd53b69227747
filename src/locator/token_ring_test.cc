#include "locator/token_ring.h"

#include <gtest/gtest.h>

#include "common/check.h"
#include "common/error.h"
#include "locator/locator_test_util.h"

namespace sibyl::locator {
namespace {

using testing::Node;
using testing::Numbers;
using testing::RingOf;

TEST(TokenRingTest, SortsTokensAndRecordsOwners) {
  const TokenRing ring({{Node(1), {300, -100}}, {Node(2), {0}}, {Node(3), {}}});
  ASSERT_EQ(ring.size(), 3u);
  EXPECT_EQ(std::vector<dht::Token>(ring.tokens().begin(), ring.tokens().end()),
            (std::vector<dht::Token>{-100, 0, 300}));
  EXPECT_EQ(Numbers(ring.nodes()), (std::vector<int>{1, 2}));  // node 3 has no token
  EXPECT_EQ(testing::NumberOf(ring.NodeAt(0)), 1);
  EXPECT_EQ(testing::NumberOf(ring.NodeAt(1)), 2);
  EXPECT_EQ(testing::NumberOf(ring.NodeAt(2)), 1);
}

TEST(TokenRingTest, FirstTokenIndexWrapsToZero) {
  const TokenRing ring = RingOf({-100, 0, 300});
  EXPECT_EQ(ring.FirstTokenIndex(dht::kMinimumToken), 0u);
  EXPECT_EQ(ring.FirstTokenIndex(-101), 0u);
  EXPECT_EQ(ring.FirstTokenIndex(-100), 0u);  // ownership is (previous, T]
  EXPECT_EQ(ring.FirstTokenIndex(-99), 1u);
  EXPECT_EQ(ring.FirstTokenIndex(0), 1u);
  EXPECT_EQ(ring.FirstTokenIndex(300), 2u);
  EXPECT_EQ(ring.FirstTokenIndex(301), 0u);
  EXPECT_EQ(ring.FirstTokenIndex(INT64_MAX), 0u);
  EXPECT_EQ(testing::NumberOf(ring.Owner(301)), 0);
  EXPECT_EQ(testing::NumberOf(ring.Owner(1)), 2);
}

TEST(TokenRingTest, RangesAreThePreviousTokenToTheToken) {
  const TokenRing ring({{Node(1), {-100, 300}}, {Node(2), {0}}});
  EXPECT_EQ(ring.RangeAt(0), dht::TokenRange(300, -100));
  EXPECT_EQ(ring.RangeAt(1), dht::TokenRange(-100, 0));
  EXPECT_EQ(ring.OwnedRanges(Node(1)), (std::vector<dht::TokenRange>{{300, -100}, {0, 300}}));
  EXPECT_EQ(ring.OwnedRanges(Node(2)), std::vector<dht::TokenRange>{dht::TokenRange(-100, 0)});
  EXPECT_TRUE(ring.OwnedRanges(Node(9)).empty());
  EXPECT_EQ(ring.TokensOf(Node(1)), (std::vector<dht::Token>{-100, 300}));
  EXPECT_EQ(ring.IndexOf(Node(2)), 1);
  EXPECT_EQ(ring.IndexOf(Node(9)), -1);
}

TEST(TokenRingTest, OneTokenOwnsTheWholeRing) {
  const TokenRing ring = RingOf({42});
  EXPECT_TRUE(ring.RangeAt(0).IsFullRing());
  EXPECT_EQ(testing::NumberOf(ring.Owner(-5)), 0);
}

TEST(TokenRingTest, TwoNodesOnOneTokenAreRefused) {
  try {
    const TokenRing ring({{Node(1), {5, 7}}, {Node(2), {7}}});
    FAIL() << "duplicate accepted";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kConfigError);
    EXPECT_EQ(std::string(e.what()), "Token 7 is claimed by two nodes: " + Node(1).ToString() +
                                         " and " + Node(2).ToString());
  }
  // A node repeating its own token is one token.
  const std::map<NodeId, std::vector<dht::Token>> repeated = {{Node(1), {5, 5}}};
  EXPECT_EQ(TokenRing(repeated).size(), 1u);
}

TEST(TokenRingTest, EmptyRing) {
  const TokenRing ring;
  EXPECT_TRUE(ring.empty());
  EXPECT_TRUE(ring.nodes().empty());
  EXPECT_THROW(ring.FirstTokenIndex(0), InternalError);
}

}  // namespace
}  // namespace sibyl::locator
