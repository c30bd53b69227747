#pragma once
// Keyspaces, tables and columns as the schema knows them. Metadata objects
// are immutable once published in a Schema snapshot and shared by pointer.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "types/cql_type.h"
#include "types/uuid.h"

namespace sibyl::schema {

enum class ColumnKind { kPartitionKey, kClustering, kRegular, kStatic };
enum class ClusteringOrder { kNone, kAsc, kDesc };

const char* ColumnKindName(ColumnKind kind);  // "partition_key", "clustering", "regular", "static"
const char* ClusteringOrderName(ClusteringOrder o);  // "none", "asc", "desc"

struct ColumnMetadata {
  std::string name;
  types::TypePtr type;
  ColumnKind kind = ColumnKind::kRegular;
  int position = -1;  // index within the partition key or clustering key; -1 otherwise
  ClusteringOrder order = ClusteringOrder::kNone;

  bool is_primary_key() const {
    return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering;
  }
};

// Table options with Cassandra 4.1's defaults.
struct TableParams {
  std::string additional_write_policy = "99p";
  double bloom_filter_fp_chance = 0.01;
  std::map<std::string, std::string> caching{{"keys", "ALL"}, {"rows_per_partition", "NONE"}};
  bool cdc = false;
  std::string comment;
  std::map<std::string, std::string> compaction{
      {"class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"},
      {"max_threshold", "32"},
      {"min_threshold", "4"}};
  std::map<std::string, std::string> compression{
      {"chunk_length_in_kb", "16"}, {"class", "org.apache.cassandra.io.compress.LZ4Compressor"}};
  double crc_check_chance = 1.0;
  int32_t default_time_to_live = 0;
  std::map<std::string, Bytes> extensions;
  int32_t gc_grace_seconds = 864000;
  int32_t max_index_interval = 2048;
  // The memtable configuration key; nullopt is the default configuration,
  // which Cassandra 4.1 leaves out of system_schema (the column reads null).
  std::optional<std::string> memtable;
  int32_t memtable_flush_period_in_ms = 0;
  int32_t min_index_interval = 128;
  std::string read_repair = "BLOCKING";
  std::string speculative_retry = "99p";
};

// A secondary index as system_schema.indexes shows it.
struct IndexMetadata {
  std::string name;
  std::string kind;                            // "KEYS", "COMPOSITES" or "CUSTOM"
  std::map<std::string, std::string> options;  // "target", and "class_name" for CUSTOM
  // Names the index's storage (its entries' column family). New for every
  // CREATE INDEX, so an index dropped and created again under the same name
  // never finds the old one's entries. Not shown in system_schema.
  types::Uuid id;
};

// A column removed with ALTER TABLE DROP, as system_schema.dropped_columns
// records it: data written before `dropped_time_micros` is ignored, and the
// name can only come back with a compatible type and the same kind. The type
// has user types expanded to tuples (types::ExpandUserTypes).
struct DroppedColumn {
  std::string name;
  types::TypePtr type;
  ColumnKind kind = ColumnKind::kRegular;  // kRegular or kStatic
  int64_t dropped_time_micros = 0;
};

// A restriction of a materialized view's WHERE clause. Only primary key
// columns of the base may be restricted by more than IS NOT NULL; every
// column of the view's PRIMARY KEY is restricted (IS NOT NULL at least).
struct ViewRestriction {
  enum class Op { kIsNotNull, kEq, kIn, kLt, kLte, kGt, kGte };
  std::string column;  // a column of the base table
  Op op = Op::kIsNotNull;
  std::vector<Bytes> values;  // serialized in the column's type: one, or several for kIn
  friend bool operator==(const ViewRestriction&, const ViewRestriction&) = default;
};

// What makes a table a materialized view (Cassandra's ViewMetadata): its
// base table, in the same keyspace, and which base rows it shows. The
// view's own TableMetadata holds its columns: the view PRIMARY KEY, then the
// selected columns of the base, with the base's names and types.
struct ViewDefinition {
  std::string base_table;
  types::Uuid base_table_id;
  // SELECT *: a column added to the base later joins the view.
  bool include_all_columns = false;
  std::string where_clause;  // as system_schema.views shows it
  std::vector<ViewRestriction> restrictions;
  friend bool operator==(const ViewDefinition&, const ViewDefinition&) = default;
};

struct TableMetadata {
  std::string keyspace;
  std::string name;
  types::Uuid id;
  // Partition key columns by position, then clustering columns by position,
  // then static and regular columns together in name (byte) order — the order
  // of `SELECT *` in Cassandra.
  std::vector<ColumnMetadata> columns;
  TableParams params;
  std::set<std::string> flags{"compound"};
  std::vector<IndexMetadata> indexes;
  std::map<std::string, DroppedColumn, std::less<>> dropped_columns;  // by name
  // A table of a virtual keyspace (Cassandra's TableMetadata.Kind.VIRTUAL):
  // its rows are produced from live state, and its partitions are ordered as
  // Cassandra's LocalPartitioner orders them — by the partition key's value,
  // not by token (row_order.h).
  bool is_virtual = false;
  // Set for a materialized view (kept in KeyspaceMetadata::views).
  std::optional<ViewDefinition> view;

  bool is_view() const { return view.has_value(); }
  const ColumnMetadata* FindColumn(std::string_view name) const;
  int ColumnIndex(std::string_view name) const;  // -1 if absent
  // The index of a column a statement names; throws InvalidRequest
  // "Undefined column name x in table ks.t" (TableMetadata.getExistingColumn).
  size_t ExistingColumnIndex(std::string_view name) const;
  size_t partition_key_size() const;
  size_t clustering_size() const;
  // Index in `columns` of the first clustering column (== partition_key_size()).
  size_t clustering_begin() const { return partition_key_size(); }
  // "ks.table" with Cassandra's quoting of names that need it, as error messages show a table.
  std::string QualifiedName() const;
};
using TablePtr = std::shared_ptr<const TableMetadata>;

// Whether changing `before` into `after` (the same table, altered) changes
// what statements prepared against it do, so that they must be prepared
// again (Cassandra 4.1's TableMetadata.changeAffectsPreparedStatements): its
// partition key, clustering or other columns (names, kinds, positions,
// types, clustering order), its indexes, default_time_to_live or
// gc_grace_seconds changed, or it stopped being a compact table. Other
// options (comment, compaction, ...) do not count.
[[nodiscard]] bool ChangeAffectsPreparedStatements(const TableMetadata& before,
                                                   const TableMetadata& after);

struct KeyspaceMetadata {
  std::string name;
  // system_views and system_virtual_schema (virtual_keyspaces.h): never in a
  // Schema's keyspaces() nor in system_schema, only in system_virtual_schema.
  bool is_virtual = false;
  bool durable_writes = true;
  std::map<std::string, std::string> replication;       // "class" → full Java class name, options
  std::map<std::string, TablePtr, std::less<>> tables;  // by name; never a view
  // Materialized views by name: TableMetadata with `view` set. A view's name
  // is never a table's too (they share Cassandra's namespace).
  std::map<std::string, TablePtr, std::less<>> views;
  std::map<std::string, types::TypePtr, std::less<>> user_types;  // by name; each kUdt
};
using KeyspacePtr = std::shared_ptr<const KeyspaceMetadata>;

}  // namespace sibyl::schema
