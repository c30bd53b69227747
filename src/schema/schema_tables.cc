#include "schema/schema_tables.h"

#include <utility>

#include "schema/dropped_columns_table.h"
#include "schema/system_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

template <typename Map>
Bytes EncodeTextMap(const Map& map) {
  std::vector<std::pair<Bytes, Bytes>> entries;
  entries.reserve(map.size());
  // std::map iterates in byte order of its keys, the order a frozen map<text, ...> is serialized
  // in.
  for (const auto& [key, value] : map) entries.emplace_back(key, value);
  return types::EncodeMap(entries);
}

Bytes EncodeTextList(const std::vector<std::string>& elements) {
  return types::EncodeList(elements);
}

// A base for the tables listing something per keyspace.
class SchemaTable : public VirtualTable {
 public:
  explicit SchemaTable(std::string name)
      : VirtualTable(std::string(kSchemaKeyspace), std::move(name)) {}
};

class KeyspacesTable final : public SchemaTable {
 public:
  KeyspacesTable() : SchemaTable("keyspaces") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [name, keyspace] : context.schema.keyspaces()) {
      RowWriter row(table);
      row.Set("keyspace_name", types::EncodeText(name))
          .Set("durable_writes", types::EncodeBoolean(keyspace->durable_writes))
          .Set("replication", EncodeTextMap(keyspace->replication));
      rows.push_back(row.Take());
    }
  }
};

// The table option columns `tables` and `views` share, as SchemaKeyspace's
// addTableParamsToRowBuilder writes them.
void SetTableParams(RowWriter& row, const TableMetadata& described) {
  const TableParams& p = described.params;
  row.Set("additional_write_policy", types::EncodeText(p.additional_write_policy))
      .Set("bloom_filter_fp_chance", types::EncodeDouble(p.bloom_filter_fp_chance))
      .Set("caching", EncodeTextMap(p.caching))
      .Set("comment", types::EncodeText(p.comment))
      .Set("compaction", EncodeTextMap(p.compaction))
      .Set("compression", EncodeTextMap(p.compression))
      .Set("crc_check_chance", types::EncodeDouble(p.crc_check_chance))
      // No longer used; 4.1 still writes 0.0 "for drivers' sake".
      .Set("dclocal_read_repair_chance", types::EncodeDouble(0.0))
      .Set("default_time_to_live", types::EncodeInt(p.default_time_to_live))
      .Set("extensions", EncodeTextMap(p.extensions))
      .Set("gc_grace_seconds", types::EncodeInt(p.gc_grace_seconds))
      .Set("id", types::EncodeUuid(described.id))
      .Set("max_index_interval", types::EncodeInt(p.max_index_interval))
      .Set("memtable_flush_period_in_ms", types::EncodeInt(p.memtable_flush_period_in_ms))
      .Set("min_index_interval", types::EncodeInt(p.min_index_interval))
      .Set("read_repair", types::EncodeText(p.read_repair))
      .Set("read_repair_chance", types::EncodeDouble(0.0))
      .Set("speculative_retry", types::EncodeText(p.speculative_retry));
  // Cassandra leaves cdc unset unless it is enabled on the table.
  if (p.cdc) {
    row.Set("cdc", types::EncodeBoolean(true));
  } else {
    row.SetNull("cdc");
  }
  if (p.memtable) {
    row.Set("memtable", types::EncodeText(*p.memtable));
  } else {
    row.SetNull("memtable");
  }
}

// Tables only: materialized views are in `views`, as in 4.1.
class TablesTable final : public SchemaTable {
 public:
  TablesTable() : SchemaTable("tables") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : context.schema.keyspaces()) {
      for (const auto& [table_name, described] : keyspace->tables) {
        RowWriter row(table);
        row.Set("keyspace_name", types::EncodeText(keyspace_name))
            .Set("table_name", types::EncodeText(table_name))
            .Set("flags", EncodeTextList({described->flags.begin(), described->flags.end()}));
        SetTableParams(row, *described);
        rows.push_back(row.Take());
      }
    }
  }
};

