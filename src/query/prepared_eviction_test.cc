// Which schema changes evict which prepared statements: Cassandra 4.1's
// QueryProcessor drops a table's SELECT, INSERT, UPDATE, DELETE and BATCH
// statements when the table is dropped (alone or with its keyspace) or
// altered in a way TableMetadata.changeAffectsPreparedStatements counts, so
// that their next EXECUTE is answered Unprepared and the driver prepares
// them again with the new metadata.

#include <gtest/gtest.h>

#include "query/read/engine_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::WithValues;

class PreparedEvictionTest : public testing::StorageQueryTest<storage::ReferenceEngine> {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run("CREATE TYPE ks.pair (a int, b text)");
    (void)Run("CREATE TABLE ks.t (k int PRIMARY KEY, a text)");
    (void)Run("CREATE TABLE ks.other (k int PRIMARY KEY, v int)");
    (void)Run("CREATE TABLE ks.u (k int PRIMARY KEY, p frozen<pair>)");
    (void)Run("INSERT INTO ks.t (k, a) VALUES (1, 'x')");
  }

  Bytes Prepare(std::string_view query) {
    return processor_.Prepare(query, client_, std::nullopt).id;
  }
  // Whether EXECUTE of `id` (with the int value 1 for each marker) is
  // answered Unprepared; fails the test on any other error.
  bool Evicted(const Bytes& id, int markers = 1) {
    const Bytes one = types::EncodeInt(1);
    std::vector<Value> values(static_cast<size_t>(markers), Value::Of(one));
    try {
      (void)processor_.Execute(id, WithValues(std::move(values)), client_);
      return false;
    } catch (const CqlError& e) {
      if (e.code() == ErrorCode::kUnprepared) {
        EXPECT_TRUE(std::holds_alternative<UnpreparedInfo>(e.detail()));
        if (std::holds_alternative<UnpreparedInfo>(e.detail())) {
          EXPECT_EQ(std::get<UnpreparedInfo>(e.detail()).id, id);
        }
        return true;
      }
      ADD_FAILURE() << e.what();
      return false;
    }
  }
};

TEST_F(PreparedEvictionTest, AlteringATableEvictsItsStatementsOnly) {
  const char* select_all = "SELECT * FROM ks.t WHERE k = ?";
  const Bytes select = Prepare(select_all);
  const Bytes insert = Prepare("INSERT INTO ks.t (k, a) VALUES (?, 'y')");
  const Bytes batch = Prepare(
      "BEGIN BATCH INSERT INTO ks.other (k, v) VALUES (?, 1); "
      "DELETE FROM ks.t WHERE k = 2; APPLY BATCH");
  const Bytes other = Prepare("SELECT * FROM ks.other WHERE k = ?");
  const size_t before = processor_.prepared_count();

  (void)Run("ALTER TABLE ks.t ADD b int");
  EXPECT_EQ(processor_.prepared_count(), before - 3);
  EXPECT_TRUE(Evicted(select));
  EXPECT_TRUE(Evicted(insert));
  EXPECT_TRUE(Evicted(batch));
  EXPECT_FALSE(Evicted(other));

  // Prepared again, under the same id, with the new columns.
  protocol::PreparedResult again = processor_.Prepare(select_all, client_, std::nullopt);
  EXPECT_EQ(again.id, select);
  ASSERT_EQ(again.result_columns.size(), 3u);
  EXPECT_EQ(again.result_columns[2].name, "b");
  EXPECT_FALSE(Evicted(select));
}

TEST_F(PreparedEvictionTest, OnlyChangesThatAffectStatementsEvict) {
  const Bytes select = Prepare("SELECT a FROM ks.t WHERE k = ?");
  (void)Run("ALTER TABLE ks.t WITH comment = 'no effect on statements'");
  (void)Run("ALTER TABLE ks.t WITH compaction = {'class': 'LeveledCompactionStrategy'}");
  (void)Run("CREATE TABLE ks.new (k int PRIMARY KEY)");
  (void)Run("ALTER TABLE ks.other ADD w int");
  (void)Run("ALTER KEYSPACE ks WITH durable_writes = false");
  EXPECT_FALSE(Evicted(select));

  (void)Run("ALTER TABLE ks.t WITH default_time_to_live = 10");
  EXPECT_TRUE(Evicted(select));
  const Bytes again = Prepare("SELECT a FROM ks.t WHERE k = ?");
  (void)Run("ALTER TABLE ks.t WITH gc_grace_seconds = 10");
  EXPECT_TRUE(Evicted(again));
}

