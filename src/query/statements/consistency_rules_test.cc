// The consistency levels each statement accepts, through the query
// processor over storage::ReferenceEngine, as Cassandra 4.1 checks them
// (consistency_rules.h): which levels are refused, with 4.1's messages, and
// where the check falls among the statement's other checks.

#include "query/statements/consistency_rules.h"

#include <optional>

#include "query/read/engine_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using protocol::Consistency;
using testing::WithValues;

constexpr const char* kSerialWrite = "You must use conditional updates for serializable writes";
constexpr const char* kAnyRead = "ANY ConsistencyLevel is only supported for writes";
constexpr const char* kSerialCas =
    "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL";
constexpr const char* kOnePartition =
    "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time";
constexpr const char* kReadBeforeWriteAny =
    "Write operation require a read but consistency ANY is not supported on reads";
constexpr const char* kNodeLocal =
    "NODE_LOCAL consistency level is highly dangerous and should be used only for debugging "
    "purposes";

std::string CommitMessage(const char* level) {
  return std::string(level) +
         " is not supported as conditional update commit consistency. Use ANY if you mean "
         "\"make sure it is accepted but I don't care how many replicas commit it for "
         "non-SERIAL reads\"";
}

protocol::QueryParameters At(Consistency consistency,
                             std::optional<Consistency> serial = std::nullopt,
                             protocol::QueryParameters params = {}) {
  params.consistency = static_cast<uint16_t>(consistency);
  if (serial) params.serial_consistency = static_cast<uint16_t>(*serial);
  return params;
}

class ConsistencyRulesTest : public testing::StorageQueryTest<storage::ReferenceEngine> {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run(
        "CREATE KEYSPACE nts WITH replication = {'class': 'NetworkTopologyStrategy', "
        "'datacenter1': 1}");
    (void)Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
    (void)Run("CREATE TABLE ks.cnt (k int PRIMARY KEY, hits counter)");
    (void)Run("CREATE TABLE ks.coll (k int PRIMARY KEY, l list<int>)");
    (void)Run("CREATE TABLE nts.t (k int PRIMARY KEY, v int)");
    for (int k = 1; k <= 3; ++k) {
      for (int c = 1; c <= 3; ++c) {
        (void)Run("INSERT INTO ks.t (k, c, v) VALUES (" + std::to_string(k) + ", " +
                  std::to_string(c) + ", 0)");
      }
      (void)Run("INSERT INTO ks.coll (k, l) VALUES (" + std::to_string(k) + ", [1, 2])");
    }
  }

  std::string Message(std::string_view query, const protocol::QueryParameters& params) {
    const CqlError error = Error(query, params);
    EXPECT_EQ(error.code(), ErrorCode::kInvalid) << query;
    return error.what();
  }

  size_t Count(std::string_view query, const protocol::QueryParameters& params) {
    return Rows(query, params).rows.size();
  }

  std::string BatchMessage(const protocol::BatchMessage& batch) {
    try {
      (void)processor_.Batch(batch, client_);
    } catch (const CqlError& e) {
      return e.what();
    }
    return "";
  }

  static protocol::BatchMessage Batch(std::vector<std::string_view> queries,
                                      Consistency consistency,
                                      std::optional<Consistency> serial = std::nullopt) {
    protocol::BatchMessage batch;
    for (std::string_view query : queries) {
      protocol::BatchChild child;
      child.query = query;
      batch.children.push_back(child);
    }
    batch.consistency = static_cast<uint16_t>(consistency);
    if (serial) batch.serial_consistency = static_cast<uint16_t>(*serial);
    return batch;
  }
};

TEST_F(ConsistencyRulesTest, ReadsAtEveryLevelButAny) {
  // (TWO and THREE want more replicas than replication factor 1 has: 4.1
  // answers Unavailable, which Sibyl does not check yet.)
  for (Consistency level :
       {Consistency::kOne, Consistency::kQuorum, Consistency::kAll, Consistency::kLocalQuorum,
        Consistency::kEachQuorum, Consistency::kSerial, Consistency::kLocalSerial,
        Consistency::kLocalOne}) {
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1", At(level)), 3u)
        << protocol::ConsistencyName(static_cast<uint16_t>(level));
  }
  EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k = 1", At(Consistency::kAny)), kAnyRead);
  // Virtual tables too, and before anything is bound (a null LIMIT).
  EXPECT_EQ(Message("SELECT * FROM system_views.settings", At(Consistency::kAny)), kAnyRead);
  EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k = 1 LIMIT ?",
                    At(Consistency::kAny, std::nullopt, WithValues({Value::Null()}))),
            kAnyRead);
  // The serial consistency of a read is not looked at.
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1", At(Consistency::kOne, Consistency::kOne)), 3u);
}

