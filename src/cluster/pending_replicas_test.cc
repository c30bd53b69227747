// Replicas gaining a range while members join or leave (metadata::NodeState,
// ClusterView's future placement), on a simulated cluster: which replicas
// are pending, writes sent to them and counted as 4.1's blockForWrite
// counts them, reads never asking them.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cluster/write/write_test_util.h"
#include "protocol/request.h"

namespace sibyl::cluster::testing {
namespace {

using protocol::Consistency;

constexpr uint16_t Code(Consistency consistency) { return static_cast<uint16_t>(consistency); }

TEST(PendingReplicasTest, AJoiningNodeIsPendingWhereItWillOwnAndNaturalNowhere) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 81, .states = {{3, metadata::NodeState::kJoining}}});
  int pending_keys = 0;
  for (int32_t k = 0; k < 200; ++k) {
    const std::vector<int> natural = ReplicaIndexes(cluster, k);
    EXPECT_EQ(natural.size(), 3u);
    EXPECT_EQ(std::count(natural.begin(), natural.end(), 3), 0) << k;
    const std::vector<int> pending = PendingIndexes(cluster, k);
    EXPECT_TRUE(pending.empty() || pending == std::vector<int>{3}) << k;
    pending_keys += pending.empty() ? 0 : 1;
  }
  // Three of four nodes replicate each range once it has joined.
  EXPECT_GT(pending_keys, 100);
  EXPECT_LT(pending_keys, 200);
  // Nothing moves in a ring of NORMAL members.
  SimulatedCluster normal({.nodes = 4, .seed = 81});
  EXPECT_FALSE(normal.node(0).views.Get()->ranges_moving());
  EXPECT_TRUE(PendingIndexes(normal, KeyPendingOn(cluster, {3})).empty());
}

TEST(PendingReplicasTest, ALeavingNodeStaysNaturalAndItsRangesNextOwnersArePending) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 82, .states = {{3, metadata::NodeState::kLeaving}}});
  int leaving_keys = 0;
  for (int32_t k = 0; k < 200; ++k) {
    const std::vector<int> natural = ReplicaIndexes(cluster, k);
    const std::vector<int> pending = PendingIndexes(cluster, k);
    const bool leaver_owns = std::count(natural.begin(), natural.end(), 3) == 1;
    // Its ranges go to the one node that replicates none of them now.
    EXPECT_EQ(pending.size(), leaver_owns ? 1u : 0u) << k;
    if (!pending.empty()) {
      EXPECT_NE(pending[0], 3);
      EXPECT_EQ(std::count(natural.begin(), natural.end(), pending[0]), 0);
    }
    leaving_keys += leaver_owns ? 1 : 0;
  }
  EXPECT_GT(leaving_keys, 100);
}

// "Write both, read new": the placements swap sides. A joiner whose reads
// moved is natural where it takes a range, and the replica it displaces
// still gets writes; a leaver whose reads moved gets writes only.
TEST(PendingReplicasTest, OnceReadsMoveTheOldOwnersAreTheOnesStillWritten) {
  SimulatedCluster joining(
      {.nodes = 4, .seed = 87, .states = {{3, metadata::NodeState::kJoining}}});
  SimulatedCluster reads_moved(
      {.nodes = 4, .seed = 87, .states = {{3, metadata::NodeState::kJoiningReadNew}}});
  int moved = 0;
  for (int32_t k = 0; k < 200; ++k) {
    const std::vector<int> pending_before = PendingIndexes(joining, k);
    if (pending_before.empty()) {
      EXPECT_TRUE(PendingIndexes(reads_moved, k).empty()) << k;
      EXPECT_EQ(ReplicaIndexes(reads_moved, k), ReplicaIndexes(joining, k)) << k;
      continue;
    }
    ++moved;
    const std::vector<int> natural_before = ReplicaIndexes(joining, k);
    const std::vector<int> natural_after = ReplicaIndexes(reads_moved, k);
    EXPECT_EQ(std::count(natural_after.begin(), natural_after.end(), 3), 1) << k;
    // The one it displaced is pending now, and written.
    const std::vector<int> displaced = PendingIndexes(reads_moved, k);
    ASSERT_EQ(displaced.size(), 1u) << k;
    EXPECT_EQ(std::count(natural_before.begin(), natural_before.end(), displaced[0]), 1);
    EXPECT_EQ(std::count(natural_after.begin(), natural_after.end(), displaced[0]), 0);
  }
  EXPECT_GT(moved, 0);

  SimulatedCluster leaving(
      {.nodes = 4, .seed = 88, .states = {{3, metadata::NodeState::kLeavingReadNew}}});
  for (int32_t k = 0; k < 200; ++k) {
    const std::vector<int> natural = ReplicaIndexes(leaving, k);
    EXPECT_EQ(std::count(natural.begin(), natural.end(), 3), 0) << k;
    const std::vector<int> pending = PendingIndexes(leaving, k);
    EXPECT_TRUE(pending.empty() || pending == std::vector<int>{3}) << k;
  }
}

