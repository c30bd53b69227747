// Logged batches on a simulated cluster: the batch is stored on batchlog
// nodes before its mutations go out and removed once they are applied;
// when the coordinator dies in between, a batchlog node replays it and
// every partition ends up written. Also the batch store's encoding and
// the choice of batchlog nodes.

#include <gtest/gtest.h>

#include <set>

#include "cluster/batchlog/batch_store.h"
#include "cluster/batchlog/batchlog_endpoints.h"
#include "cluster/batchlog/batchlog_manager.h"
#include "cluster/write/write_test_util.h"
#include "protocol/request.h"

namespace sibyl::cluster::testing {
namespace {

std::vector<storage::Mutation> BatchOf(const SimulatedCluster& cluster, int partitions,
                                       int64_t timestamp) {
  std::vector<storage::Mutation> mutations;
  for (int32_t k = 0; k < partitions; ++k) {
    mutations.push_back(RowMutation(cluster, k, 0, k, timestamp));
  }
  return mutations;
}

TEST(BatchStoreTest, EncodingRoundTripsAndRejectsDamage) {
  StoredBatch batch{types::Uuid::Random(), 1234, {"abc", "", "defg"}};
  const Bytes bytes = EncodeBatch(batch);
  const StoredBatch decoded = DecodeBatch(bytes);
  EXPECT_EQ(decoded.id, batch.id);
  EXPECT_EQ(decoded.creation_micros, 1234);
  EXPECT_EQ(decoded.mutations, batch.mutations);
  Bytes damaged = bytes;
  damaged[20] ^= 1;
  EXPECT_THROW(DecodeBatch(damaged), std::runtime_error);
  EXPECT_THROW(DecodeBatch(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
}

TEST(BatchlogEndpointsTest, PrefersTwoOtherRacksOfTheLocalDatacenter) {
  SimulatedCluster cluster({.nodes = 6, .seed = 31, .racks = {"r1", "r2", "r3"}});
  const auto view = cluster.node(0).views.Get();
  for (uint64_t spread = 0; spread < 4; ++spread) {
    const auto chosen = BatchlogEndpoints(*view, cluster.node(0).liveness, false, spread);
    ASSERT_EQ(chosen.size(), 2u);
    std::set<std::string> racks;
    for (const auto& id : chosen) racks.insert(view->directory().nodes().at(id).rack);
    EXPECT_EQ(racks, (std::set<std::string>{"r2", "r3"}));
  }
  // One other node alive: just it. None: Unavailable, unless ANY.
  for (int i = 2; i < 6; ++i) cluster.Kill(i);
  EXPECT_EQ(BatchlogEndpoints(*view, cluster.node(0).liveness, false, 0),
            std::vector<types::Uuid>{cluster.node(1).id});
  cluster.Kill(1);
  EXPECT_EQ(BatchlogEndpoints(*view, cluster.node(0).liveness, true, 0),
            std::vector<types::Uuid>{cluster.node(0).id});
  try {
    (void)BatchlogEndpoints(*view, cluster.node(0).liveness, false, 0);
    ADD_FAILURE() << "no Unavailable";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnavailable);
    EXPECT_STREQ(e.what(), "Cannot achieve consistency level ONE");
    EXPECT_EQ(std::get<UnavailableInfo>(e.detail()).required, 1);
    EXPECT_EQ(std::get<UnavailableInfo>(e.detail()).alive, 0);
  }
}

TEST(BatchlogTest, LoggedBatchIsWrittenAndItsBatchRemoved) {
  SimulatedCluster cluster({.nodes = 4, .seed = 32});
  ASSERT_EQ(cluster.Write(0, BatchOf(cluster, 8, 700),
                          {.consistency = kQuorum, .type = WriteType::kBatch}),
            nullptr);
  cluster.RunUntil([&] {
    for (int i = 0; i < cluster.size(); ++i) {
      if (cluster.node(i).batches->size() != 0) return false;
    }
    return true;
  });
  for (int32_t k = 0; k < 8; ++k) {
    for (int i : ReplicaIndexes(cluster, k)) {
      const auto stored = StoredRow(cluster, i, k, 0);
      ASSERT_TRUE(stored.has_value()) << "k " << k << " node " << i;
      EXPECT_EQ(stored->timestamp, 700);
    }
  }
}

TEST(BatchlogTest, UnreachableBatchlogIsABatchLogTimeout) {
  SimulatedCluster cluster({.nodes = 3, .seed = 33});
  for (int i = 1; i < 3; ++i)
    cluster.network().Partition(cluster.node(0).address, cluster.node(i).address);
  const CqlError e = ErrorOf(cluster.Write(0, BatchOf(cluster, 3, 1),
                                           {.consistency = kQuorum, .type = WriteType::kBatch}));
  EXPECT_EQ(e.code(), ErrorCode::kWriteTimeout);
  const auto& info = std::get<WriteTimeoutInfo>(e.detail());
  EXPECT_EQ(info.write_type, "BATCH_LOG");
  EXPECT_EQ(info.consistency, static_cast<uint16_t>(protocol::Consistency::kTwo));
  EXPECT_EQ(info.received, 0);
  EXPECT_EQ(info.block_for, 2);
  // Nothing was written: the mutations follow the batchlog.
  EXPECT_FALSE(StoredRow(cluster, 0, 0, 0).has_value());
}

TEST(BatchlogTest, NoBatchlogNodeIsUnavailableButAnyKeepsItLocally) {
  SimulatedCluster cluster({.nodes = 3, .seed = 34});
  cluster.Kill(1);
  cluster.Kill(2);
  const CqlError e = ErrorOf(cluster.Write(0, BatchOf(cluster, 3, 1), {.type = WriteType::kBatch}));
  EXPECT_EQ(e.code(), ErrorCode::kUnavailable);
  EXPECT_STREQ(e.what(), "Cannot achieve consistency level ONE");
  EXPECT_EQ(cluster.Write(0, BatchOf(cluster, 3, 1),
                          {.consistency = static_cast<uint16_t>(protocol::Consistency::kAny),
                           .type = WriteType::kBatch}),
            nullptr);
  EXPECT_TRUE(StoredRow(cluster, 0, 2, 0).has_value());
}

// The coordinator dies once the batchlog holds the batch, before sending a
// single mutation: a batchlog node replays it after twice the write
// timeout, and every partition reaches its live replicas.
TEST(BatchlogTest, BatchOfADeadCoordinatorIsReplayed) {
  const uint64_t seed = 35;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 5, .seed = seed});
  std::optional<std::exception_ptr> outcome;
  cluster.node(0).coordinator->writes().Mutate(BatchOf(cluster, 10, 800),
                                               {.consistency = kQuorum, .type = WriteType::kBatch},
                                               [&](std::exception_ptr error) { outcome = error; });
  std::vector<int> holders;
  cluster.RunUntil([&] {
    holders.clear();
    for (int i = 1; i < cluster.size(); ++i) {
      if (cluster.node(i).batches->size() != 0) holders.push_back(i);
    }
    return holders.size() == 2;
  });
  cluster.Kill(0);
  cluster.RunUntil([&] { return outcome.has_value(); });
  EXPECT_EQ(ErrorOf(*outcome).code(), ErrorCode::kWriteTimeout);
  for (int32_t k = 0; k < 10; ++k) {
    for (int i : ReplicaIndexes(cluster, k)) EXPECT_FALSE(StoredRow(cluster, i, k, 0).has_value());
  }

  SimulatedCluster::Node& replayer = cluster.node(holders[0]);
  replayer.batchlog->RunOnce();  // too young: a live coordinator may still remove it
  EXPECT_EQ(replayer.batchlog->replays_in_flight(), 0u);
  replayer.clock.Set(replayer.clock.NowMicros() + 10'000'000);
  replayer.batchlog->RunOnce();
  cluster.RunUntil([&] { return replayer.batches->size() == 0; });
  // Replayed at ANY: the replicas beyond the first acknowledgement follow.
  cluster.scheduler().RunUntilIdle();
  for (int32_t k = 0; k < 10; ++k) {
    for (int i : ReplicaIndexes(cluster, k)) {
      if (i == 0) continue;  // dead: its share is a hint on the replayer
      const auto stored = StoredRow(cluster, i, k, 0);
      ASSERT_TRUE(stored.has_value()) << "k " << k << " node " << i;
      EXPECT_EQ(stored->timestamp, 800);
    }
  }
}

}  // namespace
}  // namespace sibyl::cluster::testing
