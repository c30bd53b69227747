#include "cluster/read/read_coordinator.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>
#include <vector>

#include "cluster/simulated_cluster_test_util.h"
#include "common/error.h"
#include "dht/token.h"
#include "protocol/request.h"
#include "storage/cells/counter_context.h"
#include "storage/read/read_digest.h"
#include "types/value_codec.h"

namespace sibyl::cluster::testing {
namespace {

constexpr int32_t kNow = 1000;

storage::PartitionKey Key(int32_t k) {
  const Bytes key = types::EncodeInt(k);
  return {dht::Murmur3Token(key), key};
}

int32_t DecodeInt(const Bytes& bytes) {
  uint32_t value = 0;
  for (char byte : bytes) value = value << 8 | static_cast<uint8_t>(byte);
  return static_cast<int32_t>(value);
}

// INSERT INTO ks.t (k, c, v) VALUES (k, c, v) USING TIMESTAMP ts.
storage::Mutation Insert(const SimulatedCluster& cluster, int32_t k, int32_t c, int32_t v,
                         int64_t ts) {
  storage::Mutation mutation;
  mutation.table_id = cluster.table().id;
  mutation.partition = Key(k);
  storage::RowWrite row;
  row.clustering = {types::EncodeInt(c)};
  row.marker.timestamp = ts;
  storage::CellWrite cell;
  cell.column = "v";
  cell.cell.timestamp = ts;
  cell.cell.value = types::EncodeInt(v);
  row.cells.push_back(std::move(cell));
  mutation.rows.push_back(std::move(row));
  return mutation;
}

// DELETE FROM ks.t USING TIMESTAMP ts WHERE k = k AND c = c.
storage::Mutation DeleteRow(const SimulatedCluster& cluster, int32_t k, int32_t c, int64_t ts) {
  storage::Mutation mutation;
  mutation.table_id = cluster.table().id;
  mutation.partition = Key(k);
  storage::RowWrite row;
  row.clustering = {types::EncodeInt(c)};
  row.deletion = {.marked_for_delete_at = ts, .local_deletion_time = kNow - 10};
  mutation.rows.push_back(std::move(row));
  return mutation;
}

storage::ReadCommand PartitionCommand(const SimulatedCluster& cluster, int32_t k) {
  storage::ReadCommand command;
  command.table_id = cluster.table().id;
  command.partitions = {Key(k)};
  command.now_seconds = kNow;
  return command;
}

storage::ReadCommand ScanCommand(const SimulatedCluster& cluster) {
  storage::ReadCommand command;
  command.table_id = cluster.table().id;
  command.now_seconds = kNow;
  return command;
}

using Row = std::tuple<int64_t, int32_t, int32_t, int32_t>;  // token, k, c, v

std::vector<Row> Rows(const storage::ReadResult& result) {
  std::vector<Row> rows;
  for (const auto& partition : result.partitions) {
    for (const auto& row : partition.rows) {
      int32_t v = -1;
      for (const auto& cell : row.cells) {
        if (cell.column == "v") v = DecodeInt(cell.value);
      }
      rows.emplace_back(partition.key.token, DecodeInt(partition.key.key),
                        DecodeInt(row.clustering.at(0)), v);
    }
  }
  return rows;
}

// The nodes (indexes) holding partition k, primary first.
std::vector<int> ReplicasOf(SimulatedCluster& cluster, int32_t k) {
  const auto view = cluster.node(0).views.Get();
  std::vector<int> nodes;
  for (const auto& id :
       view->ReplicationOfTable(cluster.table().id)->placement->ReplicasFor(Key(k).token)) {
    for (int i = 0; i < cluster.size(); ++i) {
      if (cluster.node(i).id == id) nodes.push_back(i);
    }
  }
  return nodes;
}

// True when every replica of k reads the same data.
bool Converged(SimulatedCluster& cluster, int32_t k) {
  const std::vector<int> replicas = ReplicasOf(cluster, k);
  const Bytes first =
      storage::ReadDigest(cluster.node(replicas[0]).engine.Read(PartitionCommand(cluster, k)));
  for (int i : replicas) {
    const auto result = cluster.node(i).engine.Read(PartitionCommand(cluster, k));
    if (storage::ReadDigest(result) != first) return false;
  }
  return true;
}

CqlError ErrorOf(const std::exception_ptr& error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const CqlError& cql) {
    return cql;
  } catch (const std::exception& other) {
    return CqlError(ErrorCode::kServerError, std::string("not a CqlError: ") + other.what());
  }
  return CqlError(ErrorCode::kServerError, "no error");
}

TEST(ReadCoordinatorTest, AgreeingReplicasAnswerAtEveryLevelFromEveryNode) {
  const uint64_t seed = 11;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 5, .seed = seed});
  for (int i : ReplicasOf(cluster, 1)) cluster.node(i).engine.Apply(Insert(cluster, 1, 2, 3, 10));
  for (int coordinator = 0; coordinator < cluster.size(); ++coordinator) {
    for (uint16_t level : {kOne, kQuorum, kAll}) {
      auto [result, error] = cluster.Read(coordinator, PartitionCommand(cluster, 1), level);
      ASSERT_FALSE(error) << ErrorOf(error).what();
      EXPECT_EQ(Rows(result), (std::vector<Row>{{Key(1).token, 1, 2, 3}}));
    }
  }
}