// A SERIAL read is a Paxos read of one partition: several partitions in one
// unpaged read are refused; paged, each is read on its own.
TEST_F(ConsistencyRulesTest, SerialReadsOfSeveralPartitions) {
  for (Consistency level : {Consistency::kSerial, Consistency::kLocalSerial}) {
    protocol::QueryParameters unpaged = At(level);
    EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k IN (1, 2)", unpaged), kOnePartition);
    EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k IN (1, 2) AND c = 1", unpaged), kOnePartition);
    EXPECT_EQ(Message("SELECT DISTINCT k FROM ks.t WHERE k IN (1, 2)", unpaged), kOnePartition);
    EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k IN (1, 2) ORDER BY c DESC", unpaged),
              kOnePartition);
    protocol::QueryParameters paged = At(level);
    paged.page_size = 100;
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN (1, 2)", paged), 6u);
    // A LIMIT within the page: read in one go, as unpaged.
    EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k IN (1, 2) LIMIT 100", paged), kOnePartition);
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN (1, 2) LIMIT 101", paged), 6u);
    // Aggregates and GROUP BY are always paged.
    EXPECT_EQ(Count("SELECT count(*) FROM ks.t WHERE k IN (1, 2)", unpaged), 1u);
    EXPECT_EQ(Count("SELECT k, count(*) FROM ks.t WHERE k IN (1, 2) GROUP BY k", unpaged), 2u);
    // One partition (a repeated key is one), none, or no row can match.
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN (1, 1)", unpaged), 3u);
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN ()", unpaged), 0u);
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN (1, 2) AND c > 2 AND c < 1", unpaged), 0u);
    // Range reads are not refused.
    EXPECT_EQ(Count("SELECT * FROM ks.t", unpaged), 9u);
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE token(k) > 0", unpaged),
              Count("SELECT * FROM ks.t WHERE token(k) > 0", At(Consistency::kOne)));
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE v = 0 ALLOW FILTERING", unpaged), 9u);
  }
  // The refusal comes once the values are bound.
  EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k IN (1, 2) LIMIT ?",
                    At(Consistency::kSerial, std::nullopt, WithValues({Value::Null()}))),
            "Invalid null value of limit");
}

TEST_F(ConsistencyRulesTest, WritesWithoutConditions) {
  for (Consistency level :
       {Consistency::kAny, Consistency::kOne, Consistency::kQuorum, Consistency::kAll,
        Consistency::kLocalQuorum, Consistency::kEachQuorum, Consistency::kLocalOne}) {
    EXPECT_TRUE(std::holds_alternative<VoidResult>(
        Run("INSERT INTO ks.t (k, c, v) VALUES (9, 9, 9)", At(level))));
    EXPECT_TRUE(
        std::holds_alternative<VoidResult>(Run("UPDATE nts.t SET v = 1 WHERE k = 1", At(level))));
  }
  for (Consistency level : {Consistency::kSerial, Consistency::kLocalSerial}) {
    EXPECT_EQ(Message("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)", At(level)), kSerialWrite);
    EXPECT_EQ(Message("UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1", At(level)), kSerialWrite);
    EXPECT_EQ(Message("DELETE FROM ks.t WHERE k = 1", At(level)), kSerialWrite);
    // Before the values are bound.
    EXPECT_EQ(Message("INSERT INTO ks.t (k, c, v) VALUES (?, 1, 1)",
                      At(level, std::nullopt, WithValues({Value::Null()}))),
              kSerialWrite);
  }
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1 AND c = 1 AND v = 1 ALLOW FILTERING",
                  At(Consistency::kOne)),
            0u);
  // The serial consistency of a write without conditions is not looked at.
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("INSERT INTO ks.t (k, c, v) VALUES (9, 9, 9)",
                                                     At(Consistency::kOne, Consistency::kAll))));
}

