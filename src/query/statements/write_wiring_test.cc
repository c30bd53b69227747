// The write path through the statement layer: INSERT/UPDATE/DELETE, BATCH
// and TRUNCATE reach the engine through the coordinator, and the engine's
// tables follow the schema.

#include "query/read/engine_test_util.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::WithValues;

class WriteWiringTest : public testing::StorageQueryTest<testing::RecordingEngine> {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
    (void)Run("CREATE TABLE ks.counts (k int PRIMARY KEY, n counter)");
  }
  size_t MutationCount() const {
    size_t count = 0;
    for (const auto& group : engine_.applied()) count += group.size();
    return count;
  }
};

TEST_F(WriteWiringTest, EngineGetsATableBeforeClientsSeeIt) {
  bool visible_during_sync = true;
  engine_.on_sync = [&] {
    visible_during_sync = store_.snapshot()->FindTable("ks", "later") != nullptr;
  };
  (void)Run("CREATE TABLE ks.later (k int PRIMARY KEY)");
  EXPECT_FALSE(visible_during_sync);
  bool synced = false;
  for (const auto& layout : engine_.tables()) synced |= layout.name == "later";
  EXPECT_TRUE(synced);

  engine_.on_sync = nullptr;
  (void)Run("DROP TABLE ks.later");
  for (const auto& layout : engine_.tables()) EXPECT_NE(layout.name, "later");
}

TEST_F(WriteWiringTest, EngineTablesAreTheUserTablesAndPaxosState) {
  // Synced when the processor was built, then after each CREATE.
  EXPECT_EQ(engine_.syncs(), 4);
  std::vector<std::string> tables;
  for (const auto& layout : engine_.tables()) tables.push_back(layout.keyspace + "." + layout.name);
  std::sort(tables.begin(), tables.end());
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[2], "system.paxos");
}

TEST_F(WriteWiringTest, ListenerFailureAbortsTheChange) {
  engine_.on_sync = [] { throw std::runtime_error("disk on fire"); };
  CqlError error = Error("CREATE TABLE ks.doomed (k int PRIMARY KEY)");
  EXPECT_EQ(error.code(), ErrorCode::kServerError);
  EXPECT_STREQ(error.what(), "Failed to apply the schema change: disk on fire");
  engine_.on_sync = nullptr;
  EXPECT_EQ(store_.snapshot()->FindTable("ks", "doomed"), nullptr);
}

TEST_F(WriteWiringTest, InsertAppliesOneMutation) {
  EXPECT_TRUE(
      std::holds_alternative<VoidResult>(Run("INSERT INTO ks.t (k, c, v) VALUES (1, 2, 3)")));
  ASSERT_EQ(engine_.applied().size(), 1u);
  const storage::Mutation& m = engine_.applied()[0][0];
  EXPECT_EQ(m.table_id, Table("t").id);
  EXPECT_EQ(m.partition.key, types::EncodeInt(1));
}

TEST_F(WriteWiringTest, PreparedWritesRouteByPartitionKey) {
  protocol::PreparedResult prepared =
      processor_.Prepare("INSERT INTO ks.t (c, k, v) VALUES (?, ?, ?)", client_, std::nullopt);
  EXPECT_EQ(prepared.partition_key_indexes, std::vector<uint16_t>{1});
  prepared =
      processor_.Prepare("UPDATE ks.t SET v = ? WHERE k = ? AND c = ?", client_, std::nullopt);
  EXPECT_EQ(prepared.partition_key_indexes, std::vector<uint16_t>{1});
  const Bytes k = types::EncodeInt(5), c = types::EncodeInt(6), v = types::EncodeInt(7);
  (void)processor_.Execute(prepared.id, WithValues({Value::Of(v), Value::Of(k), Value::Of(c)}),
                           client_);
  ASSERT_EQ(engine_.applied().size(), 1u);
  EXPECT_EQ(engine_.applied()[0][0].partition.key, k);
}

TEST_F(WriteWiringTest, SystemAndVirtualTablesAreNotWritable) {
  EXPECT_EQ(Error("INSERT INTO system.local (key) VALUES ('x')").code(), ErrorCode::kInvalid);
  EXPECT_EQ(MutationCount(), 0u);
}

