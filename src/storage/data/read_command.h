#pragma once
// ReadCommand: what the query layer asks the engine for, and the reconciled
// partitions it gets back (design.md, "The contracts between layers").

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "storage/data/cell.h"
#include "storage/data/mutation.h"
#include "types/uuid.h"

namespace sibyl::storage {

// Rows between two bounds, in the table's clustering order.
struct ClusteringSlice {
  ClusteringBound start;  // empty prefix: from the first row
  ClusteringBound end;    // empty prefix: to the last row

  // The slice of one row.
  static ClusteringSlice Point(const Clustering& row) { return {{row, true}, {row, true}}; }
};

// Partitions whose token t satisfies start < t <= end, as Cassandra's
// token ranges are; kMinimumToken as start means from the beginning of the
// ring, and as end means to its end.
struct TokenRange {
  int64_t start = std::numeric_limits<int64_t>::min();
  int64_t end = std::numeric_limits<int64_t>::min();
};

// Where a paged read resumes: after this partition, or after this row of it.
struct ReadPosition {
  PartitionKey partition;
  std::optional<Clustering> last_row;  // nullopt: the whole partition was returned
  bool last_was_static = false;        // only the static row was returned
  // Rows of `partition` returned so far, over all pages (with last_row):
  // per_partition_limit counts on from here, as Cassandra's paging state's
  // remainingInPartition does.
  int32_t rows_in_partition = 0;
};

// Rows found through a secondary index of the table (TableLayout::indexes):
// those whose indexed column holds `value` — for values(c) an element, for
// keys(c) a map key, for entries(c) the key with `entry_value` as its value,
// for full(c) and a simple column the whole value. An index on a static
// column finds every row of the partitions whose static value matches.
struct IndexQuery {
  types::Uuid index_id;  // TableLayout::indexes[i].id
  Bytes value;
  std::optional<Bytes> entry_value;  // entries(m) only: m[value] = entry_value
  friend bool operator==(const IndexQuery&, const IndexQuery&) = default;
};

struct ReadCommand {
  types::Uuid table_id;
  // Either named partitions (in any order; answered in token order) ...
  std::vector<PartitionKey> partitions;
  // ... or, when `partitions` is empty, every partition in this range.
  TokenRange range;
  // Rows wanted in each partition; empty: all rows. Sorted, non-overlapping.
  std::vector<ClusteringSlice> slices;
  bool reversed = false;  // rows in reverse clustering order
  // Regular and static columns wanted; nullopt: all. Key columns always come.
  std::optional<std::vector<std::string>> columns;
  int32_t row_limit = std::numeric_limits<int32_t>::max();
  int32_t per_partition_limit = std::numeric_limits<int32_t>::max();
  int32_t partition_limit = std::numeric_limits<int32_t>::max();
  std::optional<ReadPosition> resume_after;
  int32_t now_seconds = 0;  // decides what has expired
  // Only the rows this index finds, of the token range (`partitions` must be
  // empty); answered in token order like any range read, each row once.
  // The storage engines refuse it (RefuseIndexRead); index/indexing_engine.h
  // answers it.
  std::optional<IndexQuery> index;
};

// Throws std::invalid_argument when `command` reads through an index: what
// an engine that keeps no indexes does.
inline void RefuseIndexRead(const ReadCommand& command) {
  if (command.index) {
    throw std::invalid_argument("this engine keeps no secondary indexes: " +
                                command.index->index_id.ToString());
  }
}

// A live cell as a read returns it.
struct ReadCell {
  std::string column;
  std::optional<Bytes> path;  // element of a multi-cell column
  Bytes value;                // counters: the 8-byte total
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;
  int32_t local_expiration_time = kNoDeletionTime;
};

struct ReadRow {
  Clustering clustering;  // empty for the static row
  LivenessInfo marker;    // empty unless INSERT wrote the row and it is live
  // Sorted by column name, then path in the element type's order. Only
  // live cells; a row is returned when its marker or any cell is live.
  std::vector<ReadCell> cells;
};

struct ReadPartition {
  PartitionKey key;
  std::optional<ReadRow> static_row;  // when a static cell is live
  std::vector<ReadRow> rows;          // in clustering order (reversed if asked)
};

struct ReadResult {
  std::vector<ReadPartition> partitions;
  // Set when a limit stopped the read before the end: where to resume.
  std::optional<ReadPosition> next;
  // Tombstones (deleted or expired cells, row/range tombstones) the read
  // went over: Cassandra's tombstone_warn/failure_threshold count these.
  int64_t tombstones_scanned = 0;
};

}  // namespace sibyl::storage
