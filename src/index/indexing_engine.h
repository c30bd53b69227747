#pragma once
// An Engine that keeps the tables' secondary indexes (TableLayout::indexes)
// exact: it wraps the node's storage engine, and every write to a table with
// indexes, whatever path it comes by (a client's statement, a replica
// write, a hint, a batch log replay, read repair), goes through here.
//
//   auto engine = IndexingEngine::Wrap(storage::Engine::Open(options, clock), clock);
//
// A write to an indexed table:
//  1. locks the partitions it touches (storage::PartitionLocks, ascending
//     stripes, so multi-partition batches cannot deadlock);
//  2. reads what the replica holds of the rows it changes (ReadUnfiltered:
//     the rows it names, or the whole partition for a partition or range
//     deletion), and merges the write into it with the storage's own
//     reconciliation, giving each index's entries before and after;
//  3. commits the base write and every entry change in ONE atomic engine
//     write (ApplyAll: one RocksDB WriteBatch), then unlocks.
// So the index never differs from its base, a crash included, and a write
// whose timestamps lose (older, tie) changes no entry. Entry writes carry
// the node's increasing timestamps (index_entries.h).
//
// Writes to tables without indexes go straight to the wrapped engine: an
// atomic load decides (beside counting the write in and out, which lets a
// schema change wait for the writes made before it: SyncTables).
//
// Reads with ReadCommand::index are answered by index_reader.h. An index
// created on a table that already holds data is built in the background
// (IndexBuilder below): token order, a partition at a time under its lock,
// with its progress in the engine (resumed after a restart); until it is
// done such reads throw IndexNotAvailable. Indexes on empty tables are built
// at once.
//
// Thread-safety: as storage::Engine, every method from any thread.

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "storage/engine.h"
#include "storage/partition_locks.h"
#include "storage/storage_error.h"

namespace sibyl::index {

// An index's build state, for system."IndexInfo" and `sibyl admin`.
struct IndexBuildStatus {
  std::string keyspace;
  std::string table;
  std::string index;
  bool built = false;
  int64_t last_token = 0;  // progress while building: the last partition's token
  int64_t partitions_built = 0;
  std::string failure;  // why the build stopped, if it failed
};

class IndexingEngine final : public storage::Engine {
 public:
  static std::unique_ptr<IndexingEngine> Wrap(std::unique_ptr<storage::Engine> inner, Clock& clock);
  IndexingEngine(std::unique_ptr<storage::Engine> inner, Clock& clock);
  ~IndexingEngine() override;

  void SyncTables(const std::vector<storage::TableLayout>& tables) override;
  void Apply(const storage::Mutation& mutation) override { ApplyAll({&mutation}); }
  void ApplyAll(const std::vector<const storage::Mutation*>& mutations) override;
  storage::ReadResult Read(const storage::ReadCommand& command) const override;
  std::vector<storage::Mutation> ReadUnfiltered(const storage::ReadCommand& command) const override;
  void Truncate(const types::Uuid& table_id) override;
  void Flush() override { inner_->Flush(); }
  void Compact(const types::Uuid& table_id) override;

  // Every index's build state.
  [[nodiscard]] std::vector<IndexBuildStatus> BuildStatuses() const;
  // Blocks until no index is being built (tests).
  void AwaitBuilds() const;

 private:
  struct Index;
  struct IndexedTable;
  struct Catalog;
  std::shared_ptr<const Catalog> catalog() const;
  void ApplyIndexed(const std::vector<const storage::Mutation*>& mutations, const Catalog& catalog);
  void ForgetDroppedIndexes(const Catalog& previous, const Catalog& next);
  void LoadBuildStates(const Catalog& catalog,
                       const std::vector<std::pair<types::Uuid, size_t>>& indexes);
  void BuildLoop();
  // Indexes one page of partitions; false when the build is complete.
  bool BuildStep(const Index& index, const IndexedTable& table);
  void StoreBuildState(const Index& index, std::vector<storage::Mutation>& writes) const;

  std::unique_ptr<storage::Engine> inner_;
  Clock& clock_;
  storage::PartitionLocks locks_;
  std::atomic<bool> any_indexes_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::shared_ptr<const Catalog> catalog_;  // GUARDED_BY(mutex_)
  bool stopping_ = false;                   // GUARDED_BY(mutex_)
  bool building_ = false;                   // GUARDED_BY(mutex_)
  // A new catalog is published but writes that loaded the old one may not
  // have landed yet: no build starts.
  bool settling_ = false;  // GUARDED_BY(mutex_)
  // Writes under way, counted by the parity of the epoch they started in:
  // SyncTables moves to the next epoch after publishing a catalog and waits
  // for the previous one's count to reach zero (no write made with the old
  // catalog is left), while new writes count in the other slot.
  std::atomic<uint64_t> write_epoch_{0};
  std::atomic<int64_t> writes_in_flight_[2] = {0, 0};
  std::thread builder_;
};

}  // namespace sibyl::index