TEST(ReadCoordinatorTest, NewestVersionWinsAndReplicasConverge) {
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    for (uint16_t level : {kQuorum, kAll}) {
      SimulatedCluster cluster({.nodes = 3, .seed = seed});
      const std::vector<int> replicas = ReplicasOf(cluster, 7);
      ASSERT_EQ(replicas.size(), 3u);
      // Each replica holds another version; the newest is on the last.
      cluster.node(replicas[0]).engine.Apply(Insert(cluster, 7, 1, 100, 10));
      cluster.node(replicas[1]).engine.Apply(Insert(cluster, 7, 1, 200, 20));
      cluster.node(replicas[2]).engine.Apply(Insert(cluster, 7, 1, 300, 30));
      auto [result, error] = cluster.Read(replicas[2], PartitionCommand(cluster, 7), level);
      ASSERT_FALSE(error) << ErrorOf(error).what();
      EXPECT_EQ(Rows(result), (std::vector<Row>{{Key(7).token, 7, 1, 300}}));
      if (level == kAll) {
        EXPECT_TRUE(Converged(cluster, 7));
      }
      // QUORUM repaired the coordinator and the next closest replica.
      const auto repaired = cluster.node(replicas[0]).engine.Read(PartitionCommand(cluster, 7));
      EXPECT_EQ(Rows(repaired), (std::vector<Row>{{Key(7).token, 7, 1, 300}}));
    }
  }
}

TEST(ReadCoordinatorTest, TombstoneOnOneReplicaWinsAndIsRepaired) {
  const uint64_t seed = 21;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed});
  const std::vector<int> replicas = ReplicasOf(cluster, 3);
  for (int i : replicas) cluster.node(i).engine.Apply(Insert(cluster, 3, 1, 1, 10));
  cluster.node(replicas[1]).engine.Apply(DeleteRow(cluster, 3, 1, 20));
  auto [result, error] = cluster.Read(replicas[0], PartitionCommand(cluster, 3), kAll);
  ASSERT_FALSE(error) << ErrorOf(error).what();
  EXPECT_TRUE(Rows(result).empty());
  EXPECT_TRUE(Converged(cluster, 3));
  for (int i : replicas) {
    EXPECT_TRUE(cluster.node(i).engine.Read(PartitionCommand(cluster, 3)).partitions.empty());
  }
}

TEST(ReadCoordinatorTest, ReadRepairNoneAnswersTheNewestWithoutRepairing) {
  const uint64_t seed = 31;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed, .read_repair = "NONE"});
  const std::vector<int> replicas = ReplicasOf(cluster, 5);
  cluster.node(replicas[0]).engine.Apply(Insert(cluster, 5, 1, 1, 10));
  cluster.node(replicas[1]).engine.Apply(Insert(cluster, 5, 1, 2, 20));
  auto [result, error] = cluster.Read(replicas[0], PartitionCommand(cluster, 5), kAll);
  ASSERT_FALSE(error) << ErrorOf(error).what();
  EXPECT_EQ(Rows(result), (std::vector<Row>{{Key(5).token, 5, 1, 2}}));
  EXPECT_FALSE(Converged(cluster, 5));
}

