// SELECT, USE and DESCRIBE over the virtual keyspaces (system_views,
// system_virtual_schema), through the same machinery as every other table.

#include <algorithm>
#include <string>

#include "query/query_test_util.h"
#include "query/restrictions/restrictions.h"

namespace sibyl::query {
namespace {

using testing::QueryTest;

class VirtualSelectTest : public QueryTest {
 protected:
  VirtualSelectTest() {
    node_.settings = {{"cluster_name", "Test Cluster"},
                      {"commitlog_sync", "periodic"},
                      {"native_transport_port", "9042"},
                      {"num_tokens", "16"},
                      {"rpc_address", std::nullopt}};
  }
};

TEST_F(VirtualSelectTest, DriverQueriesOfTheVirtualSchema) {
  // What the Python driver runs on connect, and the Node.js driver per table.
  RowsResult keyspaces = Rows("SELECT * from system_virtual_schema.keyspaces");
  EXPECT_EQ(ColumnNames(keyspaces), std::vector<std::string>{"keyspace_name"});
  EXPECT_EQ((*keyspaces.columns)[0].keyspace, "system_virtual_schema");
  EXPECT_EQ(Texts(keyspaces, 0),
            (std::vector<std::string>{"system_views", "system_virtual_schema"}));

  RowsResult tables = Rows("SELECT * from system_virtual_schema.tables");
  EXPECT_EQ(ColumnNames(tables),
            (std::vector<std::string>{"keyspace_name", "table_name", "comment"}));
  // decommission, disk_usage, flushes, gossip_info, guardrails,
  // index_builds, large_cells, large_partitions, large_rows,
  // local_read_latency, local_write_latency, model_warnings,
  // partition_stats, removenode, settings, table_latencies, table_stats,
  // view_builds, view_checks and the three of the virtual schema
  EXPECT_EQ(tables.rows.size(), 22u);

  RowsResult columns = Rows(
      "SELECT * FROM system_virtual_schema.columns where keyspace_name = 'system_views' and "
      "table_name='settings'");
  EXPECT_EQ(
      ColumnNames(columns),
      (std::vector<std::string>{"keyspace_name", "table_name", "column_name", "clustering_order",
                                "column_name_bytes", "kind", "position", "type"}));
  EXPECT_EQ(Texts(columns, 2), (std::vector<std::string>{"name", "value"}));
  EXPECT_EQ(Texts(columns, 5), (std::vector<std::string>{"partition_key", "regular"}));

  EXPECT_EQ(Texts(Rows("SELECT * FROM system_virtual_schema.keyspaces where keyspace_name = "
                       "'system_views'"),
                  0),
            std::vector<std::string>{"system_views"});
  EXPECT_TRUE(Rows("SELECT * FROM system_virtual_schema.keyspaces WHERE keyspace_name = 'system'")
                  .rows.empty());
}

TEST_F(VirtualSelectTest, VirtualKeyspacesStayOutOfSystemSchema) {
  EXPECT_EQ(Rows("SELECT * FROM system_schema.keyspaces").rows.size(), 5u);
  EXPECT_TRUE(
      Rows("SELECT * FROM system_schema.tables WHERE keyspace_name = 'system_views'").rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.columns WHERE keyspace_name = "
                   "'system_virtual_schema'")
                  .rows.empty());
}

TEST_F(VirtualSelectTest, SettingsByNameAndInFull) {
  RowsResult all = Rows("SELECT * FROM system_views.settings");
  EXPECT_EQ(ColumnNames(all), (std::vector<std::string>{"name", "value"}));
  EXPECT_EQ(Texts(all, 0),
            (std::vector<std::string>{"cluster_name", "commitlog_sync", "native_transport_port",
                                      "num_tokens", "rpc_address"}));
  EXPECT_EQ(Texts(all, 1),
            (std::vector<std::string>{"Test Cluster", "periodic", "9042", "16", "<null>"}));
  EXPECT_EQ(Texts(Rows("SELECT value FROM system_views.settings WHERE name = 'num_tokens'"), 0),
            std::vector<std::string>{"16"});
  EXPECT_EQ(Texts(Rows("SELECT name FROM system_views.settings WHERE name IN ('num_tokens', "
                       "'cluster_name', 'nosuch')"),
                  0),
            (std::vector<std::string>{"cluster_name", "num_tokens"}));
}

TEST_F(VirtualSelectTest, FilteringRulesAreThoseOfOtherTables) {
  // Cassandra 4.1 asks virtual tables for ALLOW FILTERING like any table (5.0
  // added it implicitly).
  EXPECT_EQ(std::string(Error("SELECT * FROM system_views.settings WHERE value = '16'").what()),
            kRequiresAllowFilteringMessage);
  EXPECT_EQ(
      Texts(Rows("SELECT name FROM system_views.settings WHERE value = '16' ALLOW FILTERING"), 0),
      std::vector<std::string>{"num_tokens"});
  EXPECT_EQ(
      std::string(Error("SELECT * FROM system_virtual_schema.columns WHERE table_name = 'settings'")
                      .what()),
      kRequiresAllowFilteringMessage);
}

TEST_F(VirtualSelectTest, PagingFollowsTheKeyOrder) {
  int pages = 0;
  std::vector<schema::Row> rows = AllPages("SELECT name FROM system_views.settings", 2, pages);
  EXPECT_EQ(pages, 3);
  std::vector<std::string> names;
  for (const auto& row : rows) names.push_back(row.at(0).value_or("<null>"));
  EXPECT_EQ(names,
            (std::vector<std::string>{"cluster_name", "commitlog_sync", "native_transport_port",
                                      "num_tokens", "rpc_address"}));
  std::vector<schema::Row> columns =
      AllPages("SELECT * FROM system_virtual_schema.columns", 3, pages);
  EXPECT_EQ(columns.size(), Rows("SELECT * FROM system_virtual_schema.columns").rows.size());
}

TEST_F(VirtualSelectTest, UseAVirtualKeyspace) {
  Result use = processor_.Process("USE system_views", {}, client_);
  ASSERT_TRUE(std::holds_alternative<SetKeyspaceResult>(use));
  EXPECT_EQ(client_.keyspace, "system_views");
  EXPECT_EQ(Rows("SELECT * FROM settings").rows.size(), 5u);
  EXPECT_EQ(std::string(Error("SELECT * FROM nosuch").what()), "table nosuch does not exist");
}

TEST_F(VirtualSelectTest, DescribeShowsThemAsVirtual) {
  RowsResult keyspaces = Rows("DESCRIBE KEYSPACES");
  std::vector<std::string> names = Texts(keyspaces, 2);
  EXPECT_NE(std::find(names.begin(), names.end(), "system_views"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "system_virtual_schema"), names.end());

  RowsResult settings = Rows("DESCRIBE TABLE system_views.settings");
  ASSERT_EQ(settings.rows.size(), 1u);
  EXPECT_EQ(settings.rows[0].at(3),
            "/*\nWarning: Table system_views.settings is a virtual table and cannot be recreated "
            "with CQL.\nStructure, for reference:\nVIRTUAL TABLE system_views.settings (\n    name "
            "text PRIMARY KEY,\n    value text\n) WITH comment = 'current settings';\n*/");
}

}  // namespace
}  // namespace sibyl::query