TEST_F(WriteWiringTest, ConditionalWritesRunAsLightweightTransactions) {
  const Result result = Run("INSERT INTO ks.t (k, c, v) VALUES (1, 2, 3) IF NOT EXISTS");
  const auto* rows = std::get_if<RowsResult>(&result);
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ((*rows->columns)[0].name, "[applied]");
  EXPECT_TRUE(rows->always_send_metadata);
  EXPECT_EQ(MutationCount(), 1u);
}

TEST_F(WriteWiringTest, BatchMergesAPartitionsChangesIntoOneAtomicWrite) {
  (void)Run(
      "BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1); "
      "INSERT INTO ks.t (k, c, v) VALUES (1, 2, 2); "
      "INSERT INTO ks.t (k, c, v) VALUES (2, 1, 1) APPLY BATCH");
  ASSERT_EQ(engine_.applied().size(), 1u);
  const auto& group = engine_.applied()[0];
  ASSERT_EQ(group.size(), 2u);  // partitions 1 and 2
  EXPECT_EQ(group[0].rows.size(), 2u);
  EXPECT_EQ(group[1].rows.size(), 1u);
}

TEST_F(WriteWiringTest, BatchTimestampAppliesToEveryStatement) {
  (void)Run(
      "BEGIN UNLOGGED BATCH USING TIMESTAMP 42 INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1); "
      "UPDATE ks.t SET v = 3 WHERE k = 2 AND c = 2 APPLY BATCH");
  ASSERT_EQ(engine_.applied().size(), 1u);
  for (const auto& m : engine_.applied()[0]) {
    for (const auto& row : m.rows) {
      for (const auto& cell : row.cells) EXPECT_EQ(cell.cell.timestamp, 42);
    }
  }
  EXPECT_STREQ(Error("BEGIN BATCH USING TIMESTAMP 1 INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1) "
                     "USING TIMESTAMP 2 APPLY BATCH")
                   .what(),
               "Timestamp must be set either on BATCH or individual statements");
  EXPECT_STREQ(Error("BEGIN BATCH USING TTL 1 INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1) "
                     "APPLY BATCH")
                   .what(),
               "Global TTL on the BATCH statement is not supported.");
}

TEST_F(WriteWiringTest, CounterBatchRules) {
  EXPECT_STREQ(Error("BEGIN BATCH UPDATE ks.counts SET n = n + 1 WHERE k = 1 APPLY BATCH").what(),
               "Cannot include a counter statement in a logged batch");
  EXPECT_STREQ(Error("BEGIN COUNTER BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1) "
                     "APPLY BATCH")
                   .what(),
               "Cannot include non-counter statement in a counter batch");
  EXPECT_STREQ(Error("BEGIN UNLOGGED BATCH UPDATE ks.counts SET n = n + 1 WHERE k = 1; "
                     "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1) APPLY BATCH")
                   .what(),
               "Counter and non-counter mutations cannot exist in the same batch");
  EXPECT_STREQ(Error("BEGIN COUNTER BATCH USING TIMESTAMP 5 "
                     "UPDATE ks.counts SET n = n + 1 WHERE k = 1 APPLY BATCH")
                   .what(),
               "Cannot provide custom timestamp for counter BATCH");
  EXPECT_EQ(MutationCount(), 0u);

  // Two increments of one counter in a batch add up.
  (void)Run(
      "BEGIN COUNTER BATCH UPDATE ks.counts SET n = n + 1 WHERE k = 1; "
      "UPDATE ks.counts SET n = n + 2 WHERE k = 1 APPLY BATCH");
  ASSERT_EQ(engine_.applied().size(), 1u);
  const storage::Mutation& m = engine_.applied()[0][0];
  ASSERT_EQ(m.rows.size(), 1u);
  ASSERT_EQ(m.rows[0].cells.size(), 1u);
  EXPECT_EQ(types::DecodeBigint(m.rows[0].cells[0].cell.value), 3);
}

