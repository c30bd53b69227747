// The `system_schema` keyspace of Cassandra 4.1 (schema/SchemaKeyspace.java).
// Every table is partitioned by keyspace_name, has gc_grace_seconds of seven
// days, memtable_flush_period_in_ms of one hour and its description as
// comment. 4.1 added the `memtable` column to tables and views; later
// versions' additions (allow_auto_snapshot, incremental_backups,
// column_masks) are deliberately absent.

#include <memory>

#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"

namespace sibyl::schema {
namespace {

TableBuilder SchemaTable(const char* name, const char* comment) {
  TableBuilder builder(std::string(kSchemaKeyspace), name);
  builder.SystemTableId().Comment(comment);
  builder.params().gc_grace_seconds = kSevenDaysSeconds;
  builder.params().memtable_flush_period_in_ms = kOneHourMillis;
  builder.PartitionKey("keyspace_name", "text");
  return builder;
}

// The table options shared by `tables` and `views`.
TableBuilder& WithTableOptionColumns(TableBuilder& builder) {
  return builder.Column("additional_write_policy", "text")
      .Column("bloom_filter_fp_chance", "double")
      .Column("caching", "frozen<map<text, text>>")
      .Column("cdc", "boolean")
      .Column("comment", "text")
      .Column("compaction", "frozen<map<text, text>>")
      .Column("compression", "frozen<map<text, text>>")
      .Column("crc_check_chance", "double")
      .Column("dclocal_read_repair_chance", "double")
      .Column("default_time_to_live", "int")
      .Column("extensions", "frozen<map<text, blob>>")
      .Column("gc_grace_seconds", "int")
      .Column("id", "uuid")
      .Column("max_index_interval", "int")
      .Column("memtable", "text")
      .Column("memtable_flush_period_in_ms", "int")
      .Column("min_index_interval", "int")
      .Column("read_repair", "text")
      .Column("read_repair_chance", "double")
      .Column("speculative_retry", "text");
}

TablePtr Keyspaces() {
  return SchemaTable("keyspaces", "keyspace definitions")
      .Column("durable_writes", "boolean")
      .Column("replication", "frozen<map<text, text>>")
      .Build();
}

TablePtr Tables() {
  auto builder = SchemaTable("tables", "table definitions");
  builder.Clustering("table_name", "text").Column("flags", "frozen<set<text>>");
  return WithTableOptionColumns(builder).Build();
}

TablePtr Columns() {
  return SchemaTable("columns", "column definitions")
      .Clustering("table_name", "text")
      .Clustering("column_name", "text")
      .Column("clustering_order", "text")
      .Column("column_name_bytes", "blob")
      .Column("kind", "text")
      .Column("position", "int")
      .Column("type", "text")
      .Build();
}

TablePtr DroppedColumns() {
  return SchemaTable("dropped_columns", "dropped column registry")
      .Clustering("table_name", "text")
      .Clustering("column_name", "text")
      .Column("dropped_time", "timestamp")
      .Column("kind", "text")
      .Column("type", "text")
      .Build();
}

TablePtr Triggers() {
  return SchemaTable("triggers", "trigger definitions")
      .Clustering("table_name", "text")
      .Clustering("trigger_name", "text")
      .Column("options", "frozen<map<text, text>>")
      .Build();
}

TablePtr Views() {
  auto builder = SchemaTable("views", "view definitions");
  builder.Clustering("view_name", "text")
      .Column("base_table_id", "uuid")
      .Column("base_table_name", "text")
      .Column("include_all_columns", "boolean")
      .Column("where_clause", "text");
  return WithTableOptionColumns(builder).Build();
}

TablePtr Types() {
  return SchemaTable("types", "user defined type definitions")
      .Clustering("type_name", "text")
      .Column("field_names", "frozen<list<text>>")
      .Column("field_types", "frozen<list<text>>")
      .Build();
}

TablePtr Functions() {
  return SchemaTable("functions", "user defined function definitions")
      .Clustering("function_name", "text")
      .Clustering("argument_types", "frozen<list<text>>")
      .Column("argument_names", "frozen<list<text>>")
      .Column("body", "text")
      .Column("called_on_null_input", "boolean")
      .Column("language", "text")
      .Column("return_type", "text")
      .Build();
}

TablePtr Aggregates() {
  return SchemaTable("aggregates", "user defined aggregate definitions")
      .Clustering("aggregate_name", "text")
      .Clustering("argument_types", "frozen<list<text>>")
      .Column("final_func", "text")
      .Column("initcond", "text")
      .Column("return_type", "text")
      .Column("state_func", "text")
      .Column("state_type", "text")
      .Build();
}

TablePtr Indexes() {
  return SchemaTable("indexes", "secondary index definitions")
      .Clustering("table_name", "text")
      .Clustering("index_name", "text")
      .Column("kind", "text")
      .Column("options", "frozen<map<text, text>>")
      .Build();
}

}  // namespace

KeyspacePtr MakeSchemaKeyspace() {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = std::string(kSchemaKeyspace);
  keyspace->replication = {{"class", kLocalStrategy}};
  for (TablePtr table : {Keyspaces(), Tables(), Columns(), DroppedColumns(), Triggers(), Views(),
                         Types(), Functions(), Aggregates(), Indexes()}) {
    keyspace->tables.emplace(table->name, table);
  }
  return keyspace;
}

}  // namespace sibyl::schema
