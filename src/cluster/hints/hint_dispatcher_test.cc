// Hinted handoff end to end on a simulated cluster: writes for a dead
// replica become hints on the coordinator, and once the replica is back the
// dispatcher replays them, with their original timestamps, at the throttle,
// keeping what was not acknowledged and dropping hints for departed nodes.

#include "cluster/hints/hint_dispatcher.h"

#include <gtest/gtest.h>

#include "cluster/write/write_test_util.h"
#include "protocol/request.h"

namespace sibyl::cluster::testing {
namespace {

TEST(HintDispatcherTest, RevivedReplicaGetsItsHintsWithOriginalTimestamps) {
  const uint64_t seed = 21;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed});
  cluster.Kill(2);
  for (int32_t k = 0; k < 20; ++k) {
    ASSERT_EQ(cluster.Write(0, {RowMutation(cluster, k, 0, k, 500 + k)}, {}), nullptr);
  }
  // Every node learns of the lost connections before the replica is back.
  cluster.scheduler().RunUntilIdle();
  HintStore& hints = *cluster.node(0).hints;
  EXPECT_GT(hints.PendingBytes(cluster.node(2).id), 0u);
  EXPECT_FALSE(StoredRow(cluster, 2, 3, 0).has_value());

  // Still down: a round leaves the hints alone.
  cluster.node(0).hint_dispatcher->RunOnce();
  EXPECT_EQ(cluster.node(0).hint_dispatcher->replays_in_flight(), 0u);

  cluster.Revive(2);
  cluster.node(0).hint_dispatcher->RunOnce();
  cluster.RunUntil([&] { return cluster.node(0).hint_dispatcher->replays_in_flight() == 0; });
  EXPECT_EQ(hints.PendingBytes(cluster.node(2).id), 0u);
  for (int32_t k = 0; k < 20; ++k) {
    const auto stored = StoredRow(cluster, 2, k, 0);
    ASSERT_TRUE(stored.has_value()) << "k " << k;
    EXPECT_EQ(stored->value, k);
    EXPECT_EQ(stored->timestamp, 500 + k);
  }
}

// A replica silent at the write's timeout is hinted too; a replay the
// replica does not answer keeps the segment for the next round.
TEST(HintDispatcherTest, UnacknowledgedReplayKeepsTheHintsForLater) {
  SimulatedCluster cluster({.nodes = 3, .seed = 22});
  cluster.network().Partition(cluster.node(0).address, cluster.node(2).address);
  ASSERT_NE(cluster.Write(0, {RowMutation(cluster, 1, 0, 9, 900)},
                          {.consistency = static_cast<uint16_t>(protocol::Consistency::kAll)}),
            nullptr);
  cluster.scheduler().RunUntilIdle();  // the MUTATION's own timeout hints it
  HintStore& hints = *cluster.node(0).hints;
  const uint64_t pending = hints.PendingBytes(cluster.node(2).id);
  ASSERT_GT(pending, 0u);

  cluster.node(0).hint_dispatcher->RunOnce();  // believed alive, still cut off
  cluster.RunUntil([&] { return cluster.node(0).hint_dispatcher->replays_in_flight() == 0; });
  EXPECT_EQ(hints.PendingBytes(cluster.node(2).id), pending);
  EXPECT_FALSE(StoredRow(cluster, 2, 1, 0).has_value());

  cluster.network().Heal();
  cluster.node(0).hint_dispatcher->Start();  // periodic rounds
  cluster.RunUntil([&] { return hints.PendingBytes(cluster.node(2).id) == 0; });
  const auto stored = StoredRow(cluster, 2, 1, 0);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->timestamp, 900);
}

TEST(HintDispatcherTest, ReplayIsPacedByTheThrottle) {
  SimulatedCluster cluster({.nodes = 3, .seed = 23, .hinted_handoff_throttle_bytes = 1000});
  cluster.Kill(2);
  for (int32_t k = 0; k < 10; ++k) {
    ASSERT_EQ(cluster.Write(0, {RowMutation(cluster, k, 0, k, 100)}, {}), nullptr);
  }
  cluster.scheduler().RunUntilIdle();
  HintStore& hints = *cluster.node(0).hints;
  const uint64_t pending = hints.PendingBytes(cluster.node(2).id);
  cluster.Revive(2);
  const auto start = cluster.scheduler().Now();
  cluster.node(0).hint_dispatcher->RunOnce();
  cluster.RunUntil([&] { return cluster.node(0).hint_dispatcher->replays_in_flight() == 0; });
  EXPECT_EQ(hints.PendingBytes(cluster.node(2).id), 0u);
  // 1000 bytes/s shared by the two other members: 500 bytes/s to node 2.
  // The mutations are most of the segment's bytes (the rest is framing).
  EXPECT_GE(cluster.scheduler().Now() - start, std::chrono::milliseconds(pending));
  EXPECT_LE(cluster.scheduler().Now() - start, std::chrono::milliseconds(pending * 2 + 100));
  EXPECT_TRUE(StoredRow(cluster, 2, 9, 0).has_value());
}

TEST(HintDispatcherTest, HintsForANodeThatLeftAreDropped) {
  SimulatedCluster cluster({.nodes = 3, .seed = 24});
  const types::Uuid departed = *types::Uuid::Parse("00000000-0000-4000-8000-0000000000ff");
  Bytes payload;
  RowMutation(cluster, 1, 0, 1, 1).SerializeTo(payload);
  HintStore& hints = *cluster.node(0).hints;
  hints.Append(departed, 1, payload);
  ASSERT_GT(hints.PendingBytes(departed), 0u);
  cluster.node(0).hint_dispatcher->RunOnce();
  EXPECT_EQ(hints.PendingBytes(departed), 0u);
}

}  // namespace
}  // namespace sibyl::cluster::testing
