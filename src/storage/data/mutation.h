#pragma once
// Mutation: every change to one partition of one table (design.md, "The
// contracts between layers"). The query layer builds it from INSERT, UPDATE,
// DELETE and BATCH; the coordinator routes it; the batch log (and later
// hints and replicas) store it as bytes; the engine applies it atomically.
// It carries no CQL: values are the types' serialized forms, columns are
// named, and every write and deletion has its own timestamp.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "storage/data/cell.h"
#include "types/uuid.h"

namespace sibyl::storage {

// One serialized value per clustering column (a full clustering key), or a
// prefix of them in a bound. Empty for the static row.
using Clustering = std::vector<Bytes>;

struct PartitionKey {
  int64_t token = 0;  // Murmur3 token of `key`
  Bytes key;          // the routing key (one value, or the composite form)
  friend bool operator==(const PartitionKey&, const PartitionKey&) = default;
};

// One end of a clustering range, in the table's clustering order: the rows
// whose clustering starts with `prefix`, included or not. An empty prefix
// is unbounded (the start or the end of the partition).
struct ClusteringBound {
  Clustering prefix;
  bool inclusive = true;
  friend bool operator==(const ClusteringBound&, const ClusteringBound&) = default;
};

// A write to one cell: a simple column, or one element of a non-frozen
// collection (list: path = the element's timeuuid; set: path = the element,
// value empty; map: path = the key) or one field of a non-frozen UDT
// (path = the field's index as a 2-byte big-endian number).
struct CellWrite {
  std::string column;
  std::optional<Bytes> path;
  Cell cell;
  friend bool operator==(const CellWrite&, const CellWrite&) = default;
};

// Deletes a whole non-frozen collection or UDT before new elements are
// written (`SET l = [...]` writes this at timestamp - 1, as Cassandra does).
struct CollectionDeletion {
  std::string column;
  DeletionTime deletion;
  friend bool operator==(const CollectionDeletion&, const CollectionDeletion&) = default;
};

struct RowWrite {
  bool is_static = false;
  Clustering clustering;  // full clustering key; empty when is_static
  LivenessInfo marker;    // set by INSERT
  DeletionTime deletion;  // a row tombstone (DELETE of the whole row)
  std::vector<CollectionDeletion> collection_deletions;
  std::vector<CellWrite> cells;

  // Whether it writes and deletes nothing.
  bool empty() const {
    return marker.is_empty() && deletion.is_live() && collection_deletions.empty() && cells.empty();
  }
  friend bool operator==(const RowWrite&, const RowWrite&) = default;
};

struct RangeTombstone {
  ClusteringBound start;
  ClusteringBound end;
  DeletionTime deletion;
  friend bool operator==(const RangeTombstone&, const RangeTombstone&) = default;
};

struct Mutation {
  types::Uuid table_id;
  PartitionKey partition;
  DeletionTime partition_deletion;
  std::vector<RangeTombstone> range_tombstones;
  std::vector<RowWrite> rows;  // at most one per clustering (and one static row)

  bool empty() const {
    return partition_deletion.is_live() && range_tombstones.empty() && rows.empty();
  }
  // A stable binary form (batch log, later hints and messaging): versioned,
  // so a newer Sibyl can read what an older one wrote.
  void SerializeTo(Bytes& out) const;
  // Throws std::runtime_error on bytes that are not a serialized Mutation.
  static Mutation Deserialize(BytesView bytes);
  friend bool operator==(const Mutation&, const Mutation&) = default;
};

}  // namespace sibyl::storage
