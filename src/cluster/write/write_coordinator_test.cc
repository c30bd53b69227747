// The write path on a simulated cluster: Unavailable before anything is
// sent, WriteTimeout in virtual time from a silent replica, WriteFailure
// from failing replicas, the DC-aware levels on two datacenters, and
// acknowledged QUORUM writes surviving message drops and duplicates.

#include "cluster/write/write_coordinator.h"

#include <gtest/gtest.h>

#include "cluster/write/write_test_util.h"
#include "protocol/request.h"

namespace sibyl::cluster::testing {
namespace {

using protocol::Consistency;

constexpr uint16_t Code(Consistency consistency) { return static_cast<uint16_t>(consistency); }

const std::map<std::string, std::string> kTwoDatacenters{
    {"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"}, {"dc1", "3"}, {"dc2", "3"}};

struct LevelCase {
  Consistency consistency;
  int killed;
  // Unavailable's required and alive; required 0: the write succeeds.
  int required;
  int alive;
};

// RF 3 on three nodes, node 0 coordinating while 0, 1 or 2 others are down.
TEST(WriteCoordinatorTest, UnavailableBeforeSendingWhenTooFewAreAlive) {
  const LevelCase cases[] = {
      {Consistency::kOne, 0, 0, 0},    {Consistency::kOne, 1, 0, 0},
      {Consistency::kOne, 2, 0, 0},    {Consistency::kQuorum, 0, 0, 0},
      {Consistency::kQuorum, 1, 0, 0}, {Consistency::kQuorum, 2, 2, 1},
      {Consistency::kAll, 0, 0, 0},    {Consistency::kAll, 1, 3, 2},
      {Consistency::kAll, 2, 3, 1},
  };
  for (const LevelCase& c : cases) {
    SCOPED_TRACE(std::string(protocol::ConsistencyName(Code(c.consistency))) + " with " +
                 std::to_string(c.killed) + " down");
    SimulatedCluster cluster({.nodes = 3, .seed = 11});
    for (int i = 1; i <= c.killed; ++i) cluster.Kill(i);
    const auto error = cluster.Write(0, {RowMutation(cluster, 1, 1, 7, 100)},
                                     {.consistency = Code(c.consistency)});
    if (c.required == 0) {
      EXPECT_EQ(error, nullptr);
      cluster.scheduler().RunUntilIdle();  // the replicas beyond block_for
      for (int i = 0; i < 3; ++i) {
        if (i != 0 && i <= c.killed) continue;  // down
        const auto stored = StoredRow(cluster, i, 1, 1);
        ASSERT_TRUE(stored.has_value()) << "node " << i;
        EXPECT_EQ(stored->value, 7);
        EXPECT_EQ(stored->timestamp, 100);
      }
      continue;
    }
    const CqlError e = ErrorOf(error);
    EXPECT_EQ(e.code(), ErrorCode::kUnavailable);
    const auto& info = std::get<UnavailableInfo>(e.detail());
    EXPECT_EQ(info.consistency, Code(c.consistency));
    EXPECT_EQ(info.required, c.required);
    EXPECT_EQ(info.alive, c.alive);
    // Nothing was sent, nothing applied, even on the live coordinator.
    EXPECT_FALSE(StoredRow(cluster, 0, 1, 1).has_value());
  }
}

// A replica cut off but believed alive: the write waits its full timeout
// (virtual time), reports what it received, and hints the silent replica.
TEST(WriteCoordinatorTest, SilentReplicaTimesOutWithReceivedAndBlockFor) {
  SimulatedCluster cluster({.nodes = 3, .seed = 12});
  cluster.network().Partition(cluster.node(0).address, cluster.node(2).address);
  const auto start = cluster.scheduler().Now();
  const auto error = cluster.Write(0, {RowMutation(cluster, 1, 1, 7, 100)},
                                   {.consistency = Code(Consistency::kAll)});
  EXPECT_GE(cluster.scheduler().Now() - start, RequestTimeouts{}.write);
  const CqlError e = ErrorOf(error);
  EXPECT_EQ(e.code(), ErrorCode::kWriteTimeout);
  EXPECT_STREQ(e.what(), "Operation timed out - received only 2 responses.");
  const auto& info = std::get<WriteTimeoutInfo>(e.detail());
  EXPECT_EQ(info.consistency, Code(Consistency::kAll));
  EXPECT_EQ(info.received, 2);
  EXPECT_EQ(info.block_for, 3);
  EXPECT_EQ(info.write_type, "SIMPLE");
  cluster.scheduler().RunUntilIdle();  // the request's own timeout hints it
  EXPECT_GT(cluster.node(0).hints->PendingBytes(cluster.node(2).id), 0u);

  // QUORUM does not wait for the silent one.
  EXPECT_EQ(
      cluster.Write(0, {RowMutation(cluster, 2, 1, 7, 100)},
                    {.consistency = Code(Consistency::kQuorum), .type = WriteType::kUnloggedBatch}),
      nullptr);
}

// The coordinator cannot reach the counter leader: WriteTimeout COUNTER
// after counter_write_request_timeout, and no hint (a forwarded update is
// a delta, which a replay would count again).
TEST(WriteCoordinatorTest, CounterTimeoutUsesTheCounterWriteTimeout) {
  SimulatedCluster cluster(
      {.nodes = 3,
       .seed = 13,
       .replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                       {"replication_factor", "1"}}});
  int32_t k = 0;
  while (ReplicaIndexes(cluster, k) != std::vector<int>{1}) ++k;
  cluster.network().Partition(cluster.node(0).address, cluster.node(1).address);
  const auto start = cluster.scheduler().Now();
  const CqlError e = ErrorOf(
      cluster.Write(0, {CounterIncrement(cluster, k, 7, 100)}, {.type = WriteType::kCounter}));
  EXPECT_GE(cluster.scheduler().Now() - start, RequestTimeouts{}.counter_write);
  EXPECT_EQ(std::get<WriteTimeoutInfo>(e.detail()).write_type, "COUNTER");
  cluster.scheduler().RunUntilIdle();
  EXPECT_EQ(cluster.node(0).hints->PendingBytes(cluster.node(1).id), 0u);
}

// RF 3 on three nodes: every node coordinates (and so leads) increments of
// the same counters at QUORUM over a network that drops, duplicates and
// delays messages; the leader's shards count each increment once however
// often they arrive, and once the replicas have everything (hints, read
// repair at ALL) each holds the exact total. (A forwarded update is a
// delta: TCP does not duplicate it, and a client's retry after a timeout
// may count twice, as in Cassandra; so no coordinator forwards here.)
TEST(WriteCoordinatorTest, CounterIncrementsOnThreeReplicasCountOnceDespiteDuplicates) {
  const uint64_t seed = 16;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3,
                            .seed = seed,
                            .faults = {.drop_probability = 0.05,
                                       .duplicate_probability = 0.3,
                                       .min_delay = std::chrono::milliseconds(1),
                                       .max_delay = std::chrono::milliseconds(20)}});
  std::map<int32_t, int64_t> acknowledged;  // per key: sum of acknowledged increments
  std::map<int32_t, int64_t> attempted;     // including those that timed out
  for (int round = 0; round < 60; ++round) {
    const int32_t k = round % 4;
    const int64_t amount = round + 1;
    const auto error =
        cluster.Write(round % 3, {CounterIncrement(cluster, k, amount, round)},
                      {.consistency = Code(Consistency::kQuorum), .type = WriteType::kCounter});
    attempted[k] += amount;
    if (error == nullptr) acknowledged[k] += amount;
  }
  cluster.network().SetFaults({});  // duplicates and drops end; hints and repair run
  cluster.scheduler().RunUntilIdle();
  for (int i = 0; i < 3; ++i) {
    if (cluster.node(i).hint_dispatcher) cluster.node(i).hint_dispatcher->RunOnce();
  }
  cluster.scheduler().RunUntilIdle();
  for (const auto& [k, sum] : acknowledged) {
    storage::ReadCommand command;
    command.table_id = cluster.counter_table().id;
    command.partitions = {KeyOf(k)};
    auto [result, error] = cluster.Read(0, command, Code(Consistency::kAll));
    ASSERT_EQ(error, nullptr) << ErrorOf(error).what();
    const int64_t total = types::DecodeBigint(result.partitions.at(0).rows.at(0).cells.at(0).value);
    // A timed-out increment may or may not have been applied (as in
    // Cassandra); none is ever applied twice.
    EXPECT_GE(total, sum) << "key " << k;
    EXPECT_LE(total, attempted[k]) << "key " << k;
    cluster.scheduler().RunUntilIdle();  // the read's repairs
    for (int i = 0; i < 3; ++i) EXPECT_EQ(StoredCounter(cluster, i, k), total) << "node " << i;
  }
}

