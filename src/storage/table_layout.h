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

struct TableLayout {
  types::Uuid id;
  std::string keyspace;  // for messages and the column family's name only
  std::string name;
  std::vector<types::TypePtr> partition_key_types;
  std::vector<ClusteringColumnLayout> clustering;
  std::vector<ColumnLayout> columns;  // static and regular columns
  StorageOptions options;
  std::vector<IndexLayout> indexes;

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