// Messages dropped, delayed and duplicated: a read either answers the newest
// version or times out (as a driver sees it); retried, it ends answering it
// with every replica repaired.
TEST(ReadCoordinatorTest, RepairsUnderMessageFaults) {
  for (uint64_t seed = 100; seed < 110; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    SimulatedCluster cluster({.nodes = 3,
                              .seed = seed,
                              .faults = {.drop_probability = 0.1,
                                         .duplicate_probability = 0.2,
                                         .min_delay = std::chrono::milliseconds(1),
                                         .max_delay = std::chrono::milliseconds(50)}});
    const std::vector<int> replicas = ReplicasOf(cluster, 9);
    cluster.node(replicas[0]).engine.Apply(Insert(cluster, 9, 1, 1, 10));
    cluster.node(replicas[1]).engine.Apply(DeleteRow(cluster, 9, 1, 15));
    cluster.node(replicas[2]).engine.Apply(Insert(cluster, 9, 2, 2, 20));
    bool answered = false;
    for (int attempt = 0; attempt < 20 && !answered; ++attempt) {
      auto [result, error] = cluster.Read(attempt % 3, PartitionCommand(cluster, 9), kAll);
      if (error) {
        EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kReadTimeout) << ErrorOf(error).what();
        continue;
      }
      answered = true;
      EXPECT_EQ(Rows(result), (std::vector<Row>{{Key(9).token, 9, 2, 2}}));
    }
    EXPECT_TRUE(answered);
    EXPECT_TRUE(Converged(cluster, 9));
  }
}

TEST(ReadCoordinatorTest, UnreachableReplicaMakesAReadTimeout) {
  const uint64_t seed = 41;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed});
  const std::vector<int> replicas = ReplicasOf(cluster, 4);
  // Down on the network, still alive to the failure detector.
  cluster.network().TakeDown(cluster.node(replicas[2]).address);
  auto [result, error] = cluster.Read(replicas[0], PartitionCommand(cluster, 4), kAll);
  ASSERT_TRUE(error);
  const CqlError timeout = ErrorOf(error);
  EXPECT_EQ(timeout.code(), ErrorCode::kReadTimeout);
  EXPECT_STREQ(timeout.what(), "Operation timed out - received only 2 responses.");
  const auto& info = std::get<ReadTimeoutInfo>(timeout.detail());
  EXPECT_EQ(info.consistency, kAll);
  EXPECT_EQ(info.received, 2);
  EXPECT_EQ(info.block_for, 3);
  EXPECT_TRUE(info.data_present);
  // QUORUM needs only the two reachable replicas.
  auto [quorum, quorum_error] = cluster.Read(replicas[0], PartitionCommand(cluster, 4), kQuorum);
  EXPECT_FALSE(quorum_error);
}

TEST(ReadCoordinatorTest, TooFewLiveReplicasIsUnavailable) {
  const uint64_t seed = 51;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed});
  const std::vector<int> replicas = ReplicasOf(cluster, 4);
  cluster.Kill(replicas[1]);
  cluster.Kill(replicas[2]);
  auto [result, error] = cluster.Read(replicas[0], PartitionCommand(cluster, 4), kQuorum);
  ASSERT_TRUE(error);
  const CqlError unavailable = ErrorOf(error);
  EXPECT_EQ(unavailable.code(), ErrorCode::kUnavailable);
  const auto& info = std::get<UnavailableInfo>(unavailable.detail());
  EXPECT_EQ(info.required, 2);
  EXPECT_EQ(info.alive, 1);
  auto [one, one_error] = cluster.Read(replicas[0], PartitionCommand(cluster, 4), kOne);
  EXPECT_FALSE(one_error);
}