TEST_F(ConsistencyRulesTest, CounterWrites) {
  EXPECT_EQ(Message("UPDATE ks.cnt SET hits = hits + 1 WHERE k = 1", At(Consistency::kAny)),
            "Consistency level ANY is not yet supported for counter table cnt");
  for (Consistency level : {Consistency::kSerial, Consistency::kLocalSerial}) {
    EXPECT_EQ(Message("UPDATE ks.cnt SET hits = hits + 1 WHERE k = 1", At(level)),
              "Counter operations are inherently non-serializable");
  }
  EXPECT_TRUE(std::holds_alternative<VoidResult>(
      Run("UPDATE ks.cnt SET hits = hits + 1 WHERE k = 1", At(Consistency::kQuorum))));
}

TEST_F(ConsistencyRulesTest, LightweightTransactions) {
  const std::string_view cas = "UPDATE ks.t SET v = 5 WHERE k = 1 AND c = 1 IF v = 0";
  // Serial consistency first, then the commit consistency.
  for (Consistency serial :
       {Consistency::kAny, Consistency::kOne, Consistency::kQuorum, Consistency::kEachQuorum}) {
    EXPECT_EQ(Message(cas, At(Consistency::kSerial, serial)), kSerialCas);
  }
  EXPECT_EQ(Message(cas, At(Consistency::kSerial)), CommitMessage("SERIAL"));
  EXPECT_EQ(Message(cas, At(Consistency::kLocalSerial, Consistency::kLocalSerial)),
            CommitMessage("LOCAL_SERIAL"));
  EXPECT_EQ(Message(cas, At(Consistency::kEachQuorum)),
            "consistency level EACH_QUORUM not compatible with replication strategy "
            "(org.apache.cassandra.locator.SimpleStrategy)");
  // Once the statement is bound and checked: an IN comes first.
  EXPECT_EQ(Message("UPDATE ks.t SET v = 5 WHERE k IN (1, 2) AND c = 1 IF v = 0",
                    At(Consistency::kOne, Consistency::kOne)),
            "IN on the partition key is not supported with conditional updates");
  EXPECT_EQ(Message("INSERT INTO ks.t (k, c, v) VALUES (?, 1, 1) IF NOT EXISTS",
                    At(Consistency::kOne, Consistency::kOne, WithValues({Value::Null()}))),
            "Invalid null value in condition for column k");
  // Accepted: commit at ANY or any other level, serial SERIAL or LOCAL_SERIAL.
  for (Consistency commit :
       {Consistency::kAny, Consistency::kOne, Consistency::kQuorum, Consistency::kAll,
        Consistency::kLocalQuorum, Consistency::kLocalOne}) {
    for (Consistency serial : {Consistency::kSerial, Consistency::kLocalSerial}) {
      EXPECT_EQ(Count("UPDATE ks.t SET v = 0 WHERE k = 1 AND c = 1 IF EXISTS", At(commit, serial)),
                1u);
    }
  }
  EXPECT_EQ(Count("UPDATE nts.t SET v = 2 WHERE k = 1 IF EXISTS", At(Consistency::kEachQuorum)),
            1u);
}

TEST_F(ConsistencyRulesTest, Batches) {
  // Without conditions 4.1 checks no level: SERIAL, and counters at ANY, are written.
  for (Consistency level : {Consistency::kAny, Consistency::kSerial, Consistency::kLocalSerial}) {
    EXPECT_TRUE(std::holds_alternative<VoidResult>(
        Run("BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (7, 1, 1); "
            "INSERT INTO ks.t (k, c, v) VALUES (8, 1, 1); APPLY BATCH",
            At(level))));
    EXPECT_TRUE(std::holds_alternative<VoidResult>(
        Run("BEGIN COUNTER BATCH UPDATE ks.cnt SET hits = hits + 1 WHERE k = 1; APPLY BATCH",
            At(level))));
    EXPECT_EQ(BatchMessage(Batch({"INSERT INTO ks.t (k, c, v) VALUES (7, 2, 1)",
                                  "INSERT INTO ks.t (k, c, v) VALUES (8, 2, 1)"},
                                 level)),
              "");
  }
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 8", At(Consistency::kOne)), 2u);
  // With conditions, as a lightweight transaction.
  const std::string_view conditional =
      "BEGIN BATCH UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1 IF v = 0; "
      "UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 2; APPLY BATCH";
  EXPECT_EQ(Message(conditional, At(Consistency::kSerial)), CommitMessage("SERIAL"));
  EXPECT_EQ(Message(conditional, At(Consistency::kOne, Consistency::kQuorum)), kSerialCas);
  EXPECT_EQ(BatchMessage(Batch({"UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1 IF v = 0"},
                               Consistency::kOne, Consistency::kOne)),
            kSerialCas);
  EXPECT_EQ(BatchMessage(Batch({"UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1 IF v = 0"},
                               Consistency::kLocalSerial, Consistency::kSerial)),
            CommitMessage("LOCAL_SERIAL"));
  // The partitions are checked before the levels.
  EXPECT_EQ(Message("BEGIN BATCH UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1 IF v = 0; "
                    "UPDATE ks.t SET v = 1 WHERE k = 2 AND c = 2; APPLY BATCH",
                    At(Consistency::kSerial)),
            "Batch with conditions cannot span multiple partitions");
  EXPECT_EQ(Count(conditional, At(Consistency::kAny, Consistency::kLocalSerial)), 1u);
}

