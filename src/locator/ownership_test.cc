#include "locator/ownership.h"

#include <gtest/gtest.h>

#include "locator/locator_test_util.h"

namespace sibyl::locator {
namespace {

using testing::Node;
using testing::RingOf;

constexpr dht::Token kQuarter = dht::Token{1} << 62;

TEST(OwnershipTest, PrimaryIsTheSumOfOwnedRanges) {
  // Node 0 at -2^62 owns (2^62, -2^62]: half the ring; nodes 1, 2 a quarter each.
  const TokenRing ring = RingOf({-kQuarter, 0, kQuarter});
  const std::map<NodeId, double> owns = PrimaryOwnership(ring);
  EXPECT_DOUBLE_EQ(owns.at(Node(0)), 0.5);
  EXPECT_DOUBLE_EQ(owns.at(Node(1)), 0.25);
  EXPECT_DOUBLE_EQ(owns.at(Node(2)), 0.25);
  EXPECT_DOUBLE_EQ(PrimaryOwnership(RingOf({123})).at(Node(0)), 1.0);
  EXPECT_TRUE(PrimaryOwnership(TokenRing()).empty());
}

TEST(OwnershipTest, EffectiveCountsEveryReplica) {
  const TokenRing ring = RingOf({-kQuarter, 0, kQuarter});
  const Topology topology(
      {{Node(0), {"dc1", "r1"}}, {Node(1), {"dc1", "r1"}}, {Node(2), {"dc1", "r1"}}});
  // RF 2: node 0 replicates its own half and node 2's quarter (its successor).
  const auto rf2 = ReplicaPlacement::Build(ReplicationStrategy::Simple(2), ring, topology, Node(0));
  const std::map<NodeId, double> owns = EffectiveOwnership(ring, *rf2);
  EXPECT_DOUBLE_EQ(owns.at(Node(0)), 0.75);
  EXPECT_DOUBLE_EQ(owns.at(Node(1)), 0.75);  // its quarter and node 0's half
  EXPECT_DOUBLE_EQ(owns.at(Node(2)), 0.5);
  // RF 3 on three nodes: everyone holds everything, as nodetool shows 100%.
  const auto rf3 = ReplicaPlacement::Build(ReplicationStrategy::NetworkTopology({{"dc1", 3}}), ring,
                                           topology, Node(0));
  for (const auto& [node, share] : EffectiveOwnership(ring, *rf3)) EXPECT_DOUBLE_EQ(share, 1.0);
  // LocalStrategy: the local node holds the whole ring.
  const auto local = ReplicaPlacement::Build(ReplicationStrategy::Local(), ring, topology, Node(7));
  EXPECT_EQ(EffectiveOwnership(ring, *local), (std::map<NodeId, double>{{Node(7), 1.0}}));
}

}  // namespace
}  // namespace sibyl::locator