TEST(ReadCoordinatorTest, SeveralPartitionsAnswerInTokenOrder) {
  const uint64_t seed = 61;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 4, .seed = seed});
  std::vector<Row> expected;
  storage::ReadCommand command = PartitionCommand(cluster, 0);
  command.partitions.clear();
  for (int32_t k = 0; k < 6; ++k) {
    for (int i : ReplicasOf(cluster, k)) cluster.node(i).engine.Apply(Insert(cluster, k, 0, k, 5));
    expected.emplace_back(Key(k).token, k, 0, k);
    command.partitions.push_back(Key(k));
  }
  std::sort(expected.begin(), expected.end());
  auto [result, error] = cluster.Read(0, command, kQuorum);
  ASSERT_FALSE(error) << ErrorOf(error).what();
  EXPECT_EQ(Rows(result), expected);
  command.row_limit = 2;
  auto [limited, limited_error] = cluster.Read(0, command, kQuorum);
  ASSERT_FALSE(limited_error);
  EXPECT_EQ(Rows(limited), std::vector<Row>(expected.begin(), expected.begin() + 2));
  ASSERT_TRUE(limited.next.has_value());
}

SimulatedClusterOptions ScanCluster(uint64_t seed, int replication_factor) {
  return {.nodes = 4,
          .seed = seed,
          .replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                          {"replication_factor", std::to_string(replication_factor)}}};
}