TEST_F(WriteWiringTest, BatchMessageWithPreparedAndUnpreparedChildren) {
  protocol::PreparedResult prepared =
      processor_.Prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)", client_, std::nullopt);
  const Bytes one = types::EncodeInt(1), two = types::EncodeInt(2);
  protocol::BatchMessage batch;
  batch.type = protocol::BatchType::kUnlogged;
  batch.default_timestamp = 77;
  protocol::BatchChild a;
  a.is_prepared = true;
  a.id = prepared.id;
  a.values = {Value::Of(one), Value::Of(one), Value::Of(two)};
  protocol::BatchChild b;
  b.query = "UPDATE ks.t SET v = ? WHERE k = ? AND c = ?";
  b.values = {Value::Of(one), Value::Of(two), Value::Of(two)};
  batch.children = {a, b};
  EXPECT_TRUE(std::holds_alternative<VoidResult>(processor_.Batch(batch, client_)));
  ASSERT_EQ(engine_.applied().size(), 1u);
  ASSERT_EQ(engine_.applied()[0].size(), 2u);
  EXPECT_EQ(engine_.applied()[0][0].rows[0].cells[0].cell.timestamp, 77);

  protocol::BatchChild select;
  select.query = "SELECT * FROM ks.t";
  batch.children = {select};
  try {
    (void)processor_.Batch(batch, client_);
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid statement in batch: only UPDATE, INSERT and DELETE statements are "
                 "allowed.");
  }
  protocol::BatchChild unknown;
  unknown.is_prepared = true;
  const Bytes id = "0123456789abcdef";
  unknown.id = id;
  batch.children = {unknown};
  try {
    (void)processor_.Batch(batch, client_);
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnprepared);
  }
}

TEST_F(WriteWiringTest, BatchWithBindMarkersInSeveralStatements) {
  protocol::PreparedResult prepared = processor_.Prepare(
      "BEGIN BATCH USING TIMESTAMP ? INSERT INTO ks.t (k, c, v) VALUES (?, 1, ?); "
      "DELETE FROM ks.t WHERE k = ? AND c = ? APPLY BATCH",
      client_, std::nullopt);
  ASSERT_EQ(prepared.bind_variables.size(), 5u);
  EXPECT_EQ(prepared.bind_variables[0].name, "[timestamp]");
  EXPECT_EQ(prepared.bind_variables[1].name, "k");
  EXPECT_EQ(prepared.bind_variables[2].name, "v");
  EXPECT_EQ(prepared.bind_variables[3].name, "k");
  EXPECT_EQ(prepared.bind_variables[4].name, "c");
  const Bytes ts = types::EncodeBigint(1000), k1 = types::EncodeInt(1), k2 = types::EncodeInt(2);
  (void)processor_.Execute(
      prepared.id,
      WithValues({Value::Of(ts), Value::Of(k1), Value::Of(k1), Value::Of(k2), Value::Of(k1)}),
      client_);
  ASSERT_EQ(engine_.applied().size(), 1u);
  ASSERT_EQ(engine_.applied()[0].size(), 2u);
  EXPECT_EQ(engine_.applied()[0][0].partition.key, k1);
  EXPECT_EQ(engine_.applied()[0][1].partition.key, k2);
  EXPECT_EQ(engine_.applied()[0][1].rows.at(0).deletion.marked_for_delete_at, 1000);
}

TEST_F(WriteWiringTest, Truncate) {
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("TRUNCATE ks.t")));
  ASSERT_EQ(engine_.truncated().size(), 1u);
  EXPECT_EQ(engine_.truncated()[0], Table("t").id);
  (void)Run("USE ks");
  (void)Run("TRUNCATE TABLE t");
  EXPECT_EQ(engine_.truncated().size(), 2u);
  EXPECT_STREQ(Error("TRUNCATE ks.nosuch").what(), "table nosuch does not exist");
  EXPECT_STREQ(Error("TRUNCATE nosuch.t").what(), "keyspace nosuch does not exist");
  EXPECT_STREQ(Error("TRUNCATE system_views.settings").what(), "Cannot truncate virtual tables");
  EXPECT_EQ(Error("TRUNCATE system.local").code(), ErrorCode::kInvalid);
  client_.keyspace.reset();
  EXPECT_EQ(std::string(Error("TRUNCATE t").what()), kNoKeyspaceMessage);
}

}  // namespace
}  // namespace sibyl::query
