// Writes and reads through the statement layer over the real storage engine
// (RocksDB in a temporary directory), with a clock the tests move.

#include <filesystem>
#include <random>

#include "query/read/engine_test_util.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::TempDirectory;

class StorageRoundTripTest : public ::testing::Test {
 protected:
  StorageRoundTripTest()
      : engine_(storage::Engine::Open({.directory = dir_.path()}, clock_)),
        store_(schema::MakeInitialSchema()),
        tables_(schema::VirtualTables::SystemTables()),
        coordinator_(*engine_, clock_),
        processor_(store_, tables_, node_, &coordinator_) {}

  void SetUp() override {
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
  }
  void Run(std::string_view query) { (void)processor_.Process(query, {}, client_); }
  std::vector<schema::Row> Rows(std::string_view query) {
    Result result = processor_.Process(query, {}, client_);
    EXPECT_TRUE(std::holds_alternative<RowsResult>(result)) << query;
    if (!std::holds_alternative<RowsResult>(result)) return {};
    return std::get<RowsResult>(std::move(result)).rows;
  }
  static OptBytes Int(int32_t v) { return types::EncodeInt(v); }

  TempDirectory dir_;
  ManualClock clock_;
  std::unique_ptr<storage::Engine> engine_;
  schema::SchemaStore store_;
  schema::VirtualTables tables_;
  schema::LocalNodeInfo node_;
  cluster::Coordinator coordinator_;
  QueryProcessor processor_;
  ClientState client_;
};

TEST_F(StorageRoundTripTest, DescendingClusteringSlicesAndStatics) {
  Run("CREATE TABLE ks.t (k int, c int, s int STATIC, v int, PRIMARY KEY (k, c)) "
      "WITH CLUSTERING ORDER BY (c DESC)");
  for (int c = 1; c <= 5; ++c) {
    Run("INSERT INTO ks.t (k, c, v) VALUES (1, " + std::to_string(c) + ", " +
        std::to_string(c * 10) + ")");
  }
  Run("UPDATE ks.t SET s = 7 WHERE k = 1");
  std::vector<schema::Row> rows = Rows("SELECT c, s, v FROM ks.t WHERE k = 1 AND c >= 2 AND c < 5");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (schema::Row{Int(4), Int(7), Int(40)}));
  EXPECT_EQ(rows[2], (schema::Row{Int(2), Int(7), Int(20)}));
  rows = Rows("SELECT c FROM ks.t WHERE k = 1 AND c IN (1, 5, 3) ORDER BY c ASC");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0], Int(1));
  EXPECT_EQ(rows[2][0], Int(5));
}

TEST_F(StorageRoundTripTest, TtlCountsDownAndExpires) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1) USING TTL 100");
  clock_.AdvanceSeconds(40);
  std::vector<schema::Row> rows = Rows("SELECT ttl(v) FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], Int(60));
  clock_.AdvanceSeconds(61);
  EXPECT_TRUE(Rows("SELECT * FROM ks.t").empty());
}

TEST_F(StorageRoundTripTest, WritetimeIsTheStatementsTimestamp) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1) USING TIMESTAMP 1234");
  std::vector<schema::Row> rows = Rows("SELECT writetime(v) FROM ks.t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], types::EncodeBigint(1234));
  // An older write loses to the newer one, whatever the order they arrive in.
  Run("INSERT INTO ks.t (k, v) VALUES (1, 2) USING TIMESTAMP 1000");
  EXPECT_EQ(Rows("SELECT v FROM ks.t")[0][0], Int(1));
}

TEST_F(StorageRoundTripTest, ColumnDroppedAndAddedAgainStartsEmpty) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1)");
  clock_.AdvanceSeconds(1);
  Run("ALTER TABLE ks.t DROP v");
  clock_.AdvanceSeconds(1);
  Run("ALTER TABLE ks.t ADD v int");
  std::vector<schema::Row> rows = Rows("SELECT k, v FROM ks.t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (schema::Row{Int(1), std::nullopt}));
}

TEST_F(StorageRoundTripTest, BatchAndTruncate) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1); "
      "INSERT INTO ks.t (k, c, v) VALUES (2, 1, 2); DELETE FROM ks.t WHERE k = 1 AND c = 1; "
      "APPLY BATCH");
  // The delete and the insert of (1, 1) share the batch's timestamp: the tombstone wins.
  std::vector<schema::Row> rows = Rows("SELECT k, c, v FROM ks.t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], Int(2));
  Run("TRUNCATE ks.t");
  EXPECT_TRUE(Rows("SELECT * FROM ks.t").empty());
}

}  // namespace
}  // namespace sibyl::query