// Two rows in each of 40 partitions, on every replica of each; the rows in
// token order.
std::vector<Row> FillEveryReplica(SimulatedCluster& cluster) {
  std::vector<Row> expected;
  for (int32_t k = 0; k < 40; ++k) {
    for (int32_t c = 0; c < 2; ++c) {
      for (int i : ReplicasOf(cluster, k)) {
        cluster.node(i).engine.Apply(Insert(cluster, k, c, k * 10 + c, 5));
      }
      expected.emplace_back(Key(k).token, k, c, k * 10 + c);
    }
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

TEST(ReadCoordinatorTest, ScansReturnEveryRowOnceInTokenOrder) {
  const uint64_t seed = 71;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster(ScanCluster(seed, 2));
  const std::vector<Row> expected = FillEveryReplica(cluster);
  for (int coordinator = 0; coordinator < cluster.size(); ++coordinator) {
    for (uint16_t level : {kOne, kQuorum}) {
      auto [result, error] = cluster.Read(coordinator, ScanCommand(cluster), level);
      ASSERT_FALSE(error) << ErrorOf(error).what();
      EXPECT_EQ(Rows(result), expected);
      EXPECT_FALSE(result.next.has_value());
    }
  }
}

TEST(ReadCoordinatorTest, PagedScansReturnEverything) {
  const uint64_t seed = 72;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster(ScanCluster(seed, 3));
  const std::vector<Row> expected = FillEveryReplica(cluster);
  for (uint16_t level : {kOne, kQuorum}) {
    for (int32_t page_size : {1, 3, 7}) {
      std::vector<Row> all;
      storage::ReadCommand command = ScanCommand(cluster);
      command.row_limit = page_size;
      for (int page = 0; page < 200; ++page) {
        auto [result, error] = cluster.Read(page % cluster.size(), command, level);
        ASSERT_FALSE(error) << ErrorOf(error).what();
        const std::vector<Row> rows = Rows(result);
        EXPECT_LE(rows.size(), static_cast<size_t>(page_size));
        all.insert(all.end(), rows.begin(), rows.end());
        if (!result.next) break;
        command.resume_after = result.next;
      }
      EXPECT_EQ(all, expected) << "page size " << page_size;
    }
  }
  // partition_limit counts across the ring's ranges too.
  storage::ReadCommand partitions = ScanCommand(cluster);
  partitions.partition_limit = 5;
  auto [result, error] = cluster.Read(0, partitions, kQuorum);
  ASSERT_FALSE(error);
  EXPECT_EQ(result.partitions.size(), 5u);
  EXPECT_EQ(Rows(result), std::vector<Row>(expected.begin(), expected.begin() + 10));
}

// Each row on one replica only: a scan at ALL merges them, page by page,
// and repairs the replicas.
TEST(ReadCoordinatorTest, ScansAboveOneReconcileReplicas) {
  const uint64_t seed = 73;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster(ScanCluster(seed, 3));
  std::vector<Row> expected;
  for (int32_t k = 0; k < 20; ++k) {
    const std::vector<int> replicas = ReplicasOf(cluster, k);
    cluster.node(replicas[static_cast<size_t>(k) % 3]).engine.Apply(Insert(cluster, k, 0, k, 5));
    // A newer version of row 1 on another replica than the older one.
    cluster.node(replicas[0]).engine.Apply(Insert(cluster, k, 1, 1, 5));
    cluster.node(replicas[1]).engine.Apply(Insert(cluster, k, 1, 2, 6));
    expected.emplace_back(Key(k).token, k, 0, k);
    expected.emplace_back(Key(k).token, k, 1, 2);
  }
  std::sort(expected.begin(), expected.end());
  // Each page reconciled with its limit and resume position.
  std::vector<Row> all;
  storage::ReadCommand command = ScanCommand(cluster);
  command.row_limit = 3;
  for (int page = 0; page < 100; ++page) {
    auto [rows, page_error] = cluster.Read(page % cluster.size(), command, kAll);
    ASSERT_FALSE(page_error) << ErrorOf(page_error).what();
    EXPECT_LE(rows.partitions.size(), 3u);
    for (const Row& row : Rows(rows)) all.push_back(row);
    if (!rows.next) break;
    command.resume_after = rows.next;
  }
  EXPECT_EQ(all, expected);
  // The pages repaired what they read: every replica now holds all of it.
  for (int32_t k = 0; k < 20; ++k) EXPECT_TRUE(Converged(cluster, k)) << k;
  auto [result, error] = cluster.Read(2, ScanCommand(cluster), kAll);
  ASSERT_FALSE(error) << ErrorOf(error).what();
  EXPECT_EQ(Rows(result), expected);
}

TEST(ReadCoordinatorTest, DeadNodeMakesQuorumScansUnavailableAtReplicationTwo) {
  const uint64_t seed = 74;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster(ScanCluster(seed, 2));
  const std::vector<Row> expected = FillEveryReplica(cluster);
  cluster.Kill(1);
  auto [result, error] = cluster.Read(0, ScanCommand(cluster), kQuorum);
  ASSERT_TRUE(error);
  EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kUnavailable);
  auto [one, one_error] = cluster.Read(0, ScanCommand(cluster), kOne);
  ASSERT_FALSE(one_error) << ErrorOf(one_error).what();
  EXPECT_EQ(Rows(one), expected);
}

// A replica unreachable but believed alive: QUORUM asks it and times out,
// unless speculative retry asks the third replica.
TEST(ReadCoordinatorTest, SpeculativeRetryAsksAnotherReplica) {
  const uint64_t seed = 81;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* option : {"NEVER", "10ms", "ALWAYS", "99p"}) {
    SCOPED_TRACE(option);
    SimulatedCluster cluster({.nodes = 3, .seed = seed, .speculative_retry = option});
    const std::vector<int> replicas = ReplicasOf(cluster, 6);
    for (int i : replicas) cluster.node(i).engine.Apply(Insert(cluster, 6, 1, 6, 5));
    cluster.network().TakeDown(cluster.node(replicas[1]).address);
    const auto start = cluster.scheduler().Now();
    auto [result, error] = cluster.Read(replicas[0], PartitionCommand(cluster, 6), kQuorum);
    if (std::string(option) == "NEVER") {
      ASSERT_TRUE(error);
      EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kReadTimeout);
      continue;
    }
    ASSERT_FALSE(error) << ErrorOf(error).what();
    EXPECT_EQ(Rows(result), (std::vector<Row>{{Key(6).token, 6, 1, 6}}));
    // '99p' waits for its estimate (half the read timeout), '10ms' for 10ms.
    const auto waited = cluster.scheduler().Now() - start;
    if (std::string(option) == "10ms") {
      EXPECT_LT(waited, std::chrono::milliseconds(100));
    }
    if (std::string(option) == "99p") {
      EXPECT_GE(waited, std::chrono::milliseconds(2500));
    }
  }
}

