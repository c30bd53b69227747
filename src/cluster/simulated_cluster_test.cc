#include <gtest/gtest.h>

#include "cluster/simulated_cluster_test_util.h"

namespace sibyl::cluster::testing {
namespace {

// The harness itself: every node sees the same ring, and each node's view
// places a keyspace's replicas identically.
TEST(SimulatedClusterTest, EveryNodeSeesTheSameRing) {
  SimulatedCluster cluster({.nodes = 4, .seed = 7});
  const auto& table = cluster.table();
  for (dht::Token token : {dht::Token{-5}, dht::Token{0}, dht::Token{123456789}}) {
    const auto first = cluster.node(0).views.Get();
    const auto expected = first->ReplicationOfTable(table.id)->placement->ReplicasFor(token);
    ASSERT_EQ(expected.size(), 3u);
    for (int i = 1; i < cluster.size(); ++i) {
      const auto view = cluster.node(i).views.Get();
      const auto replicas = view->ReplicationOfTable(table.id)->placement->ReplicasFor(token);
      EXPECT_TRUE(std::equal(replicas.begin(), replicas.end(), expected.begin(), expected.end()));
      EXPECT_EQ(view->local_id(), cluster.node(i).id);
      EXPECT_EQ(view->AddressOf(cluster.node(0).id), cluster.node(0).address);
      EXPECT_EQ(view->NodeAt(cluster.node(i).address), cluster.node(i).id);
    }
  }
}

}  // namespace
}  // namespace sibyl::cluster::testing