// List operations that read the current list read at the write's level.
TEST_F(ConsistencyRulesTest, ReadsBeforeWrites) {
  for (std::string_view query :
       {"UPDATE ks.coll SET l[0] = 7 WHERE k = 1", "UPDATE ks.coll SET l = l - [1] WHERE k = 1",
        "DELETE l[0] FROM ks.coll WHERE k = 1", "UPDATE ks.coll SET l[0] = 7 WHERE k IN ()"}) {
    EXPECT_EQ(Message(query, At(Consistency::kAny)), kReadBeforeWriteAny) << query;
    EXPECT_EQ(Message("BEGIN UNLOGGED BATCH " + std::string(query) + "; APPLY BATCH",
                      At(Consistency::kAny)),
              kReadBeforeWriteAny)
        << query;
  }
  // Before the TTL is bound.
  const Bytes negative = types::EncodeInt(-1);
  const std::string_view with_ttl = "UPDATE ks.coll USING TTL ? SET l[0] = 7 WHERE k = 1";
  EXPECT_EQ(
      Message(with_ttl, At(Consistency::kAny, std::nullopt, WithValues({Value::Of(negative)}))),
      kReadBeforeWriteAny);
  EXPECT_EQ(
      Message(with_ttl, At(Consistency::kOne, std::nullopt, WithValues({Value::Of(negative)}))),
      "A TTL must be greater or equal to 0, but was -1");
  // Appending reads nothing.
  EXPECT_TRUE(std::holds_alternative<VoidResult>(
      Run("UPDATE ks.coll SET l = l + [3] WHERE k = 1", At(Consistency::kAny))));
  // A batch at SERIAL reads with Paxos, one partition at a time.
  EXPECT_EQ(Message("BEGIN BATCH UPDATE ks.coll SET l[0] = 7 WHERE k IN (1, 2); APPLY BATCH",
                    At(Consistency::kSerial)),
            kOnePartition);
  EXPECT_TRUE(std::holds_alternative<VoidResult>(
      Run("BEGIN BATCH UPDATE ks.coll SET l[0] = 7 WHERE k IN (1, 1); "
          "UPDATE ks.coll SET l[1] = 8 WHERE k = 2; APPLY BATCH",
          At(Consistency::kLocalSerial))));
  EXPECT_EQ(Rows("SELECT l FROM ks.coll WHERE k = 1", At(Consistency::kOne)).rows[0][0],
            types::EncodeList({types::EncodeInt(7), types::EncodeInt(2), types::EncodeInt(3)}));
  // A conditional update reads under its lock, whatever the commit level.
  EXPECT_EQ(Count("UPDATE ks.coll SET l[0] = 9 WHERE k = 3 IF EXISTS",
                  At(Consistency::kAny, Consistency::kSerial)),
            1u);
}

TEST_F(ConsistencyRulesTest, NodeLocalIsRefusedForEveryStatement) {
  const protocol::QueryParameters node_local = At(Consistency::kNodeLocal);
  for (std::string_view query :
       {"SELECT * FROM ks.t WHERE k = 1", "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)",
        "UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1 IF v = 0",
        "BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1); APPLY BATCH", "USE nope",
        "CREATE TABLE ks.n (k int PRIMARY KEY)", "TRUNCATE ks.t", "SELECT * FROM system.local"}) {
    EXPECT_EQ(Message(query, node_local), kNodeLocal) << query;
  }
  // Once the values are counted.
  EXPECT_EQ(Message("SELECT * FROM ks.t WHERE k = ?",
                    At(Consistency::kNodeLocal, std::nullopt, WithValues({}))),
            "Invalid amount of bind variables");
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1", At(Consistency::kOne)), 3u);
}

}  // namespace
}  // namespace sibyl::query
