#include "locator/replica_placement.h"

#include <gtest/gtest.h>

#include <random>

#include "locator/locator_test_util.h"

namespace sibyl::locator {
namespace {

using testing::Node;
using testing::Numbers;
using testing::RingOf;

struct Cluster {
  TokenRing ring;
  Topology topology;
};

Cluster RandomCluster(std::mt19937_64& rng, int nodes, int vnodes) {
  std::map<NodeId, std::vector<dht::Token>> tokens;
  std::map<NodeId, Location> locations;
  for (int n = 0; n < nodes; ++n) {
    tokens[Node(n)] = dht::RandomTokens(vnodes, rng);
    locations[Node(n)] = {"dc" + std::to_string(rng() % 2), "r" + std::to_string(rng() % 3)};
  }
  return {TokenRing(tokens), Topology(locations)};
}

// The table answers what the strategy computes, for ring tokens, the tokens
// next to them and random keys.
TEST(ReplicaPlacementTest, AgreesWithTheStrategy) {
  std::mt19937_64 rng(5);
  const std::vector<ReplicationStrategy> strategies = {
      ReplicationStrategy::Simple(3), ReplicationStrategy::Simple(1),
      ReplicationStrategy::NetworkTopology({{"dc0", 3}, {"dc1", 2}}),
      ReplicationStrategy::NetworkTopology({{"dc1", 4}})};
  for (int round = 0; round < 5; ++round) {
    const Cluster cluster = RandomCluster(rng, 3 + round * 2, 8);
    for (const ReplicationStrategy& strategy : strategies) {
      const auto placement =
          ReplicaPlacement::Build(strategy, cluster.ring, cluster.topology, Node(0));
      ASSERT_EQ(placement->ring_size(), cluster.ring.size());
      std::vector<dht::Token> probes;
      for (dht::Token t : cluster.ring.tokens()) {
        probes.insert(probes.end(), {t, t + 1, t - 1});
      }
      for (int i = 0; i < 100; ++i) probes.push_back(static_cast<dht::Token>(rng()));
      for (dht::Token token : probes) {
        const std::span<const NodeId> fast = placement->ReplicasFor(token);
        EXPECT_EQ(std::vector<NodeId>(fast.begin(), fast.end()),
                  strategy.NaturalReplicas(token, cluster.ring, cluster.topology, Node(0)))
            << "token " << token;
      }
    }
  }
}

TEST(ReplicaPlacementTest, RangesAreClosedByTheirToken) {
  const TokenRing ring = RingOf({0, 10, 20, 30});
  const auto placement =
      ReplicaPlacement::Build(ReplicationStrategy::Simple(2), ring, Topology(), Node(9));
  EXPECT_EQ(Numbers(placement->ReplicasFor(10)), (std::vector<int>{1, 2}));
  EXPECT_EQ(Numbers(placement->ReplicasFor(11)), (std::vector<int>{2, 3}));
  EXPECT_EQ(Numbers(placement->ReplicasFor(31)), (std::vector<int>{0, 1}));
  EXPECT_EQ(Numbers(placement->ReplicasAt(3)), (std::vector<int>{3, 0}));
  EXPECT_EQ(placement->strategy(), ReplicationStrategy::Simple(2));
}

TEST(ReplicaPlacementTest, EmptyRingAndLocalStrategy) {
  const auto empty =
      ReplicaPlacement::Build(ReplicationStrategy::Simple(3), TokenRing(), Topology(), Node(9));
  EXPECT_TRUE(empty->ReplicasFor(0).empty());
  const auto local =
      ReplicaPlacement::Build(ReplicationStrategy::Local(), RingOf({0, 10}), Topology(), Node(9));
  EXPECT_EQ(Numbers(local->ReplicasFor(5)), std::vector<int>{9});
  EXPECT_EQ(Numbers(local->ReplicasAt(0)), std::vector<int>{9});
}

}  // namespace
}  // namespace sibyl::locator
