#pragma once
// Read repair's diff: given the reconciliation of every replica's unfiltered
// answer (Engine::ReadUnfiltered, merged with mutation_merge.h) and one
// replica's own answer, the Mutation that replica lacks — what Cassandra's
// read repair sends it (DataResolver's RowIteratorMergeListener). An item
// of `merged` (partition deletion, range tombstone, row deletion, row
// marker, collection deletion, cell) is in the diff when
//  * none of merged's own deletions shadows it: replicas that disagreed may
//    have sent data another replica's deletion makes dead, and dead data is
//    not repaired;
//  * none of the replica's deletions shadows it: the replica has it dead;
//  * it wins over the replica's version of it (reconcile.h): the replica
//    lacks it or holds one that loses. Nothing the replica has is sent.
// A range tombstone goes whole (once, however many replicas sent it) unless
// the replica holds a deletion as strong over all its range: one of its own
// range tombstones, or its partition deletion.
//
// So applying the diff to the replica makes its unfiltered answer to the
// same command reconcile to `merged`: the diff computed again is empty.
// Rows and elements are matched by their encoded clusterings and paths
// (key_codec.h): values that compare equal match whatever their bytes.
//
// Counter shards are repaired like any cell (they reconcile idempotently,
// counter_context.h); counter deltas are refused.

#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

// REQUIRES: `merged` and `replica` hold one partition of `table` (the
// replica's answer may be an empty Mutation when it had nothing).
// Throws std::invalid_argument when either holds a counter delta, and for
// clusterings longer than the table's.
[[nodiscard]] Mutation RepairDiff(const TableLayout& table, const Mutation& merged,
                                  const Mutation& replica);

}  // namespace sibyl::storage
