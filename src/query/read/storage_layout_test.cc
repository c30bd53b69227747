// The engine's view of tables made with CREATE TABLE.

#include "schema/storage_layout.h"

#include "query/query_test_util.h"

namespace sibyl::query {
namespace {

class StorageLayoutTest : public testing::QueryTest {
 protected:
  void Run(std::string_view query) { (void)processor_.Process(query, {}, client_); }
  storage::TableLayout Layout(std::string_view table) {
    schema::TablePtr metadata = store_.snapshot()->FindTable("ks", table);
    EXPECT_NE(metadata, nullptr);
    return schema::MakeTableLayout(*metadata);
  }
  void SetUp() override {
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
  }
};

TEST_F(StorageLayoutTest, KeysClusteringOrderAndColumns) {
  Run("CREATE TABLE ks.t (a int, b text, c timestamp, d int, s int STATIC, v list<int>, "
      "f frozen<set<int>>, PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)");
  const storage::TableLayout layout = Layout("t");
  EXPECT_EQ(layout.id, store_.snapshot()->FindTable("ks", "t")->id);
  EXPECT_EQ(layout.keyspace, "ks");
  EXPECT_EQ(layout.name, "t");
  ASSERT_EQ(layout.partition_key_types.size(), 2u);
  EXPECT_EQ(layout.partition_key_types[0]->kind(), types::Kind::kInt);
  EXPECT_EQ(layout.partition_key_types[1]->kind(), types::Kind::kText);
  ASSERT_EQ(layout.clustering.size(), 2u);
  EXPECT_EQ(layout.clustering[0].type->kind(), types::Kind::kTimestamp);
  EXPECT_TRUE(layout.clustering[0].descending);
  EXPECT_FALSE(layout.clustering[1].descending);
  ASSERT_EQ(layout.columns.size(), 3u);
  const storage::ColumnLayout* s = layout.FindColumn("s");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->is_static);
  const storage::ColumnLayout* v = layout.FindColumn("v");
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->is_static);
  EXPECT_TRUE(v->is_multi_cell());
  EXPECT_FALSE(layout.FindColumn("f")->is_multi_cell());
  EXPECT_EQ(layout.FindColumn("a"), nullptr);
}

TEST_F(StorageLayoutTest, DefaultOptions) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  const storage::StorageOptions options = Layout("t").options;
  EXPECT_EQ(options.gc_grace_seconds, 864000);
  EXPECT_DOUBLE_EQ(options.bloom_filter_fp_chance, 0.01);
  EXPECT_EQ(options.compaction, "size_tiered");
  EXPECT_EQ(options.compression, "lz4");
  EXPECT_EQ(options.chunk_length_kb, 16);
}

TEST_F(StorageLayoutTest, OptionsMapToEngineSettings) {
  Run("CREATE TABLE ks.lcs (k int PRIMARY KEY) WITH gc_grace_seconds = 3600 AND "
      "compaction = {'class': 'LeveledCompactionStrategy'} AND "
      "compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': 64}");
  storage::StorageOptions options = Layout("lcs").options;
  EXPECT_EQ(options.gc_grace_seconds, 3600);
  EXPECT_DOUBLE_EQ(options.bloom_filter_fp_chance, 0.1);  // LCS's default
  EXPECT_EQ(options.compaction, "leveled");
  EXPECT_EQ(options.compression, "zstd");
  EXPECT_EQ(options.chunk_length_kb, 64);

  Run("CREATE TABLE ks.twcs (k int PRIMARY KEY) WITH bloom_filter_fp_chance = 0.05 AND "
      "compaction = {'class': 'TimeWindowCompactionStrategy'} AND "
      "compression = {'class': 'SnappyCompressor'}");
  options = Layout("twcs").options;
  EXPECT_DOUBLE_EQ(options.bloom_filter_fp_chance, 0.05);
  EXPECT_EQ(options.compaction, "time_window");
  EXPECT_EQ(options.compression, "snappy");

  Run("CREATE TABLE ks.plain (k int PRIMARY KEY) WITH compression = {'enabled': false}");
  EXPECT_EQ(Layout("plain").options.compression, "none");
  Run("CREATE TABLE ks.deflate (k int PRIMARY KEY) WITH "
      "compression = {'class': 'DeflateCompressor'}");
  EXPECT_EQ(Layout("deflate").options.compression, "deflate");
}

TEST_F(StorageLayoutTest, UserTablesAndPaxosStateAreStored) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY)");
  const schema::SchemaPtr schema = store_.snapshot();
  EXPECT_TRUE(schema::IsStoredTable(*schema->FindTable("ks", "t")));
  EXPECT_TRUE(schema::IsStoredTable(*schema->FindTable("system", "paxos")));
  EXPECT_FALSE(schema::IsStoredTable(*schema->FindTable("system", "local")));
  EXPECT_FALSE(schema::IsStoredTable(*schema->FindTable("system_auth", "roles")));
  EXPECT_FALSE(schema::IsStoredTable(*schema->FindTable("system_views", "settings")));
  std::vector<std::string> stored;
  for (const storage::TableLayout& layout : schema::StoredTableLayouts(*schema)) {
    stored.push_back(layout.keyspace + "." + layout.name);
  }
  std::sort(stored.begin(), stored.end());
  EXPECT_EQ(stored, (std::vector<std::string>{"ks.t", "system.paxos"}));
}

}  // namespace
}  // namespace sibyl::query
