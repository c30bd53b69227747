#include "schema/virtual_keyspaces.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "schema/virtual_tables.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class VirtualKeyspacesTest : public ::testing::Test {
 protected:
  VirtualKeyspacesTest() : schema_(MakeInitialSchema()), tables_(VirtualTables::SystemTables()) {}

  std::vector<Row> Read(std::string_view keyspace, std::string_view table) {
    const VirtualTable* producer = tables_.Find(keyspace, table);
    EXPECT_NE(producer, nullptr) << keyspace << "." << table;
    if (producer == nullptr) return {};
    return producer->Rows(*schema_->FindTable(keyspace, table), {*schema_, node_});
  }

  // Column `column` of every row of keyspace.table, "<null>" for null.
  std::vector<std::string> Column(std::string_view keyspace, std::string_view table,
                                  std::string_view column) {
    const int index = schema_->FindTable(keyspace, table)->ColumnIndex(column);
    EXPECT_GE(index, 0) << column;
    std::vector<std::string> values;
    for (const Row& row : Read(keyspace, table)) {
      values.push_back(row.at(static_cast<size_t>(index)).value_or("<null>"));
    }
    return values;
  }

  SchemaPtr schema_;
  VirtualTables tables_;
  LocalNodeInfo node_;
};

TEST_F(VirtualKeyspacesTest, DefinitionsAreCassandras) {
  const KeyspaceMetadata* views = FindVirtualKeyspace("system_views");
  const KeyspaceMetadata* virtual_schema = FindVirtualKeyspace("system_virtual_schema");
  ASSERT_NE(views, nullptr);
  ASSERT_NE(virtual_schema, nullptr);
  EXPECT_EQ(FindVirtualKeyspace("system"), nullptr);
  EXPECT_TRUE(views->is_virtual);
  EXPECT_TRUE(virtual_schema->is_virtual);
  EXPECT_TRUE(IsVirtualKeyspace("system_views"));
  EXPECT_TRUE(IsVirtualKeyspace("System_Virtual_Schema"));
  EXPECT_EQ(FindVirtualKeyspace("System_Views"), nullptr);  // names themselves are exact
  EXPECT_FALSE(IsVirtualKeyspace("system_schema"));

  const TableMetadata& columns = *virtual_schema->tables.at("columns");
  EXPECT_TRUE(columns.is_virtual);
  EXPECT_EQ(columns.params.comment, "virtual column definitions");
  EXPECT_EQ(columns.id, SystemTableId("system_virtual_schema", "columns"));
  std::vector<std::string> names;
  for (const ColumnMetadata& column : columns.columns) {
    names.push_back(column.name + " " + column.type->ToCql() + " " + ColumnKindName(column.kind));
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "keyspace_name text partition_key", "table_name text clustering",
                       "column_name text clustering", "clustering_order text regular",
                       "column_name_bytes blob regular", "kind text regular",
                       "position int regular", "type text regular"}));

  const TableMetadata& settings = *views->tables.at("settings");
  EXPECT_EQ(settings.params.comment, "current settings");
  ASSERT_EQ(settings.columns.size(), 2u);
  EXPECT_EQ(settings.columns[0].name, "name");
  EXPECT_EQ(settings.columns[0].kind, ColumnKind::kPartitionKey);
  EXPECT_EQ(settings.columns[1].name, "value");
}

TEST_F(VirtualKeyspacesTest, SchemaFindsThemButNeverListsThem) {
  EXPECT_NE(schema_->FindKeyspace("system_views"), nullptr);
  EXPECT_NE(schema_->FindTable("system_virtual_schema", "tables"), nullptr);
  EXPECT_EQ(schema_->FindTable("system_virtual_schema", "nosuch"), nullptr);
  EXPECT_EQ(schema_->keyspaces().count("system_views"), 0u);
  EXPECT_EQ(schema_->keyspaces().count("system_virtual_schema"), 0u);

  for (const std::string& name : Column("system_schema", "keyspaces", "keyspace_name")) {
    EXPECT_FALSE(IsVirtualKeyspace(name)) << name;
  }
  for (const std::string& name : Column("system_schema", "columns", "keyspace_name")) {
    EXPECT_FALSE(IsVirtualKeyspace(name)) << name;
  }
}

