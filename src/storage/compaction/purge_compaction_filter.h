#pragma once
// The compaction filter of a table's column family: what Cassandra's
// compaction purges, done while RocksDB compacts (docs/dev/storage.md).
//
//  * Data shadowed by a deletion seen earlier in the same compaction (the
//    partition deletion, a range tombstone, the row deletion, a collection
//    deletion: key order puts each before what it covers) is dropped: the
//    deletion stays, so nothing can reappear. Counter deltas are kept: a
//    counter is judged as the merge of all its deltas.
//  * An expiring cell past its expiry becomes a tombstone with the same
//    timestamp and local deletion time = expiry - ttl, as Cassandra's
//    compaction does; it shadows exactly what the expired cell did.
//  * A tombstone (cell, row, range, partition, collection), an expired cell
//    or an expired row marker older than gc_grace_seconds is purged only
//    when that is safe: in a compaction of every file of the table (nothing
//    older can hide in a file left out) and only as a fully merged value
//    (every version of the key is in it), never as one merge operand.
//
// Never throws (RocksDB callbacks must not): a key it cannot parse is kept.

#include <rocksdb/compaction_filter.h>

#include <memory>
#include <mutex>

#include "common/clock.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

// What the filters of one table need; SyncTables updates the layout.
class TablePurgeState {
 public:
  explicit TablePurgeState(Clock& clock) : clock_(clock) {}
  void SetLayout(std::shared_ptr<const TableLayout> layout) {
    std::lock_guard lock(mutex_);
    layout_ = std::move(layout);
  }
  // nullptr until the table's layout is known (just after Open).
  std::shared_ptr<const TableLayout> layout() const {
    std::lock_guard lock(mutex_);
    return layout_;
  }
  Clock& clock() const { return clock_; }

 private:
  Clock& clock_;
  mutable std::mutex mutex_;
  std::shared_ptr<const TableLayout> layout_;  // GUARDED_BY(mutex_)
};

class PurgeCompactionFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  explicit PurgeCompactionFilterFactory(std::shared_ptr<TablePurgeState> state)
      : state_(std::move(state)) {}
  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override;
  const char* Name() const override { return "SibylPurgeCompactionFilterFactory"; }

 private:
  std::shared_ptr<TablePurgeState> state_;
};

}  // namespace sibyl::storage
