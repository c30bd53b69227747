// Materialized views end to end on simulated rings: clients' writes go
// through a coordinator to the base replicas' IndexingEngines, each base
// replica applies or sends (through its outbox and dispatcher) the view
// updates it derives as the ring's router pairs it, and in the end every
// natural replica of each view partition, and no other node, holds the
// view row; a base row whose view key changes leaves no old view row
// anywhere.

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>

#include "cluster/views/view_test_util.h"
#include "dht/token.h"
#include "protocol/request.h"

namespace sibyl::cluster::testing {
namespace {

struct RingShape {
  int nodes;
  std::string replication_factor;
};

SimulatedClusterOptions Options(const RingShape& ring) {
  SimulatedClusterOptions options;
  options.nodes = ring.nodes;
  options.num_tokens = 4;
  options.seed = 61;
  options.replication = {{"class", "SimpleStrategy"},
                         {"replication_factor", ring.replication_factor}};
  options.views = true;
  return options;
}

class ViewsOnRingTest : public ::testing::TestWithParam<RingShape> {
 protected:
  ViewsOnRingTest() : cluster_(Options(GetParam())), tables_(MakeViewTables(cluster_)) {
    AddViewToEveryNode(cluster_, tables_);
  }
  ~ViewsOnRingTest() override {
    for (int i = 0; i < cluster_.size(); ++i) cluster_.node(i).view_dispatcher->Stop();
    cluster_.scheduler().RunUntilIdle();
  }

  int64_t Pending() {
    int64_t pending = 0;
    for (int i = 0; i < cluster_.size(); ++i) {
      pending += cluster_.node(i).indexing->pending_view_updates();
    }
    return pending;
  }
  // Rounds of every node's dispatcher until no outbox holds anything.
  void DeliverEverything() {
    for (int round = 0; round < 10 && Pending() > 0; ++round) {
      for (int i = 0; i < cluster_.size(); ++i) cluster_.node(i).view_dispatcher->RunOnce();
      cluster_.RunUntil([&] {
        for (int i = 0; i < cluster_.size(); ++i) {
          if (cluster_.node(i).view_dispatcher->deliveries_in_flight() > 0) return false;
        }
        return true;
      });
    }
    EXPECT_EQ(Pending(), 0);
  }
  void Write(int32_t k, int32_t v, int64_t timestamp) {
    ASSERT_EQ(cluster_.Write(0, {RowMutation(cluster_, k, 0, v, timestamp)},
                             {.consistency = static_cast<uint16_t>(protocol::Consistency::kAll)}),
              nullptr);
  }
  // The view row (v, k, 0) is on exactly the natural replicas of view
  // partition v (present), or on none (!present).
  void ExpectViewRowPlacement(int32_t v, int32_t k, bool present) {
    const std::span<const locator::NodeId> replicas =
        cluster_.node(0).views.Get()->ReplicationOf("ks")->placement->ReplicasFor(
            dht::Token{KeyOf(v).token});
    for (int i = 0; i < cluster_.size(); ++i) {
      const bool replica =
          std::find(replicas.begin(), replicas.end(), cluster_.node(i).id) != replicas.end();
      EXPECT_EQ(HasViewRow(cluster_, tables_, i, v, k, 0), present && replica)
          << "node " << i << ", view partition " << v << ", k " << k;
    }
  }

  SimulatedCluster cluster_;
  ViewTables tables_;
};

TEST_P(ViewsOnRingTest, EveryViewReplicaAndNoOtherNodeHoldsTheViewRows) {
  for (int32_t k = 0; k < 40; ++k) Write(k, 1000 + k, 100 + k);
  if (GetParam().nodes == 3) {
    // Every node replicates everything: no update needs sending.
    EXPECT_EQ(Pending(), 0);
  } else {
    EXPECT_GT(Pending(), 0);
  }
  DeliverEverything();
  for (int32_t k = 0; k < 40; ++k) ExpectViewRowPlacement(1000 + k, k, true);

  // New view keys: the old rows go from their replicas, the new ones come.
  for (int32_t k = 0; k < 40; ++k) Write(k, 2000 + k, 500 + k);
  DeliverEverything();
  for (int32_t k = 0; k < 40; ++k) {
    ExpectViewRowPlacement(1000 + k, k, false);
    ExpectViewRowPlacement(2000 + k, k, true);
  }
}

// Three nodes at RF=3 hold everything: every view update is applied in its
// base write's batch and nothing waits in an outbox. Five nodes at RF=3 and
// four at RF=2 pair base and view replicas across the ring.
INSTANTIATE_TEST_SUITE_P(Rings, ViewsOnRingTest,
                         ::testing::Values(RingShape{3, "3"}, RingShape{5, "3"}, RingShape{4, "2"}),
                         [](const ::testing::TestParamInfo<RingShape>& info) {
                           return std::to_string(info.param.nodes) + "NodesRf" +
                                  info.param.replication_factor;
                         });

}  // namespace
}  // namespace sibyl::cluster::testing