TEST_F(VirtualKeyspacesTest, KeyspacesListsTheVirtualKeyspacesByName) {
  // LocalPartitioner order: by the key's UTF-8 bytes, not by token.
  EXPECT_EQ(Column("system_virtual_schema", "keyspaces", "keyspace_name"),
            (std::vector<std::string>{"system_views", "system_virtual_schema"}));
}

TEST_F(VirtualKeyspacesTest, TablesListsEveryVirtualTableWithItsComment) {
  EXPECT_EQ(Column("system_virtual_schema", "tables", "table_name"),
            (std::vector<std::string>{"decommission",
                                      "disk_usage",
                                      "flushes",
                                      "gossip_info",
                                      "guardrails",
                                      "index_builds",
                                      "large_cells",
                                      "large_partitions",
                                      "large_rows",
                                      "local_read_latency",
                                      "local_write_latency",
                                      "model_warnings",
                                      "partition_stats",
                                      "removenode",
                                      "settings",
                                      "table_latencies",
                                      "table_stats",
                                      "view_builds",
                                      "view_checks",
                                      "columns",
                                      "keyspaces",
                                      "tables"}));
  std::vector<std::string> keyspaces(19, "system_views");
  keyspaces.resize(22, "system_virtual_schema");
  EXPECT_EQ(Column("system_virtual_schema", "tables", "keyspace_name"), keyspaces);
  EXPECT_EQ(Column("system_virtual_schema", "tables", "comment"),
            (std::vector<std::string>{
                "this node's state in the ring; INSERT its host_id to decommission it",
                "",
                "memtable flushes asked on this node",
                "lists the gossip information for the cluster",
                "guardrails and their live settings",
                "secondary index builds on this node",
                "cells and collections the large-data ledger names, largest first",
                "partitions the large-data ledger names, largest first",
                "rows the large-data ledger names, largest first",
                "",
                "",
                "rules of the data model that statements broke on this node",
                "distributions of each table's partitions",
                "the removal of a dead node this node coordinates; INSERT a dead node's host_id "
                "to remove it",
                "current settings",
                "local read and write latencies of each table on this node",
                "storage figures of each table on this node",
                "materialized view builds on this node",
                "checks of materialized views against their base tables",
                "virtual column definitions",
                "virtual keyspace definitions",
                "virtual table definitions"}));
}