// Four nodes, RF 3: the one that is not a replica forwards its updates to
// a leader. At ALL the totals are exact and every replica agrees at once.
TEST(WriteCoordinatorTest, CounterIncrementsFromEveryCoordinatorAreExact) {
  SimulatedCluster cluster({.nodes = 4, .seed = 17});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 5);
  ASSERT_EQ(replicas.size(), 3u);
  for (int round = 0; round < 40; ++round) {
    ASSERT_EQ(
        cluster.Write(round % 4, {CounterIncrement(cluster, 5, round % 2 == 0 ? 3 : -1, round)},
                      {.consistency = Code(Consistency::kAll), .type = WriteType::kCounter}),
        nullptr);
  }
  for (int i = 0; i < 4; ++i) {
    const bool replica = std::find(replicas.begin(), replicas.end(), i) != replicas.end();
    EXPECT_EQ(StoredCounter(cluster, i, 5),
              replica ? std::optional<int64_t>(20 * 3 - 20) : std::nullopt)
        << "node " << i;
  }
}

// Replicas that do not know the table fail the write: once block_for is out
// of reach the client gets WriteFailure, naming them.
TEST(WriteCoordinatorTest, FailingReplicasMakeAWriteFailure) {
  SimulatedCluster cluster({.nodes = 3, .seed = 15});
  cluster.node(1).engine.SyncTables({});
  cluster.node(2).engine.SyncTables({});
  EXPECT_EQ(cluster.Write(0, {RowMutation(cluster, 1, 1, 7, 100)}, {}), nullptr);
  const CqlError e = ErrorOf(cluster.Write(0, {RowMutation(cluster, 1, 1, 7, 100)},
                                           {.consistency = Code(Consistency::kQuorum)}));
  EXPECT_EQ(e.code(), ErrorCode::kWriteFailure);
  const auto& info = std::get<WriteFailureInfo>(e.detail());
  EXPECT_EQ(info.received, 1);
  EXPECT_EQ(info.block_for, 2);
  EXPECT_EQ(info.failures.size(), 2u);
  EXPECT_EQ(info.write_type, "SIMPLE");
  EXPECT_NE(std::string(e.what()).find(
                "Operation failed - received 1 responses and 2 failures: UNKNOWN from /127.0.0."),
            std::string::npos)
      << e.what();
}

