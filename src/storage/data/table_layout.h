#pragma once
// What the engine knows of a table: enough to order and reconcile its data,
// nothing of CQL statements. The query/server layer derives it from
// schema::TableMetadata (storage does not depend on schema).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "types/cql_type.h"
#include "types/uuid.h"

namespace sibyl::storage {

struct ColumnLayout {
  std::string name;
  types::TypePtr type;  // a non-frozen collection or UDT is stored per element
  bool is_static = false;
  bool is_counter() const { return type->kind() == types::Kind::kCounter; }
  // Stored one cell per element / field (Cassandra's "complex" column).
  bool is_multi_cell() const;
};

struct ClusteringColumnLayout {
  types::TypePtr type;
  bool descending = false;  // CLUSTERING ORDER BY (c DESC)
};

// Engine settings a table's options map to (Cassandra name in parentheses).
struct StorageOptions {
  int32_t gc_grace_seconds = 864000;
  double bloom_filter_fp_chance = 0.01;
  // "size_tiered" (SizeTieredCompactionStrategy → universal), "leveled"
  // (LeveledCompactionStrategy → level), "time_window" (TimeWindowCompactionStrategy → FIFO-free
  // universal).
  std::string compaction = "size_tiered";
  // "lz4", "snappy", "zstd", "deflate" (zlib) or "none"; chunk_length_in_kb → block size.
  std::string compression = "lz4";
  int32_t chunk_length_kb = 16;
};

// A secondary index of the table (Cassandra's local "2i"): its entries live
// in a column family of their own, named by `id`, and are kept exact by the
// indexing engine (index/indexing_engine.h).
struct IndexLayout {
  types::Uuid id;
  std::string name;  // for messages
  enum class Target {
    kSimple,   // the column's value (a frozen collection: whole)
    kValues,   // a collection's elements (list, set) or values (map)
    kKeys,     // a map's keys
    kEntries,  // a map's (key, value) pairs
    kFull,     // a frozen collection's whole value
  };
  Target target = Target::kSimple;
  // Which column: a static or regular one by name, or a key column.
  enum class Source { kColumn, kPartitionKey, kClustering };
  Source source = Source::kColumn;
  std::string column;       // the column's name (every source)
  size_t key_position = 0;  // kPartitionKey: component; kClustering: column
  types::TypePtr type;      // the column's type
};

// A materialized view of the table: its rows are derived from the base
// table's rows by the indexing engine (index/view_rows.h), under the base
// partition's lock, in the base write's own batch. The view is a table of
// its own (a TableLayout with id `id` among the engine's tables); this says
// how a base row maps onto a view row. Every view row derives from exactly
// one base row: the view's key holds every base key column, and at most
// one base regular column.
struct ViewLayout {
  types::Uuid id;    // the view's table
  std::string name;  // for messages
  // Where a column of the view's key comes from in the base row.
  struct Source {
    enum class Kind { kPartitionKey, kClustering, kColumn };
    Kind kind = Kind::kPartitionKey;
    size_t position = 0;  // kPartitionKey: component; kClustering: column
    std::string column;   // the base column's name (every kind)
    types::TypePtr type;
    friend bool operator==(const Source&, const Source&) = default;
  };
  std::vector<Source> partition_key;  // the view's partition key components, in order
  std::vector<Source> clustering;     // the view's clustering columns, in order
  // The base regular columns the view carries (under the same names), not
  // counting one that is in the view's key.
  std::vector<std::string> columns;
  // The WHERE clause's restrictions on base key columns (IS NOT NULL on
  // them always holds and is left out).
  struct Filter {
    Source column;
    enum class Op { kEq, kIn, kLt, kLte, kGt, kGte };
    Op op = Op::kEq;
    std::vector<Bytes> values;
    friend bool operator==(const Filter&, const Filter&) = default;
  };
  std::vector<Filter> filters;

  // A base regular column is in the view's key: the view row lives exactly
  // while that cell does (Cassandra's "strict liveness").
  bool has_column_in_key() const;
};

struct TableLayout {
  types::Uuid id;
  std::string keyspace;  // for messages and the column family's name only
  std::string name;
  std::vector<types::TypePtr> partition_key_types;
  std::vector<ClusteringColumnLayout> clustering;
  std::vector<ColumnLayout> columns;  // static and regular columns
  StorageOptions options;
  std::vector<IndexLayout> indexes;
  std::vector<ViewLayout> views;

  const ColumnLayout* FindColumn(std::string_view column) const;
};

// The table's clustering columns as clustering_order.h's comparisons take
// them: i → (type, descending). `table` must outlive the result.
inline auto ClusteringColumnsOf(const TableLayout& table) {
  return [&table](size_t i) {
    return std::pair<const types::CqlType&, bool>(*table.clustering.at(i).type,
                                                  table.clustering[i].descending);
  };
}

}  // namespace sibyl::storage