TEST_F(VirtualKeyspacesTest, ColumnsDescribesEveryColumnAsSchemaColumnsWould) {
  const TableMetadata& table = *schema_->FindTable("system_virtual_schema", "columns");
  const std::set<std::string> kStorageTables = {"disk_usage",         "flushes",
                                                "local_read_latency", "local_write_latency",
                                                "table_latencies",    "table_stats"};
  const std::set<std::string> kLedgerTables = {"large_cells", "large_partitions", "large_rows",
                                               "model_warnings", "partition_stats"};
  std::vector<std::string> described;
  std::vector<std::string> storage_described;
  std::vector<std::string> ledger_described;
  for (const Row& row : Read("system_virtual_schema", "columns")) {
    auto text = [&](const char* column) {
      return row.at(static_cast<size_t>(table.ColumnIndex(column))).value_or("<null>");
    };
    const OptBytes& position = row.at(static_cast<size_t>(table.ColumnIndex("position")));
    ASSERT_TRUE(position.has_value());
    EXPECT_EQ(text("column_name_bytes"), text("column_name"));
    // The storage engine's tables (table_metric_tables.h, flushes_table.h)
    // and the large-data ledger's (large_data_tables.h, model_warnings_table.h)
    // are checked below.
    std::vector<std::string>& list = kStorageTables.contains(text("table_name")) ? storage_described
                                     : kLedgerTables.contains(text("table_name")) ? ledger_described
                                                                                  : described;
    list.push_back(text("keyspace_name") + "." + text("table_name") + "." + text("column_name") +
                   " " + text("kind") + " " + std::to_string(types::DecodeInt(*position)) + " " +
                   text("clustering_order") + " " + text("type"));
  }
  EXPECT_EQ(described, (std::vector<std::string>{
                           "system_views.decommission.force regular -1 none boolean",
                           "system_views.decommission.host_id partition_key 0 none uuid",
                           "system_views.decommission.state regular -1 none text",
                           "system_views.gossip_info.address partition_key 0 none inet",
                           "system_views.gossip_info.dc regular -1 none text",
                           "system_views.gossip_info.disk_usage regular -1 none text",
                           "system_views.gossip_info.generation regular -1 none int",
                           "system_views.gossip_info.heartbeat regular -1 none int",
                           "system_views.gossip_info.host_id regular -1 none text",
                           "system_views.gossip_info.hostname regular -1 none text",
                           "system_views.gossip_info.internal_address_and_port regular -1 none "
                           "text",
                           "system_views.gossip_info.liveness regular -1 none text",
                           "system_views.gossip_info.load regular -1 none text",
                           "system_views.gossip_info.native_address_and_port regular -1 none text",
                           "system_views.gossip_info.port clustering 0 asc int",
                           "system_views.gossip_info.rack regular -1 none text",
                           "system_views.gossip_info.release_version regular -1 none text",
                           "system_views.gossip_info.schema regular -1 none text",
                           "system_views.gossip_info.status regular -1 none text",
                           "system_views.gossip_info.tokens regular -1 none frozen<set<text>>",
                           "system_views.guardrails.disallowed_values regular -1 none text",
                           "system_views.guardrails.enabled regular -1 none boolean",
                           "system_views.guardrails.enforced regular -1 none text",
                           "system_views.guardrails.fail_threshold regular -1 none text",
                           "system_views.guardrails.ignored_values regular -1 none text",
                           "system_views.guardrails.kind regular -1 none text",
                           "system_views.guardrails.max_disk_size regular -1 none text",
                           "system_views.guardrails.name partition_key 0 none text",
                           "system_views.guardrails.warn_threshold regular -1 none text",
                           "system_views.guardrails.warned regular -1 none boolean",
                           "system_views.guardrails.warned_values regular -1 none text",
                           "system_views.index_builds.failure regular -1 none text",
                           "system_views.index_builds.index_name clustering 1 asc text",
                           "system_views.index_builds.keyspace_name partition_key 0 none text",
                           "system_views.index_builds.last_token regular -1 none bigint",
                           "system_views.index_builds.partitions_built regular -1 none bigint",
                           "system_views.index_builds.status regular -1 none text",
                           "system_views.index_builds.table_name clustering 0 asc text",
                           "system_views.removenode.first_token regular -1 none text",
                           "system_views.removenode.force regular -1 none boolean",
                           "system_views.removenode.host_id partition_key 0 none uuid",
                           "system_views.removenode.waiting_for regular -1 none frozen<list<text>>",
                           "system_views.settings.name partition_key 0 none text",
                           "system_views.settings.value regular -1 none text",
                           "system_views.view_builds.base_table_name regular -1 none text",
                           "system_views.view_builds.failure regular -1 none text",
                           "system_views.view_builds.keyspace_name partition_key 0 none text",
                           "system_views.view_builds.last_token regular -1 none bigint",
                           "system_views.view_builds.partitions_built regular -1 none bigint",
                           "system_views.view_builds.status regular -1 none text",
                           "system_views.view_builds.view_name clustering 0 asc text",
                           "system_views.view_checks.checked_at regular -1 none timestamp",
                           "system_views.view_checks.different regular -1 none bigint",
                           "system_views.view_checks.keyspace_name partition_key 0 none text",
                           "system_views.view_checks.missing regular -1 none bigint",
                           "system_views.view_checks.repair regular -1 none boolean",
                           "system_views.view_checks.repaired regular -1 none bigint",
                           "system_views.view_checks.rows_expected regular -1 none bigint",
                           "system_views.view_checks.unexpected regular -1 none bigint",
                           "system_views.view_checks.view_name clustering 0 asc text",
                           "system_virtual_schema.columns.clustering_order regular -1 none text",
                           "system_virtual_schema.columns.column_name clustering 1 asc text",
                           "system_virtual_schema.columns.column_name_bytes regular -1 none blob",
                           "system_virtual_schema.columns.keyspace_name partition_key 0 none text",
                           "system_virtual_schema.columns.kind regular -1 none text",
                           "system_virtual_schema.columns.position regular -1 none int",
                           "system_virtual_schema.columns.table_name clustering 0 asc text",
                           "system_virtual_schema.columns.type regular -1 none text",
                           "system_virtual_schema.keyspaces.keyspace_name partition_key 0 none "
                           "text",
                           "system_virtual_schema.tables.comment regular -1 none text",
                           "system_virtual_schema.tables.keyspace_name partition_key 0 none text",
                           "system_virtual_schema.tables.table_name clustering 0 asc text",
                       }));
  EXPECT_EQ(storage_described,
            (std::vector<std::string>{
                "system_views.disk_usage.keyspace_name partition_key 0 none text",
                "system_views.disk_usage.mebibytes regular -1 none bigint",
                "system_views.disk_usage.table_name partition_key 1 none text",
                "system_views.flushes.flushed_at regular -1 none timestamp",
                "system_views.flushes.keyspace_name partition_key 0 none text",
                "system_views.flushes.table_name clustering 0 asc text",
                "system_views.local_read_latency.50th_ms regular -1 none double",
                "system_views.local_read_latency.99th_ms regular -1 none double",
                "system_views.local_read_latency.count regular -1 none bigint",
                "system_views.local_read_latency.keyspace_name partition_key 0 none text",
                "system_views.local_read_latency.max_ms regular -1 none double",
                "system_views.local_read_latency.per_second regular -1 none double",
                "system_views.local_read_latency.table_name partition_key 1 none text",
                "system_views.local_write_latency.50th_ms regular -1 none double",
                "system_views.local_write_latency.99th_ms regular -1 none double",
                "system_views.local_write_latency.count regular -1 none bigint",
                "system_views.local_write_latency.keyspace_name partition_key 0 none text",
                "system_views.local_write_latency.max_ms regular -1 none double",
                "system_views.local_write_latency.per_second regular -1 none double",
                "system_views.local_write_latency.table_name partition_key 1 none text",
                "system_views.table_latencies.count regular -1 none bigint",
                "system_views.table_latencies.keyspace_name partition_key 0 none text",
                "system_views.table_latencies.max regular -1 none bigint",
                "system_views.table_latencies.min regular -1 none bigint",
                "system_views.table_latencies.operation clustering 1 asc text",
                "system_views.table_latencies.p50 regular -1 none bigint",
                "system_views.table_latencies.p75 regular -1 none bigint",
                "system_views.table_latencies.p95 regular -1 none bigint",
                "system_views.table_latencies.p98 regular -1 none bigint",
                "system_views.table_latencies.p99 regular -1 none bigint",
                "system_views.table_latencies.table_name clustering 0 asc text",
                "system_views.table_stats.bloom_filter_bytes regular -1 none bigint",
                "system_views.table_stats.compressed_bytes regular -1 none bigint",
                "system_views.table_stats.keyspace_name partition_key 0 none text",
                "system_views.table_stats.kind regular -1 none text",
                "system_views.table_stats.live_bytes regular -1 none bigint",
                "system_views.table_stats.memtable_bytes regular -1 none bigint",
                "system_views.table_stats.memtable_entries regular -1 none bigint",
                "system_views.table_stats.pending_flushes regular -1 none bigint",
                "system_views.table_stats.read_count regular -1 none bigint",
                "system_views.table_stats.read_total_micros regular -1 none bigint",
                "system_views.table_stats.sstables regular -1 none bigint",
                "system_views.table_stats.table_name clustering 0 asc text",
                "system_views.table_stats.total_bytes regular -1 none bigint",
                "system_views.table_stats.uncompressed_bytes regular -1 none bigint",
                "system_views.table_stats.write_count regular -1 none bigint",
                "system_views.table_stats.write_total_micros regular -1 none bigint",
            }));
  EXPECT_EQ(ledger_described,
            (std::vector<std::string>{
                "system_views.large_cells.cell_size clustering 0 desc bigint",
                "system_views.large_cells.clustering_key clustering 2 asc text",
                "system_views.large_cells.collection_elements regular -1 none bigint",
                "system_views.large_cells.column_name clustering 3 asc text",
                "system_views.large_cells.keyspace_name partition_key 0 none text",
                "system_views.large_cells.last_seen regular -1 none timestamp",
                "system_views.large_cells.partition_key clustering 1 asc text",
                "system_views.large_cells.rule regular -1 none text",
                "system_views.large_cells.table_name partition_key 1 none text",
                "system_views.large_partitions.cells regular -1 none bigint",
                "system_views.large_partitions.keyspace_name partition_key 0 none text",
                "system_views.large_partitions.largest_collection_items regular -1 none bigint",
                "system_views.large_partitions.largest_row_size regular -1 none bigint",
                "system_views.large_partitions.last_seen regular -1 none timestamp",
                "system_views.large_partitions.partition_key clustering 1 asc text",
                "system_views.large_partitions.partition_size clustering 0 desc bigint",
                "system_views.large_partitions.rows regular -1 none bigint",
                "system_views.large_partitions.rule regular -1 none text",
                "system_views.large_partitions.table_name partition_key 1 none text",
                "system_views.large_partitions.tombstones regular -1 none bigint",
                "system_views.large_rows.cells regular -1 none bigint",
                "system_views.large_rows.clustering_key clustering 2 asc text",
                "system_views.large_rows.keyspace_name partition_key 0 none text",
                "system_views.large_rows.last_seen regular -1 none timestamp",
                "system_views.large_rows.partition_key clustering 1 asc text",
                "system_views.large_rows.row_size clustering 0 desc bigint",
                "system_views.large_rows.rule regular -1 none text",
                "system_views.large_rows.table_name partition_key 1 none text",
                "system_views.model_warnings.count regular -1 none bigint",
                "system_views.model_warnings.example regular -1 none text",
                "system_views.model_warnings.first_seen regular -1 none timestamp",
                "system_views.model_warnings.keyspace_name clustering 0 asc text",
                "system_views.model_warnings.last_seen regular -1 none timestamp",
                "system_views.model_warnings.last_warning regular -1 none text",
                "system_views.model_warnings.rule partition_key 0 none text",
                "system_views.model_warnings.table_name clustering 1 asc text",
                "system_views.partition_stats.keyspace_name partition_key 0 none text",
                "system_views.partition_stats.max regular -1 none bigint",
                "system_views.partition_stats.measure clustering 1 asc text",
                "system_views.partition_stats.min regular -1 none bigint",
                "system_views.partition_stats.p50 regular -1 none bigint",
                "system_views.partition_stats.p75 regular -1 none bigint",
                "system_views.partition_stats.p95 regular -1 none bigint",
                "system_views.partition_stats.p98 regular -1 none bigint",
                "system_views.partition_stats.p99 regular -1 none bigint",
                "system_views.partition_stats.partitions regular -1 none bigint",
                "system_views.partition_stats.table_name clustering 0 asc text",
            }));
}