// RF 3 and one pending replica: QUORUM waits for 3 of 4, ONE for 2, TWO for
// 3, ANY for 1 (4.1's blockForWrite), and the write reaches the pending
// replica.
TEST(PendingReplicasTest, WritesReachThePendingReplicaWhichCountsOnTop) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 83, .states = {{3, metadata::NodeState::kJoining}}});
  const int32_t k = KeyPendingOn(cluster, {3});
  const std::vector<int> natural = ReplicaIndexes(cluster, k);
  ASSERT_EQ(cluster.Write(natural[0], {RowMutation(cluster, k, 0, 7, 100)},
                          {.consistency = Code(Consistency::kQuorum)}),
            nullptr);
  cluster.scheduler().RunUntilIdle();
  ASSERT_TRUE(StoredRow(cluster, 3, k, 0).has_value());
  EXPECT_EQ(StoredRow(cluster, 3, k, 0)->value, 7);

  cluster.Kill(3);
  cluster.Kill(natural[1]);
  struct Case {
    Consistency consistency;
    int required;  // 0: written
    int alive;
  };
  for (const Case& c : {Case{Consistency::kQuorum, 3, 2}, Case{Consistency::kAll, 4, 2},
                        Case{Consistency::kOne, 0, 0}, Case{Consistency::kTwo, 3, 2},
                        Case{Consistency::kAny, 0, 0}}) {
    SCOPED_TRACE(std::string(protocol::ConsistencyName(Code(c.consistency))));
    const auto error = cluster.Write(natural[0], {RowMutation(cluster, k, 0, 8, 200)},
                                     {.consistency = Code(c.consistency)});
    if (c.required == 0) {
      EXPECT_EQ(error, nullptr);
      continue;
    }
    const CqlError e = ErrorOf(error);
    ASSERT_EQ(e.code(), ErrorCode::kUnavailable) << e.what();
    const auto* info = std::get_if<UnavailableInfo>(&e.detail());
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->required, c.required);
    EXPECT_EQ(info->alive, c.alive);
  }
  // ONE counted the pending replica too: with it and a natural one down,
  // both replicas alive had to answer.
  EXPECT_EQ(StoredRow(cluster, natural[0], k, 0)->value, 8);
  EXPECT_EQ(StoredRow(cluster, natural[2], k, 0)->value, 8);
}

TEST(PendingReplicasTest, ReadsAskTheNaturalReplicasOnly) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 84, .states = {{3, metadata::NodeState::kJoining}}});
  const int32_t k = KeyPendingOn(cluster, {3});
  const std::vector<int> natural = ReplicaIndexes(cluster, k);
  ASSERT_EQ(cluster.Write(natural[0], {RowMutation(cluster, k, 0, 5, 100)},
                          {.consistency = Code(Consistency::kAll)}),
            nullptr);
  // The joiner down: ALL is the three natural replicas, all alive.
  cluster.Kill(3);
  storage::ReadCommand read;
  read.table_id = cluster.table().id;
  read.partitions = {KeyOf(k)};
  read.now_seconds = 1'700'000'000;
  const auto [result, error] = cluster.Read(natural[0], read, Code(Consistency::kAll));
  ASSERT_EQ(error, nullptr);
  ASSERT_EQ(result.partitions.size(), 1u);
}

}  // namespace
}  // namespace sibyl::cluster::testing
