// The ring's pairing of base and view replicas (Cassandra 4.1's
// ViewUtils.getViewNaturalEndpoint) on simulated rings: whatever the base
// and view partitions, every natural view replica gets each view update
// exactly once from the base replicas, a node holding the view partition
// applies it itself, pairs stay within a datacenter under
// NetworkTopologyStrategy, and a node that is no base replica sends to
// every view replica.

#include "cluster/views/ring_view_update_router.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cluster/simulated_cluster_test_util.h"
#include "dht/token.h"

namespace sibyl::cluster::testing {
namespace {

using Targets = index::ViewUpdateRouter::Targets;

SimulatedClusterOptions Ring(int nodes, int num_tokens, uint64_t seed,
                             std::map<std::string, std::string> replication) {
  SimulatedClusterOptions options;
  options.nodes = nodes;
  options.num_tokens = num_tokens;
  options.seed = seed;
  options.replication = std::move(replication);
  return options;
}

storage::PartitionKey AtToken(int64_t token) { return storage::PartitionKey{token, Bytes()}; }

std::span<const locator::NodeId> ReplicasOf(SimulatedCluster& cluster, int64_t token) {
  return cluster.node(0).views.Get()->ReplicationOf("ks")->placement->ReplicasFor(
      dht::Token{token});
}

bool Contains(std::span<const locator::NodeId> nodes, const types::Uuid& node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

// Routes one update from every node, and checks that each view replica
// receives it exactly once from the base replicas (locally or from one
// sender), that nodes outside both replica sets send to every view replica,
// and (per_dc) that pairs share a datacenter.
void ExpectEveryViewReplicaFedOnce(SimulatedCluster& cluster, int64_t base_token,
                                   int64_t view_token, bool per_dc) {
  SCOPED_TRACE("base token " + std::to_string(base_token) + ", view token " +
               std::to_string(view_token));
  const auto base = ReplicasOf(cluster, base_token);
  const auto view = ReplicasOf(cluster, view_token);
  std::map<types::Uuid, int> received;
  for (int i = 0; i < cluster.size(); ++i) {
    SimulatedCluster::Node& node = cluster.node(i);
    const RingViewUpdateRouter router(Unowned(node.views));
    const Targets targets = router.Route("ks", AtToken(base_token), AtToken(view_token));
    if (Contains(view, node.id)) {
      EXPECT_TRUE(targets.local);
      EXPECT_TRUE(targets.remote.empty());
      if (Contains(base, node.id)) ++received[node.id];
      continue;
    }
    EXPECT_FALSE(targets.local);
    if (!Contains(base, node.id)) {
      EXPECT_EQ(targets.remote, std::vector<types::Uuid>(view.begin(), view.end()));
      continue;
    }
    ASSERT_EQ(targets.remote.size(), 1u);
    const types::Uuid& target = targets.remote[0];
    EXPECT_TRUE(Contains(view, target));
    EXPECT_FALSE(Contains(base, target));
    if (per_dc) {
      const ClusterViewPtr ring = node.views.Get();
      EXPECT_EQ(ring->DatacenterOf(target), ring->DatacenterOf(node.id));
    }
    ++received[target];
  }
  for (const types::Uuid& replica : view) {
    EXPECT_EQ(received[replica], 1) << "view replica " << replica.ToString();
  }
}

TEST(ViewUpdateRouterTest, SimpleStrategyFeedsEveryViewReplicaOnce) {
  SimulatedCluster cluster(
      Ring(5, 4, 41, {{"class", "SimpleStrategy"}, {"replication_factor", "3"}}));
  std::mt19937_64 random(41);
  for (int n = 0; n < 300; ++n) {
    ExpectEveryViewReplicaFedOnce(cluster, static_cast<int64_t>(random()),
                                  static_cast<int64_t>(random()), false);
  }
}

// Base and view replica sets given by hand: the nodes in both keep the
// update; the others pair in placement order.
TEST(ViewUpdateRouterTest, PairsByPositionAfterRemovingSharedReplicas) {
  SimulatedCluster cluster(
      Ring(5, 1, 42, {{"class", "SimpleStrategy"}, {"replication_factor", "3"}}));
  // With one token per node, the range after the ring's j-th token has the
  // next three nodes on the ring as replicas: tokens one apart in ring
  // order share two of them.
  const ClusterViewPtr ring = cluster.node(0).views.Get();
  std::vector<int64_t> tokens;
  for (const auto& [id, record] : ring->directory().nodes()) {
    tokens.push_back(record.tokens.at(0));
  }
  std::sort(tokens.begin(), tokens.end());
  const int64_t base_token = tokens[0];  // owned from the range ending at tokens[0]
  const int64_t view_token = tokens[1];
  const auto base = ReplicasOf(cluster, base_token);
  const auto view = ReplicasOf(cluster, view_token);
  ASSERT_EQ(base.size(), 3u);
  // Ring successors: base = (n0, n1, n2), view = (n1, n2, n3).
  ASSERT_EQ(base[1], view[0]);
  ASSERT_EQ(base[2], view[1]);
  for (int i = 0; i < cluster.size(); ++i) {
    const types::Uuid& id = cluster.node(i).id;
    const Targets targets = RingViewUpdateRouter(Unowned(cluster.node(i).views))
                                .Route("ks", AtToken(base_token), AtToken(view_token));
    if (id == base[0]) {
      EXPECT_EQ(targets.remote, std::vector<types::Uuid>{view[2]});
      EXPECT_FALSE(targets.local);
    } else if (id == base[1] || id == base[2] || id == view[2]) {
      EXPECT_TRUE(targets.local);
      EXPECT_TRUE(targets.remote.empty());
    }
  }
  ExpectEveryViewReplicaFedOnce(cluster, base_token, view_token, false);

  // base = (n0, n1, n2), view = (n3, n4, n0): n0 keeps it; then n1 → n3 and
  // n2 → n4, in placement order.
  const int64_t far_token = tokens[3];
  const auto far = ReplicasOf(cluster, far_token);
  ASSERT_EQ(far[2], base[0]);
  const std::map<types::Uuid, types::Uuid> pairs = {{base[1], far[0]}, {base[2], far[1]}};
  for (int i = 0; i < cluster.size(); ++i) {
    const types::Uuid& id = cluster.node(i).id;
    const Targets targets = RingViewUpdateRouter(Unowned(cluster.node(i).views))
                                .Route("ks", AtToken(base_token), AtToken(far_token));
    const auto pair = pairs.find(id);
    if (pair != pairs.end()) {
      EXPECT_EQ(targets.remote, std::vector<types::Uuid>{pair->second});
      EXPECT_FALSE(targets.local);
    } else if (id == base[0]) {
      EXPECT_TRUE(targets.local);
      EXPECT_TRUE(targets.remote.empty());
    }
  }
}

TEST(ViewUpdateRouterTest, NetworkTopologyStrategyPairsWithinTheDatacenter) {
  SimulatedClusterOptions options =
      Ring(6, 4, 43, {{"class", "NetworkTopologyStrategy"}, {"dc1", "2"}, {"dc2", "2"}});
  options.datacenters = {"dc1", "dc2"};
  SimulatedCluster cluster(options);
  std::mt19937_64 random(43);
  for (int n = 0; n < 300; ++n) {
    ExpectEveryViewReplicaFedOnce(cluster, static_cast<int64_t>(random()),
                                  static_cast<int64_t>(random()), true);
  }
}

// A keyspace the ring does not know (the system keyspaces, kept by every
// node) is written here.
TEST(ViewUpdateRouterTest, UnknownKeyspaceIsLocal) {
  SimulatedCluster cluster(
      Ring(3, 16, 44, {{"class", "SimpleStrategy"}, {"replication_factor", "3"}}));
  const Targets targets =
      RingViewUpdateRouter(Unowned(cluster.node(0).views)).Route("nowhere", AtToken(1), AtToken(2));
  EXPECT_TRUE(targets.local);
  EXPECT_TRUE(targets.remote.empty());
}

}  // namespace
}  // namespace sibyl::cluster::testing