TEST_F(VirtualKeyspacesTest, SettingsListsTheNodesSettingsByName) {
  EXPECT_TRUE(Read("system_views", "settings").empty());
  node_.settings = {{"num_tokens", "16"}, {"cluster_name", "Test Cluster"}, {"rpc_address", {}}};
  EXPECT_EQ(Column("system_views", "settings", "name"),
            (std::vector<std::string>{"cluster_name", "num_tokens", "rpc_address"}));
  EXPECT_EQ(Column("system_views", "settings", "value"),
            (std::vector<std::string>{"Test Cluster", "16", "<null>"}));
}

TEST(VirtualRowOrderTest, PartitionsSortByKeyValueNotToken) {
  TablePtr table =
      TableBuilder("ks", "t").PartitionKey("k", "int").Clustering("c", "text").Virtual().Build();
  auto row = [](int k, const char* c) { return Row{types::EncodeInt(k), types::EncodeText(c)}; };
  std::vector<Row> rows{row(300, "b"), row(-1, "a"), row(5, "z"), row(300, "a"), row(2, "x")};
  SortRows(*table, rows);
  EXPECT_EQ(rows, (std::vector<Row>{row(-1, "a"), row(2, "x"), row(5, "z"), row(300, "a"),
                                    row(300, "b")}));
  // Positions rebuilt from a routing key (as paging does) compare the same way.
  EXPECT_LT(ComparePartitions(*table, PartitionAt(*table, types::EncodeInt(-1)),
                              PartitionOf(*table, rows[1])),
            0);
  EXPECT_EQ(ComparePartitions(*table, PartitionAt(*table, types::EncodeInt(300)),
                              PartitionOf(*table, rows[4])),
            0);
}

TEST(VirtualRowOrderTest, CompositeKeysSortComponentByComponent) {
  TablePtr table =
      TableBuilder("ks", "t").PartitionKey("a", "text").PartitionKey("b", "int").Virtual().Build();
  auto row = [](const char* a, int b) { return Row{types::EncodeText(a), types::EncodeInt(b)}; };
  // The routing keys' bytes would put "b" (shorter length prefix) before "aa".
  std::vector<Row> rows{row("b", 1), row("aa", 7), row("aa", -3), row("a", 9)};
  SortRows(*table, rows);
  EXPECT_EQ(rows, (std::vector<Row>{row("a", 9), row("aa", -3), row("aa", 7), row("b", 1)}));
}

}  // namespace
}  // namespace sibyl::schema