// Each replica holds a different leader's shard of one counter (as after
// increments whose copies did not all arrive): a read above ONE merges the
// shards, so it counts each leader's increments once, and repairs the
// replicas that lacked some.
TEST(ReadCoordinatorTest, CounterShardsOfReplicasMergeAndAreRepaired) {
  const uint64_t seed = 91;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed});
  const std::vector<int> replicas = ReplicasOf(cluster, 8);
  const types::Uuid table_id = cluster.counter_table().id;
  for (size_t i = 0; i < replicas.size(); ++i) {
    storage::Mutation increment;
    increment.table_id = table_id;
    increment.partition = Key(8);
    storage::RowWrite row;
    storage::CellWrite cell;
    cell.column = "n";
    cell.cell.kind = storage::Cell::Kind::kCounter;
    cell.cell.timestamp = 5;
    cell.cell.value = storage::EncodeCounterShards(
        {{cluster.node(replicas[i]).id, /*clock=*/3, /*value=*/int64_t{1} << i}});
    row.cells.push_back(std::move(cell));
    increment.rows.push_back(std::move(row));
    cluster.node(replicas[i]).engine.Apply(increment);
  }
  storage::ReadCommand command;
  command.table_id = table_id;
  command.partitions = {Key(8)};
  command.now_seconds = kNow;
  auto total = [&](const storage::ReadResult& result) {
    return types::DecodeBigint(result.partitions.at(0).rows.at(0).cells.at(0).value);
  };
  auto [quorum, quorum_error] = cluster.Read(replicas[1], command, kQuorum);
  ASSERT_FALSE(quorum_error) << ErrorOf(quorum_error).what();
  // The coordinator's shard and one other replica's.
  EXPECT_TRUE(total(quorum) == 2 + 1 || total(quorum) == 2 + 4) << total(quorum);
  auto [all, all_error] = cluster.Read(replicas[1], command, kAll);
  ASSERT_FALSE(all_error) << ErrorOf(all_error).what();
  EXPECT_EQ(total(all), 1 + 2 + 4);
  cluster.scheduler().RunUntilIdle();
  for (int replica : replicas) {
    EXPECT_EQ(total(cluster.node(replica).engine.Read(command)), 7) << "node " << replica;
  }
  // Read again at ALL: the replicas agree now, and nothing counts twice.
  auto [again, again_error] = cluster.Read(replicas[0], command, kAll);
  ASSERT_FALSE(again_error);
  EXPECT_EQ(total(again), 7);
}

// A replica that fails (here: it does not know the table) is a ReadFailure
// as soon as too few answers remain possible, naming the replica.
TEST(ReadCoordinatorTest, FailingReplicaMakesAReadFailure) {
  const uint64_t seed = 95;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed, .speculative_retry = "NEVER"});
  const std::vector<int> replicas = ReplicasOf(cluster, 2);
  cluster.node(replicas[1]).engine.SyncTables({});
  const auto start = cluster.scheduler().Now();
  auto [result, error] = cluster.Read(replicas[0], PartitionCommand(cluster, 2), kQuorum);
  ASSERT_TRUE(error);
  const CqlError failure = ErrorOf(error);
  EXPECT_EQ(failure.code(), ErrorCode::kReadFailure) << failure.what();
  const auto& info = std::get<ReadFailureInfo>(failure.detail());
  EXPECT_EQ(info.block_for, 2);
  ASSERT_EQ(info.failures.size(), 1u);
  EXPECT_EQ(info.failures[0].address,
            Bytes("\x7f\x00\x00", 3) + static_cast<char>(replicas[1] + 1));
  EXPECT_LT(cluster.scheduler().Now() - start, std::chrono::seconds(1));  // not at the timeout
}