// Two datacenters of three nodes (even nodes dc1, odd dc2), RF 3 in each.
TEST(WriteCoordinatorTest, LocalAndEachQuorumCountPerDatacenter) {
  SimulatedCluster cluster(
      {.nodes = 6, .seed = 16, .replication = kTwoDatacenters, .datacenters = {"dc1", "dc2"}});
  // Two of dc2 down: LOCAL_QUORUM in dc1 is unaffected, EACH_QUORUM is not.
  cluster.Kill(1);
  cluster.Kill(3);
  EXPECT_EQ(cluster.Write(0, {RowMutation(cluster, 1, 1, 7, 100)},
                          {.consistency = Code(Consistency::kLocalQuorum)}),
            nullptr);
  CqlError e = ErrorOf(cluster.Write(0, {RowMutation(cluster, 1, 1, 7, 100)},
                                     {.consistency = Code(Consistency::kEachQuorum)}));
  EXPECT_EQ(e.code(), ErrorCode::kUnavailable);
  EXPECT_STREQ(e.what(), "Cannot achieve consistency level EACH_QUORUM in DC dc2");
  EXPECT_EQ(std::get<UnavailableInfo>(e.detail()).required, 2);
  EXPECT_EQ(std::get<UnavailableInfo>(e.detail()).alive, 1);
  // From dc2's surviving node, LOCAL_QUORUM lacks its own datacenter.
  e = ErrorOf(cluster.Write(5, {RowMutation(cluster, 1, 1, 7, 100)},
                            {.consistency = Code(Consistency::kLocalQuorum)}));
  EXPECT_EQ(std::get<UnavailableInfo>(e.detail()).required, 2);
  EXPECT_EQ(std::get<UnavailableInfo>(e.detail()).alive, 1);
  cluster.Revive(1);
  cluster.Revive(3);

  // dc2 cut off from the coordinator but believed alive: LOCAL_QUORUM and
  // QUORUM (4 of 6) succeed on dc1's acknowledgements alone; EACH_QUORUM
  // waits for dc2 and times out.
  cluster.network().Split(
      {{cluster.node(0).address, cluster.node(2).address, cluster.node(4).address},
       {cluster.node(1).address, cluster.node(3).address, cluster.node(5).address}});
  EXPECT_EQ(cluster.Write(0, {RowMutation(cluster, 2, 1, 7, 100)},
                          {.consistency = Code(Consistency::kLocalQuorum)}),
            nullptr);
  e = ErrorOf(cluster.Write(0, {RowMutation(cluster, 2, 1, 7, 100)},
                            {.consistency = Code(Consistency::kEachQuorum)}));
  EXPECT_EQ(e.code(), ErrorCode::kWriteTimeout);
  EXPECT_EQ(std::get<WriteTimeoutInfo>(e.detail()).block_for, 4);
  e = ErrorOf(cluster.Write(0, {RowMutation(cluster, 2, 1, 7, 100)},
                            {.consistency = Code(Consistency::kQuorum)}));
  EXPECT_EQ(e.code(), ErrorCode::kWriteTimeout);
  EXPECT_EQ(std::get<WriteTimeoutInfo>(e.detail()).received, 3);
  EXPECT_EQ(std::get<WriteTimeoutInfo>(e.detail()).block_for, 4);
  cluster.network().Heal();
  EXPECT_EQ(cluster.Write(0, {RowMutation(cluster, 2, 1, 7, 100)},
                          {.consistency = Code(Consistency::kEachQuorum)}),
            nullptr);
}