TEST_F(PreparedEvictionTest, AColumnAddedAndDroppedAgainStillEvicts) {
  const Bytes select = Prepare("SELECT * FROM ks.t WHERE k = ?");
  (void)Run("ALTER TABLE ks.t ADD b int");
  const Bytes between = Prepare("SELECT * FROM ks.t WHERE k = ?");
  EXPECT_EQ(between, select);
  (void)Run("ALTER TABLE ks.t DROP b");
  EXPECT_TRUE(Evicted(select));
}

TEST_F(PreparedEvictionTest, DroppingATableOrItsKeyspaceEvicts) {
  const Bytes select = Prepare("SELECT v FROM ks.other WHERE k = ?");
  const Bytes kept = Prepare("SELECT * FROM system.local");
  (void)Run("DROP TABLE ks.other");
  (void)Run("CREATE TABLE ks.other (k int PRIMARY KEY, v text)");
  EXPECT_TRUE(Evicted(select));

  const Bytes t = Prepare("SELECT a FROM ks.t WHERE k = ?");
  const Bytes u = Prepare("UPDATE ks.u SET p = null WHERE k = ?");
  (void)Run("DROP KEYSPACE ks");
  EXPECT_TRUE(Evicted(t));
  EXPECT_TRUE(Evicted(u));
  EXPECT_FALSE(Evicted(kept, 0));
}

TEST_F(PreparedEvictionTest, AlteringAUserTypeEvictsTheTablesUsingIt) {
  const Bytes u = Prepare("SELECT p FROM ks.u WHERE k = ?");
  const Bytes t = Prepare("SELECT a FROM ks.t WHERE k = ?");
  (void)Run("ALTER TYPE ks.pair ADD c int");
  EXPECT_TRUE(Evicted(u));
  EXPECT_FALSE(Evicted(t));
}

TEST_F(PreparedEvictionTest, StatementsWithoutATableAreNeverEvicted) {
  const Bytes truncate = Prepare("TRUNCATE ks.t");
  const Bytes use = Prepare("USE ks");
  const Bytes ddl = Prepare("ALTER TABLE ks.other WITH comment = 'x'");
  (void)Run("ALTER TABLE ks.t ADD b int");
  (void)Run("DROP TABLE ks.other");
  EXPECT_FALSE(Evicted(truncate, 0));
  EXPECT_FALSE(Evicted(use, 0));
  try {
    (void)processor_.Execute(ddl, {}, client_);
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid) << e.what();
  }
}

TEST_F(PreparedEvictionTest, AStatementPreparedAgainstAnOlderSchemaIsCaughtWhenExecuted) {
  // A schema published without the listener (as when a PREPARE read the
  // old schema while the change was being committed).
  const Bytes select = Prepare("SELECT * FROM ks.t WHERE k = ?");
  const Bytes other = Prepare("SELECT * FROM ks.other WHERE k = ?");
  schema::Schema::KeyspaceMap keyspaces = store_.snapshot()->keyspaces();
  auto ks = std::make_shared<schema::KeyspaceMetadata>(*keyspaces.at("ks"));
  auto table = std::make_shared<schema::TableMetadata>(*ks->tables.at("t"));
  schema::ColumnMetadata b;
  b.name = "b";
  b.type = types::CqlType::Native(types::Kind::kInt);
  table->columns.push_back(b);
  ks->tables["t"] = table;
  keyspaces["ks"] = ks;
  store_.Publish(std::make_shared<const schema::Schema>(keyspaces));
  EXPECT_TRUE(Evicted(select));
  EXPECT_FALSE(Evicted(other));
}

TEST_F(PreparedEvictionTest, ResultMetadataIdsOfKeptStatementsStayValid) {
  protocol::PreparedResult prepared =
      processor_.Prepare("SELECT a FROM ks.t WHERE k = ?", client_, std::nullopt);
  (void)Run("ALTER TABLE ks.t WITH comment = 'kept'");
  const Bytes one = types::EncodeInt(1);
  protocol::ExecuteMessage execute;
  execute.id = prepared.id;
  execute.result_metadata_id = BytesView(prepared.result_metadata_id);
  execute.params = WithValues({Value::Of(one)});
  RowsResult rows = std::get<RowsResult>(processor_.Execute(execute, client_));
  EXPECT_FALSE(rows.new_metadata_id);
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0].at(0), Bytes("x"));
}

}  // namespace
}  // namespace sibyl::query