// Two datacenters, two replicas in each: LOCAL_* levels read only the
// coordinator's datacenter, and count only its replicas for Unavailable.
TEST(ReadCoordinatorTest, DatacenterLocalLevelsStayInTheirDatacenter) {
  constexpr uint16_t kLocalOne = static_cast<uint16_t>(protocol::Consistency::kLocalOne);
  constexpr uint16_t kLocalQuorum = static_cast<uint16_t>(protocol::Consistency::kLocalQuorum);
  const uint64_t seed = 97;
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster(
      {.nodes = 4,
       .seed = seed,
       .replication = {{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
                       {"dc1", "2"},
                       {"dc2", "2"}},
       .datacenters = {"dc1", "dc2"}});
  const std::vector<int> replicas = ReplicasOf(cluster, 1);
  ASSERT_EQ(replicas.size(), 4u);
  // Only dc2 (the odd nodes) has the row.
  for (int i : replicas) {
    if (i % 2 == 1) cluster.node(i).engine.Apply(Insert(cluster, 1, 1, 1, 5));
  }
  for (uint16_t level : {kLocalOne, kLocalQuorum}) {
    auto [local, error] = cluster.Read(0, PartitionCommand(cluster, 1), level);
    ASSERT_FALSE(error) << ErrorOf(error).what();
    EXPECT_TRUE(local.partitions.empty());
    auto [remote, remote_error] = cluster.Read(1, PartitionCommand(cluster, 1), level);
    ASSERT_FALSE(remote_error) << ErrorOf(remote_error).what();
    EXPECT_EQ(Rows(remote), (std::vector<Row>{{Key(1).token, 1, 1, 1}}));
  }
  // dc1's replicas agreed (on nothing): nothing was repaired from dc2.
  EXPECT_EQ(Rows(cluster.node(2).engine.Read(PartitionCommand(cluster, 1))).size(), 0u);
  cluster.Kill(2);  // a dc1 node
  auto [unavailable, error] = cluster.Read(0, PartitionCommand(cluster, 1), kLocalQuorum);
  ASSERT_TRUE(error);
  EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kUnavailable);
  auto [quorum, quorum_error] = cluster.Read(0, PartitionCommand(cluster, 1), kQuorum);
  ASSERT_FALSE(quorum_error) << ErrorOf(quorum_error).what();
  EXPECT_EQ(Rows(quorum), (std::vector<Row>{{Key(1).token, 1, 1, 1}}));
}

// Random inserts and row deletions, each given to a random subset of its
// replicas (and to one engine that gets them all), under message faults:
// reads at ALL — of partitions, and paged scans — answer what that engine
// reads (or time out, and are retried), and leave the replicas converged.
TEST(ReadCoordinatorTest, RandomDivergenceReadsAsOneEngineAtAll) {
  for (uint64_t seed = 200; seed < 205; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    SimulatedCluster cluster({.nodes = 4,
                              .seed = seed,
                              // Rare drops: a page crossing many of the 64 ring
                              // ranges sends hundreds of messages, and any loss
                              // times it out.
                              .faults = {.drop_probability = 0.002,
                                         .duplicate_probability = 0.1,
                                         .max_delay = std::chrono::milliseconds(20)}});
    storage::ReferenceEngine everything;
    everything.SyncTables(schema::StoredTableLayouts(cluster.schema()));
    for (int64_t ts = 1; ts <= 200; ++ts) {
      const int32_t k = static_cast<int32_t>(random() % 8);
      const int32_t c = static_cast<int32_t>(random() % 4);
      const storage::Mutation mutation = random() % 4 == 0
                                             ? DeleteRow(cluster, k, c, ts)
                                             : Insert(cluster, k, c, static_cast<int32_t>(ts), ts);
      everything.Apply(mutation);
      const std::vector<int> replicas = ReplicasOf(cluster, k);
      const uint64_t subset = 1 + random() % ((1u << replicas.size()) - 1);
      for (size_t i = 0; i < replicas.size(); ++i) {
        if (subset >> i & 1) cluster.node(replicas[i]).engine.Apply(mutation);
      }
    }
    // Retries a read that timed out (the faults drop messages).
    auto read = [&](int node, const storage::ReadCommand& command) {
      for (int attempt = 0; attempt < 20; ++attempt) {
        auto [result, error] = cluster.Read(node, command, kAll);
        if (!error) return result;
        EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kReadTimeout) << ErrorOf(error).what();
      }
      ADD_FAILURE() << "no answer in 20 attempts";
      return storage::ReadResult();
    };
    std::vector<Row> all;
    storage::ReadCommand scan = ScanCommand(cluster);
    scan.row_limit = 5;
    for (int page = 0; page < 100; ++page) {
      const storage::ReadResult result = read(page % cluster.size(), scan);
      for (const Row& row : Rows(result)) all.push_back(row);
      if (!result.next) break;
      scan.resume_after = result.next;
    }
    EXPECT_EQ(all, Rows(everything.Read(ScanCommand(cluster))));
    for (int32_t k = 0; k < 8; ++k) {
      EXPECT_EQ(Rows(read(k % cluster.size(), PartitionCommand(cluster, k))),
                Rows(everything.Read(PartitionCommand(cluster, k))));
      EXPECT_TRUE(Converged(cluster, k)) << k;
    }
  }
}

}  // namespace
}  // namespace sibyl::cluster::testing