// ANY is satisfied by a hint alone when every replica is down; ONE is not.
TEST(WriteCoordinatorTest, AnySucceedsWithOnlyAHint) {
  SimulatedCluster cluster(
      {.nodes = 3,
       .seed = 17,
       .replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                       {"replication_factor", "1"}}});
  int32_t k = 0;
  while (ReplicaIndexes(cluster, k) != std::vector<int>{2}) ++k;
  cluster.Kill(2);
  EXPECT_EQ(ErrorOf(cluster.Write(0, {RowMutation(cluster, k, 1, 7, 100)}, {})).code(),
            ErrorCode::kUnavailable);
  const uint64_t before = cluster.node(0).hints->PendingBytes(cluster.node(2).id);
  EXPECT_EQ(cluster.Write(0, {RowMutation(cluster, k, 1, 7, 100)},
                          {.consistency = Code(Consistency::kAny)}),
            nullptr);
  EXPECT_GT(cluster.node(0).hints->PendingBytes(cluster.node(2).id), before);
}

// A statement over several partitions writes each of them.
TEST(WriteCoordinatorTest, UnloggedBatchWritesEveryPartition) {
  SimulatedCluster cluster({.nodes = 4, .seed = 18});
  std::vector<storage::Mutation> mutations;
  for (int32_t k = 0; k < 10; ++k) mutations.push_back(RowMutation(cluster, k, 0, k, 100 + k));
  ASSERT_EQ(
      cluster.Write(1, mutations,
                    {.consistency = Code(Consistency::kAll), .type = WriteType::kUnloggedBatch}),
      nullptr);
  for (int32_t k = 0; k < 10; ++k) {
    for (int i : ReplicaIndexes(cluster, k)) {
      const auto stored = StoredRow(cluster, i, k, 0);
      ASSERT_TRUE(stored.has_value()) << "k " << k << " node " << i;
      EXPECT_EQ(stored->timestamp, 100 + k);
    }
  }
}

