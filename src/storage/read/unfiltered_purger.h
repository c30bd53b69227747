#pragma once
// What an unfiltered read (Engine::ReadUnfiltered) leaves out besides
// shadowed data: tombstones past gc_grace, purged as Cassandra's read path
// purges them (ReadCommand.withoutPurgeableTombstones, DeletionPurger) and
// as compaction would (purge_compaction_filter.h). Both engines apply these
// rules, so an answer never depends on whether compaction already ran.
//
// Thread-safety: immutable after construction.

#include <cstdint>

#include "storage/codec/cell_codec.h"
#include "storage/data/cell.h"

namespace sibyl::storage {

class UnfilteredPurger {
 public:
  UnfilteredPurger(int32_t now_seconds, int32_t gc_grace_seconds)
      : now_(now_seconds), gc_before_(int64_t{now_seconds} - gc_grace_seconds) {}

  // True when `deletion` shadows data written at `timestamp`.
  static bool Shadows(const DeletionTime& deletion, int64_t timestamp) {
    return !deletion.is_live() && deletion.Deletes(timestamp);
  }

  // A deletion worth returning: set, not shadowed by `outer` (the deletions
  // over it: the partition's for a range tombstone, the partition's and the
  // covering range tombstones' for a row deletion, ...), not purgeable.
  bool KeepDeletion(const DeletionTime& deletion, const DeletionTime& outer) const {
    return !deletion.is_live() && !Shadows(outer, deletion.marked_for_delete_at) &&
           !Purgeable(deletion.local_deletion_time);
  }

  // REQUIRES: the marker is not shadowed. An expired marker stays until its
  // expiry is past gc_grace: it still beats older markers.
  bool KeepMarker(const LivenessInfo& marker) const {
    if (marker.is_empty()) return false;
    const bool expired = marker.ttl != 0 && marker.local_expiration_time <= now_;
    return !expired || !Purgeable(marker.local_expiration_time);
  }

  // REQUIRES: the cell is not shadowed. An expired cell is dated, like the
  // tombstone compaction makes of it, at its write (expiry - ttl).
  bool KeepCell(const StoredCell& cell) const {
    if (cell.is_tombstone()) return !Purgeable(cell.local_deletion_time);
    if (cell.is_expiring() && !cell.IsLive(now_)) {
      return !Purgeable(int64_t{cell.local_deletion_time} - cell.ttl);
    }
    return true;
  }
  bool KeepCell(const Cell& cell) const { return KeepCell(StoredCell::Of(cell)); }

 private:
  bool Purgeable(int64_t local_deletion_time) const { return local_deletion_time < gc_before_; }

  int32_t now_;
  int64_t gc_before_;
};

}  // namespace sibyl::storage
