#pragma once
// Answers a ReadCommand with an IndexQuery (read_command.h) from the index's
// entries (index_entries.h) and the base table: walks the value's index
// partition in token order over the command's range, and reads the rows the
// entries name, at most a page of entries at a time. Each row is re-checked
// against the value before it is returned (a concurrent write may have
// changed it between the two reads), so an answer never holds a row that
// does not match. Limits, PER PARTITION LIMIT and resume positions follow
// the engine's rules for range reads (reference_engine.h).

#include "storage/engine.h"

namespace sibyl::index {

struct IndexReadTarget {
  const storage::TableLayout& base;
  const storage::IndexLayout& index;
  const storage::TableLayout& index_table;
};

// REQUIRES: command.index names `target.index`, command.partitions is empty.
// Throws std::invalid_argument for a reversed read (Cassandra refuses ORDER
// BY with an index before this).
[[nodiscard]] storage::ReadResult ReadThroughIndex(const storage::Engine& engine,
                                                   const IndexReadTarget& target,
                                                   const storage::ReadCommand& command);

// Whether `row` (read with the indexed column) holds the indexed value of
// `query` (for an index on a key column, whether its key holds it).
[[nodiscard]] bool RowMatches(const storage::TableLayout& base, const storage::IndexLayout& index,
                              const storage::IndexQuery& query,
                              const storage::PartitionKey& partition, const storage::ReadRow& row);

}  // namespace sibyl::index