// A request over several partitions ends once all of them did, with the
// first error: here a fast WriteFailure, reported after the other
// partition's timeout.
TEST(WriteCoordinatorTest, SeveralPartitionsEndTogetherWithTheFirstError) {
  SimulatedCluster cluster(
      {.nodes = 3,
       .seed = 25,
       .replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                       {"replication_factor", "1"}}});
  int32_t failing = 0;
  while (ReplicaIndexes(cluster, failing) != std::vector<int>{1}) ++failing;
  int32_t silent = 0;
  while (ReplicaIndexes(cluster, silent) != std::vector<int>{2}) ++silent;
  cluster.node(1).engine.SyncTables({});
  cluster.network().Partition(cluster.node(0).address, cluster.node(2).address);
  const auto start = cluster.scheduler().Now();
  const CqlError e = ErrorOf(cluster.Write(
      0, {RowMutation(cluster, silent, 0, 1, 1), RowMutation(cluster, failing, 0, 1, 1)},
      {.type = WriteType::kUnloggedBatch}));
  EXPECT_GE(cluster.scheduler().Now() - start, RequestTimeouts{}.write);
  EXPECT_EQ(e.code(), ErrorCode::kWriteFailure);
  EXPECT_EQ(std::get<WriteFailureInfo>(e.detail()).write_type, "UNLOGGED_BATCH");
}

// Under message drops and duplicates, every write acknowledged at QUORUM is
// on a quorum of its replicas' engines.
TEST(WriteCoordinatorTest, AcknowledgedQuorumWritesAreOnAQuorumDespiteFaults) {
  for (uint64_t seed = 100; seed < 105; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    messaging::LinkFaults faults;
    faults.drop_probability = 0.2;
    faults.duplicate_probability = 0.2;
    faults.max_delay = std::chrono::milliseconds(50);
    SimulatedCluster cluster({.nodes = 5, .seed = seed, .faults = faults});
    int acknowledged = 0;
    for (int32_t k = 0; k < 40; ++k) {
      const int coordinator = k % cluster.size();
      const auto error = cluster.Write(coordinator, {RowMutation(cluster, k, 0, k, 1000 + k)},
                                       {.consistency = Code(Consistency::kQuorum)});
      if (error != nullptr) {
        EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kWriteTimeout);
        continue;
      }
      ++acknowledged;
      int holding = 0;
      for (int i : ReplicaIndexes(cluster, k)) {
        const auto stored = StoredRow(cluster, i, k, 0);
        if (stored.has_value() && stored->value == k && stored->timestamp == 1000 + k) ++holding;
      }
      EXPECT_GE(holding, 2) << "k " << k;
    }
    EXPECT_GT(acknowledged, 0);
  }
}

std::exception_ptr Truncate(SimulatedCluster& cluster, int i) {
  std::optional<std::exception_ptr> outcome;
  cluster.node(i).coordinator->writes().Truncate(
      cluster.table().id, [&](std::exception_ptr error) { outcome = error; });
  cluster.RunUntil([&] { return outcome.has_value(); });
  return *outcome;
}

TEST(WriteCoordinatorTest, TruncateEmptiesTheTableOnEveryNode) {
  SimulatedCluster cluster({.nodes = 4, .seed = 19});
  for (int32_t k = 0; k < 10; ++k) {
    ASSERT_EQ(cluster.Write(0, {RowMutation(cluster, k, 0, k, 1)},
                            {.consistency = Code(Consistency::kAll)}),
              nullptr);
  }
  ASSERT_EQ(Truncate(cluster, 1), nullptr);
  for (int32_t k = 0; k < 10; ++k) {
    for (int i = 0; i < cluster.size(); ++i) EXPECT_FALSE(StoredRow(cluster, i, k, 0).has_value());
  }
}

TEST(WriteCoordinatorTest, TruncateNeedsEveryNode) {
  SimulatedCluster cluster({.nodes = 3, .seed = 20});
  cluster.Kill(2);
  CqlError e = ErrorOf(Truncate(cluster, 0));
  EXPECT_EQ(e.code(), ErrorCode::kTruncateError);
  EXPECT_STREQ(e.what(), "Error during truncate: Cannot achieve consistency level ALL");
  cluster.Revive(2);
  cluster.network().Partition(cluster.node(0).address, cluster.node(2).address);
  const auto start = cluster.scheduler().Now();
  e = ErrorOf(Truncate(cluster, 0));
  EXPECT_GE(cluster.scheduler().Now() - start, RequestTimeouts{}.truncate);
  EXPECT_STREQ(e.what(), "Error during truncate: Truncate timed out - received only 2 responses");
}

}  // namespace
}  // namespace sibyl::cluster::testing
