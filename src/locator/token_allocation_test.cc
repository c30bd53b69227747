#include "locator/token_allocation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "locator/locator_test_util.h"
#include "locator/ownership.h"
#include "locator/replica_placement.h"

namespace sibyl::locator {
namespace {

using testing::Node;

struct Spread {
  double max_ratio;  // the most loaded node's share over its fair share
  double min_ratio;
};

Spread SpreadOf(const std::map<NodeId, double>& ownership, double fair) {
  Spread spread{0, 1e9};
  for (const auto& [node, share] : ownership) {
    spread.max_ratio = std::max(spread.max_ratio, share / fair);
    spread.min_ratio = std::min(spread.min_ratio, share / fair);
  }
  return spread;
}

// Nodes 0..count-1 join one at a time, each allocating against the ring of
// those before it. Checks every allocation's invariants on the way.
std::map<NodeId, std::vector<dht::Token>> Grow(
    int count, int num_tokens, uint64_t seed,
    std::map<NodeId, std::vector<dht::Token>> start = {}) {
  std::map<NodeId, std::vector<dht::Token>> tokens = std::move(start);
  const int first = static_cast<int>(tokens.size());
  for (int n = first; n < first + count; ++n) {
    const TokenRing ring(tokens);
    const std::vector<dht::Token> allocated = AllocateTokens(ring, num_tokens, seed * 1000 + n);
    EXPECT_EQ(allocated.size(), static_cast<size_t>(num_tokens));
    EXPECT_TRUE(std::is_sorted(allocated.begin(), allocated.end()));
    EXPECT_EQ(std::set<dht::Token>(allocated.begin(), allocated.end()).size(), allocated.size());
    for (dht::Token t : allocated) {
      EXPECT_NE(t, dht::kMinimumToken);
      EXPECT_FALSE(std::binary_search(ring.tokens().begin(), ring.tokens().end(), t));
    }
    tokens[Node(n)] = allocated;
  }
  return tokens;
}

constexpr uint64_t kSeeds[] = {1, 2, 3, 42, 15151};

// The requirement: 16 tokens per node, nodes joining one at a time, no node
// above 1.25x its fair share of the ring. Measured over these seeds: 3 nodes
// 1.00x; 4 to 6 nodes between 0.958x and 1.028x (16 pieces do not divide
// evenly among 3 to 5 donors). The bounds below are the measured ones,
// rounded out.
TEST(TokenAllocationTest, SixteenTokensKeepPrimaryOwnershipWithinAQuarterOfFair) {
  for (uint64_t seed : kSeeds) {
    for (int nodes = 3; nodes <= 6; ++nodes) {
      const TokenRing ring(Grow(nodes, 16, seed));
      const Spread spread = SpreadOf(PrimaryOwnership(ring), 1.0 / nodes);
      EXPECT_LE(spread.max_ratio, 1.04) << nodes << " nodes, seed " << seed;
      EXPECT_GE(spread.min_ratio, 0.95) << nodes << " nodes, seed " << seed;
    }
  }
}

// Effective ownership ("Owns (effective)") under SimpleStrategy RF 3: the
// allocator does not look at replication, so which node follows which
// matters. Measured with 16 tokens over these seeds, against RF/N: 3 nodes
// 1.00x (everyone holds everything); 4 nodes 0.83x..1.14x; 5 nodes
// 0.76x..1.16x; 6 nodes 0.80x..1.12x. A replication-aware allocator (as
// Cassandra's allocate_tokens_for_local_replication_factor) would do better.
TEST(TokenAllocationTest, EffectiveOwnershipWithSimpleStrategyRf3) {
  const auto strategy = ReplicationStrategy::Simple(3);
  for (uint64_t seed : kSeeds) {
    for (int nodes = 3; nodes <= 6; ++nodes) {
      const TokenRing ring(Grow(nodes, 16, seed));
      const auto placement = ReplicaPlacement::Build(strategy, ring, Topology(), Node(0));
      const Spread spread = SpreadOf(EffectiveOwnership(ring, *placement), 3.0 / nodes);
      EXPECT_LE(spread.max_ratio, 1.18) << nodes << " nodes, seed " << seed;
      EXPECT_GE(spread.min_ratio, 0.75) << nodes << " nodes, seed " << seed;
    }
  }
}

// Joining a ring whose tokens were random (Cassandra's allocation before
// 4.0): newcomers take their share from the most loaded. Measured on 4
// random nodes of 16 tokens (worst 1.10x..1.42x of fair) plus 2 allocated:
// worst 1.01x..1.07x.
TEST(TokenAllocationTest, JoiningARandomRing) {
  for (uint64_t seed : kSeeds) {
    std::mt19937_64 rng(seed);
    std::map<NodeId, std::vector<dht::Token>> start;
    for (int n = 0; n < 4; ++n) start[Node(n)] = dht::RandomTokens(16, rng);
    const Spread before = SpreadOf(PrimaryOwnership(TokenRing(start)), 1.0 / 4);
    const TokenRing ring(Grow(2, 16, seed, start));
    const Spread after = SpreadOf(PrimaryOwnership(ring), 1.0 / 6);
    EXPECT_LT(after.max_ratio, before.max_ratio) << "seed " << seed;
    EXPECT_LE(after.max_ratio, 1.10) << "seed " << seed;
  }
}

TEST(TokenAllocationTest, TheFirstNodeSpacesItsTokensEvenly) {
  const std::vector<dht::Token> tokens = AllocateTokens(TokenRing(), 4, 7);
  ASSERT_EQ(tokens.size(), 4u);
  for (size_t i = 1; i < tokens.size(); ++i) {
    EXPECT_EQ(static_cast<uint64_t>(tokens[i]) - static_cast<uint64_t>(tokens[i - 1]),
              uint64_t{1} << 62);
  }
  EXPECT_EQ(AllocateTokens(TokenRing(), 1, 7).size(), 1u);
}

TEST(TokenAllocationTest, DeterministicForASeed) {
  const auto ring = TokenRing(Grow(3, 16, 5));
  EXPECT_EQ(AllocateTokens(ring, 16, 99), AllocateTokens(ring, 16, 99));
  // Two nodes joining from one snapshot with different seeds do not collide.
  const std::vector<dht::Token> a = AllocateTokens(ring, 16, 99);
  const std::vector<dht::Token> b = AllocateTokens(ring, 16, 100);
  std::vector<dht::Token> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  EXPECT_TRUE(common.empty());
}

// One token per node cannot balance by cutting (a donor gives all it gives
// from one range); the invariants hold (checked in Grow) and the second node
// halves the ring.
TEST(TokenAllocationTest, OneTokenPerNode) {
  const TokenRing two(Grow(2, 1, 3));
  const Spread spread = SpreadOf(PrimaryOwnership(two), 1.0 / 2);
  EXPECT_NEAR(spread.max_ratio, 1.0, 0.02);
  EXPECT_EQ(TokenRing(Grow(6, 1, 3)).size(), 6u);
}

}  // namespace
}  // namespace sibyl::locator