// SchemaKeyspace.addViewToSchemaMutation: the view's definition and its
// table options (4.1 writes no flags for a view).
class ViewsTable final : public SchemaTable {
 public:
  ViewsTable() : SchemaTable("views") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : context.schema.keyspaces()) {
      for (const auto& [view_name, described] : keyspace->views) {
        if (!described->view) continue;
        const ViewDefinition& view = *described->view;
        RowWriter row(table);
        row.Set("keyspace_name", types::EncodeText(keyspace_name))
            .Set("view_name", types::EncodeText(view_name))
            .Set("base_table_id", types::EncodeUuid(view.base_table_id))
            .Set("base_table_name", types::EncodeText(view.base_table))
            .Set("include_all_columns", types::EncodeBoolean(view.include_all_columns))
            .Set("where_clause", types::EncodeText(view.where_clause));
        SetTableParams(row, *described);
        rows.push_back(row.Take());
      }
    }
  }
};

class ColumnsTable final : public SchemaTable {
 public:
  ColumnsTable() : SchemaTable("columns") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : context.schema.keyspaces()) {
      for (const auto& [table_name, described] : keyspace->tables) {
        AppendColumnRows(table, *described, rows);
      }
      // A view's columns are listed under its name (4.1's addViewToSchemaMutation).
      for (const auto& [view_name, described] : keyspace->views) {
        AppendColumnRows(table, *described, rows);
      }
    }
  }
};

class IndexesTable final : public SchemaTable {
 public:
  IndexesTable() : SchemaTable("indexes") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : context.schema.keyspaces()) {
      for (const auto& [table_name, described] : keyspace->tables) {
        for (const IndexMetadata& index : described->indexes) {
          RowWriter row(table);
          row.Set("keyspace_name", types::EncodeText(keyspace_name))
              .Set("table_name", types::EncodeText(table_name))
              .Set("index_name", types::EncodeText(index.name))
              .Set("kind", types::EncodeText(index.kind))
              .Set("options", EncodeTextMap(index.options));
          rows.push_back(row.Take());
        }
      }
    }
  }
};

class TypesTable final : public SchemaTable {
 public:
  TypesTable() : SchemaTable("types") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : context.schema.keyspaces()) {
      for (const auto& [type_name, type] : keyspace->user_types) {
        std::vector<std::string> field_types;
        for (const auto& field : type->params()) field_types.push_back(field->ToCql());
        RowWriter row(table);
        row.Set("keyspace_name", types::EncodeText(keyspace_name))
            .Set("type_name", types::EncodeText(type_name))
            .Set("field_names", EncodeTextList(type->field_names()))
            .Set("field_types", EncodeTextList(field_types));
        rows.push_back(row.Take());
      }
    }
  }
};

}  // namespace

void AppendColumnRows(const TableMetadata& columns_table, const TableMetadata& described,
                      std::vector<Row>& rows) {
  for (const ColumnMetadata& column : described.columns) {
    RowWriter row(columns_table);
    row.Set("keyspace_name", types::EncodeText(described.keyspace))
        .Set("table_name", types::EncodeText(described.name))
        .Set("column_name", types::EncodeText(column.name))
        .Set("clustering_order", types::EncodeText(ClusteringOrderName(column.order)))
        .Set("column_name_bytes", Bytes(column.name))
        .Set("kind", types::EncodeText(ColumnKindName(column.kind)))
        .Set("position", types::EncodeInt(column.position))
        .Set("type", types::EncodeText(column.type->ToCql()));
    rows.push_back(row.Take());
  }
}

std::vector<std::unique_ptr<VirtualTable>> MakeSchemaTables() {
  std::vector<std::unique_ptr<VirtualTable>> tables;
  tables.push_back(std::make_unique<KeyspacesTable>());
  tables.push_back(std::make_unique<TablesTable>());
  tables.push_back(std::make_unique<ColumnsTable>());
  tables.push_back(std::make_unique<IndexesTable>());
  tables.push_back(std::make_unique<TypesTable>());
  tables.push_back(std::make_unique<ViewsTable>());
  tables.push_back(MakeDroppedColumnsTable());
  return tables;
}

}  // namespace sibyl::schema
