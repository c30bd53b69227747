#pragma once
// Cassandra 4.1's reconciliation of two versions of the same data, whatever
// order they arrived in (org.apache.cassandra.db.rows.Cells.reconcile,
// LivenessInfo.supersedes, DeletionTime.supersedes). Every rule here is
// commutative and associative, which is what lets the merge operator apply
// writes blindly (no read before write) and reconcile them later.
//
// Cells (resolveRegular):
//   1. the higher timestamp wins;
//   2. on a tie, an expiring cell or a tombstone wins over a regular cell;
//   3. then a tombstone wins over an expiring cell;
//   4. then (both expiring or both tombstones) the later local deletion time;
//   5. then the greater value (unsigned bytes).
// Counters (resolveCounter): a tombstone always wins over a counter,
// whatever the timestamps; two counters merge (counter_context.h: deltas
// add up, shards keep the higher clock) with the later timestamp.
// Row markers: higher timestamp; on a tie the expiring one, and between two
// of the same kind the later expiration time.
// Deletions: higher marked_for_delete_at, then later local deletion time.

#include "common/bytes.h"
#include "storage/codec/cell_codec.h"
#include "storage/data/cell.h"

namespace sibyl::storage {

// True when `a` wins over `b` under the regular (non-counter) rules.
bool RegularCellWins(const StoredCell& a, const StoredCell& b);

// The reconciliation of `a` and `b`, encoded into `out` (cleared first).
void ReconcileCells(const StoredCell& a, const StoredCell& b, Bytes& out);
Cell Reconcile(const Cell& a, const Cell& b);

bool LivenessSupersedes(const LivenessInfo& a, const LivenessInfo& b);
LivenessInfo Reconcile(const LivenessInfo& a, const LivenessInfo& b);
DeletionTime Reconcile(const DeletionTime& a, const DeletionTime& b);

// Reconciles two stored values of one key (same tag) into `out`. False when
// either is malformed or the tags differ: the caller reports corruption.
[[nodiscard]] bool ReconcileValues(BytesView a, BytesView b, Bytes& out);

}  // namespace sibyl::storage
