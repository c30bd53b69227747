#include "schema/virtual_keyspaces.h"

#include <cctype>
#include <memory>
#include <string>

#include "schema/table_builder.h"

namespace sibyl::schema {
namespace {

// Cassandra builds virtual tables without an explicit id; 4.1 then derives a
// deterministic one from the names (TableId.unsafeDeterministic), the same
// derivation as SystemTableId.
TableBuilder VirtualTableBuilder(std::string_view keyspace, const char* name, const char* comment) {
  TableBuilder builder{std::string(keyspace), name};
  builder.SystemTableId().Comment(comment).Virtual();
  return builder;
}

KeyspacePtr MakeVirtualSchemaKeyspace() {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = std::string(kVirtualSchemaKeyspace);
  keyspace->is_virtual = true;
  for (TablePtr table : {
           VirtualTableBuilder(kVirtualSchemaKeyspace, "keyspaces", "virtual keyspace definitions")
               .PartitionKey("keyspace_name", "text")
               .Build(),
           VirtualTableBuilder(kVirtualSchemaKeyspace, "tables", "virtual table definitions")
               .PartitionKey("keyspace_name", "text")
               .Clustering("table_name", "text")
               .Column("comment", "text")
               .Build(),
           VirtualTableBuilder(kVirtualSchemaKeyspace, "columns", "virtual column definitions")
               .PartitionKey("keyspace_name", "text")
               .Clustering("table_name", "text")
               .Clustering("column_name", "text")
               .Column("clustering_order", "text")
               .Column("column_name_bytes", "blob")
               .Column("kind", "text")
               .Column("position", "int")
               .Column("type", "text")
               .Build(),
       }) {
    keyspace->tables.emplace(table->name, table);
  }
  return keyspace;
}

// Cassandra 4.1's latency tables (TableMetricTables): keyed by keyspace and
// table together.
TablePtr LatencyTable(const char* name, const char* comment) {
  return VirtualTableBuilder(kViewsKeyspace, name, comment)
      .PartitionKey("keyspace_name", "text")
      .PartitionKey("table_name", "text")
      .Column("count", "bigint")
      .Column("50th_ms", "double")
      .Column("99th_ms", "double")
      .Column("max_ms", "double")
      .Column("per_second", "double")
      .Build();
}

// A distribution's columns, bigints: how many values (`count`), then min,
// p50, p75, p95, p98, p99 and max.
TableBuilder& DistributionColumns(TableBuilder& builder, const char* count) {
  builder.Column(count, "bigint");
  for (const char* column : {"min", "p50", "p75", "p95", "p98", "p99", "max"}) {
    builder.Column(column, "bigint");
  }
  return builder;
}

// The storage engine's figures per table (table_metric_tables.h) and the
// flushes asked over CQL (flushes_table.h).
void AddStorageTables(KeyspaceMetadata& keyspace) {
  for (TablePtr table : {
           LatencyTable("local_read_latency", ""),
           LatencyTable("local_write_latency", ""),
           VirtualTableBuilder(kViewsKeyspace, "disk_usage", "")
               .PartitionKey("keyspace_name", "text")
               .PartitionKey("table_name", "text")
               .Column("mebibytes", "bigint")
               .Build(),
           // Sibyl's own: what `sibyl admin tablestats` shows.
           VirtualTableBuilder(kViewsKeyspace, "table_stats",
                               "storage figures of each table on this node")
               .PartitionKey("keyspace_name", "text")
               .Clustering("table_name", "text")
               .Column("kind", "text")
               .Column("sstables", "bigint")
               .Column("live_bytes", "bigint")
               .Column("total_bytes", "bigint")
               .Column("compressed_bytes", "bigint")
               .Column("uncompressed_bytes", "bigint")
               .Column("memtable_entries", "bigint")
               .Column("memtable_bytes", "bigint")
               .Column("pending_flushes", "bigint")
               .Column("bloom_filter_bytes", "bigint")
               .Column("read_count", "bigint")
               .Column("read_total_micros", "bigint")
               .Column("write_count", "bigint")
               .Column("write_total_micros", "bigint")
               .Build(),
           // Sibyl's own: what `sibyl admin tablehistograms` shows of latencies.
           DistributionColumns(
               VirtualTableBuilder(kViewsKeyspace, "table_latencies",
                                   "local read and write latencies of each table on this node")
                   .PartitionKey("keyspace_name", "text")
                   .Clustering("table_name", "text")
                   .Clustering("operation", "text"),
               "count")
               .Build(),
           // Sibyl's own: this node's state in the ring, and leaving it by INSERT.
           VirtualTableBuilder(
               kViewsKeyspace, "decommission",
               "this node's state in the ring; INSERT its host_id to decommission it")
               .PartitionKey("host_id", "uuid")
               .Column("state", "text")
               .Column("force", "boolean")
               .Build(),
           // Sibyl's own: removenode by INSERT, and the removal under way on this node.
           VirtualTableBuilder(kViewsKeyspace, "removenode",
                               "the removal of a dead node this node coordinates; INSERT a dead "
                               "node's host_id to remove it")
               .PartitionKey("host_id", "uuid")
               .Column("first_token", "text")
               .Column("waiting_for", "frozen<list<text>>")
               .Column("force", "boolean")
               .Build(),
           // Sibyl's own: flushes asked by INSERT.
           VirtualTableBuilder(kViewsKeyspace, "flushes", "memtable flushes asked on this node")
               .PartitionKey("keyspace_name", "text")
               .Clustering("table_name", "text")
               .Column("flushed_at", "timestamp")
               .Build(),
       }) {
    keyspace.tables.emplace(table->name, table);
  }
}

// Sibyl's own: the large-data ledger's views (large_data_tables.h),
// ScyllaDB's system.large_* without the SSTable's name, and the rules
// statements broke (model_warnings_table.h).
void AddLargeDataTables(KeyspaceMetadata& keyspace) {
  for (TablePtr table : {
           VirtualTableBuilder(kViewsKeyspace, "large_partitions",
                               "partitions the large-data ledger names, largest first")
               .PartitionKey("keyspace_name", "text")
               .PartitionKey("table_name", "text")
               .Clustering("partition_size", "bigint", ClusteringOrder::kDesc)
               .Clustering("partition_key", "text")
               .Column("rows", "bigint")
               .Column("cells", "bigint")
               .Column("tombstones", "bigint")
               .Column("largest_row_size", "bigint")
               .Column("largest_collection_items", "bigint")
               .Column("rule", "text")
               .Column("last_seen", "timestamp")
               .Build(),
           VirtualTableBuilder(kViewsKeyspace, "large_rows",
                               "rows the large-data ledger names, largest first")
               .PartitionKey("keyspace_name", "text")
               .PartitionKey("table_name", "text")
               .Clustering("row_size", "bigint", ClusteringOrder::kDesc)
               .Clustering("partition_key", "text")
               .Clustering("clustering_key", "text")
               .Column("cells", "bigint")
               .Column("rule", "text")
               .Column("last_seen", "timestamp")
               .Build(),
           VirtualTableBuilder(kViewsKeyspace, "large_cells",
                               "cells and collections the large-data ledger names, largest first")
               .PartitionKey("keyspace_name", "text")
               .PartitionKey("table_name", "text")
               .Clustering("cell_size", "bigint", ClusteringOrder::kDesc)
               .Clustering("partition_key", "text")
               .Clustering("clustering_key", "text")
               .Clustering("column_name", "text")
               .Column("collection_elements", "bigint")
               .Column("rule", "text")
               .Column("last_seen", "timestamp")
               .Build(),
           DistributionColumns(VirtualTableBuilder(kViewsKeyspace, "partition_stats",
                                                   "distributions of each table's partitions")
                                   .PartitionKey("keyspace_name", "text")
                                   .Clustering("table_name", "text")
                                   .Clustering("measure", "text"),
                               "partitions")
               .Build(),
           // Sibyl's own: the rules statements broke (model_warnings_table.h).
           VirtualTableBuilder(kViewsKeyspace, "model_warnings",
                               "rules of the data model that statements broke on this node")
               .PartitionKey("rule", "text")
               .Clustering("keyspace_name", "text")
               .Clustering("table_name", "text")
               .Column("count", "bigint")
               .Column("example", "text")
               .Column("last_warning", "text")
               .Column("first_seen", "timestamp")
               .Column("last_seen", "timestamp")
               .Build(),
       }) {
    keyspace.tables.emplace(table->name, table);
  }
}

KeyspacePtr MakeViewsKeyspace() {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = std::string(kViewsKeyspace);
  keyspace->is_virtual = true;
  TablePtr settings = VirtualTableBuilder(kViewsKeyspace, "settings", "current settings")
                          .PartitionKey("name", "text")
                          .Column("value", "text")
                          .Build();
  keyspace->tables.emplace(settings->name, settings);
  // Cassandra 4.1's gossip_info has a column per gossip application state;
  // these are the states Sibyl's heartbeats and directory know, plus
  // liveness and tokens (gossip_info_table.h says why).
  TablePtr gossip_info = VirtualTableBuilder(kViewsKeyspace, "gossip_info",
                                             "lists the gossip information for the cluster")
                             .PartitionKey("address", "inet")
                             .Clustering("port", "int")
                             .Column("hostname", "text")
                             .Column("generation", "int")
                             .Column("heartbeat", "int")
                             .Column("liveness", "text")
                             .Column("status", "text")
                             .Column("load", "text")
                             .Column("disk_usage", "text")
                             .Column("schema", "text")
                             .Column("dc", "text")
                             .Column("rack", "text")
                             .Column("release_version", "text")
                             .Column("host_id", "text")
                             .Column("internal_address_and_port", "text")
                             .Column("native_address_and_port", "text")
                             .Column("tokens", "frozen<set<text>>")
                             .Build();
  keyspace->tables.emplace(gossip_info->name, gossip_info);
  // Sibyl's own: each secondary index's build on this node (index_tables.h).
  TablePtr index_builds =
      VirtualTableBuilder(kViewsKeyspace, "index_builds", "secondary index builds on this node")
          .PartitionKey("keyspace_name", "text")
          .Clustering("table_name", "text")
          .Clustering("index_name", "text")
          .Column("status", "text")
          .Column("partitions_built", "bigint")
          .Column("last_token", "bigint")
          .Column("failure", "text")
          .Build();
  keyspace->tables.emplace(index_builds->name, index_builds);
  // Sibyl's own: each materialized view's build on this node (view_build_tables.h).
  TablePtr view_builds =
      VirtualTableBuilder(kViewsKeyspace, "view_builds", "materialized view builds on this node")
          .PartitionKey("keyspace_name", "text")
          .Clustering("view_name", "text")
          .Column("base_table_name", "text")
          .Column("status", "text")
          .Column("partitions_built", "bigint")
          .Column("last_token", "bigint")
          .Column("failure", "text")
          .Build();
  keyspace->tables.emplace(view_builds->name, view_builds);
  // Sibyl's own: checks of views against their bases, asked by INSERT
  // (view_check_table.h).
  TablePtr view_checks =
      VirtualTableBuilder(kViewsKeyspace, "view_checks",
                          "checks of materialized views against their base tables")
          .PartitionKey("keyspace_name", "text")
          .Clustering("view_name", "text")
          .Column("repair", "boolean")
          .Column("checked_at", "timestamp")
          .Column("rows_expected", "bigint")
          .Column("missing", "bigint")
          .Column("unexpected", "bigint")
          .Column("different", "bigint")
          .Column("repaired", "bigint")
          .Build();
  keyspace->tables.emplace(view_checks->name, view_checks);
  // Sibyl's own: the guardrails' live settings, changed by UPDATE
  // (guardrails_table.h).
  TablePtr guardrails =
      VirtualTableBuilder(kViewsKeyspace, "guardrails", "guardrails and their live settings")
          .PartitionKey("name", "text")
          .Column("kind", "text")
          .Column("warn_threshold", "text")
          .Column("fail_threshold", "text")
          .Column("enabled", "boolean")
          .Column("warned", "boolean")
          .Column("warned_values", "text")
          .Column("ignored_values", "text")
          .Column("disallowed_values", "text")
          .Column("max_disk_size", "text")
          .Column("enforced", "text")
          .Build();
  keyspace->tables.emplace(guardrails->name, guardrails);
  AddLargeDataTables(*keyspace);
  AddStorageTables(*keyspace);
  return keyspace;
}

}  // namespace

const Schema::KeyspaceMap& VirtualKeyspaces() {
  static const Schema::KeyspaceMap keyspaces = [] {
    Schema::KeyspaceMap map;
    for (KeyspacePtr keyspace : {MakeVirtualSchemaKeyspace(), MakeViewsKeyspace()}) {
      map.emplace(keyspace->name, keyspace);
    }
    return map;
  }();
  return keyspaces;
}

const KeyspaceMetadata* FindVirtualKeyspace(std::string_view name) {
  const Schema::KeyspaceMap& keyspaces = VirtualKeyspaces();
  auto it = keyspaces.find(name);
  return it == keyspaces.end() ? nullptr : it->second.get();
}

bool IsVirtualKeyspace(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == kViewsKeyspace || lower == kVirtualSchemaKeyspace;
}

}  // namespace sibyl::schema
