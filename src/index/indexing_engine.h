#pragma once
// An Engine that keeps the tables' secondary indexes (TableLayout::indexes)
// and materialized views (TableLayout::views, view_rows.h) exact: it wraps the node's storage
// engine, and every write to a table with indexes, whatever path it comes by (a client's statement,
// a replica write, a hint, a batch log replay, read repair), goes through here.
//
//   auto engine = IndexingEngine::Wrap(storage::Engine::Open(options, clock), clock);
//
// A write to an indexed table:
//  1. locks the partitions it touches (storage::PartitionLocks, ascending
//     stripes, so multi-partition batches cannot deadlock);
//  2. reads what the replica holds of the rows it changes (ReadUnfiltered:
//     the rows it names, or the whole partition for a partition or range
//     deletion), and merges the write into it with the storage's own
//     reconciliation, giving each index's entries and each view's rows
//     before and after;
//  3. commits the base write and every entry and view row change in ONE
//     atomic engine write (ApplyAll: one RocksDB WriteBatch), then unlocks.
//     A view update bound for another node (view_update_router.h) goes into
//     that batch as an outbox record (view_outbox.h) instead.
// So the index never differs from its base, a crash included, and a write
// whose timestamps lose (older, tie) changes no entry. Entry writes carry
// the node's increasing timestamps (index_entries.h).
//
// Writes to tables without indexes or views go straight to the wrapped engine: an
// atomic load decides (beside counting the write in and out, which lets a
// schema change wait for the writes made before it: SyncTables).
//
// Reads with ReadCommand::index are answered by index_reader.h. An index or
// view created on a table that already holds data is built in the
// background (BuildLoop): token order, a partition at a time under its
// lock, with its progress in the engine (resumed after a restart); until it
// is done index reads throw IndexNotAvailable, and view reads show what is
// built. Those of empty tables are built at once.
//
// Back-pressure: while max_pending_view_updates or more wait in the outbox,
// writes to tables with views (and view builds) are refused with
// ViewUpdatesBacklogged, at once: a replica write is applied on a messaging
// thread, which must not wait for the acknowledgements it carries.
//
// Thread-safety: as storage::Engine, every method from any thread.

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "index/view_outbox.h"
#include "index/view_update_router.h"
#include "storage/data/storage_error.h"
#include "storage/engine.h"
#include "storage/partition_locks.h"

namespace sibyl::index {

// An index's or a view's build state, for system."IndexInfo",
// system.built_views and `sibyl admin`.
struct IndexBuildStatus {
  std::string keyspace;
  std::string table;  // the base table
  std::string index;  // the index's or the view's name
  bool built = false;
  int64_t last_token = 0;  // progress while building: the last partition's token
  int64_t partitions_built = 0;
  std::string failure;  // why the build stopped, if it failed
};

// Writes to a table with views are refused while the outbox is this full.
// What checking a view against its base found (`sibyl admin verify-view`).
struct ViewCheck {
  std::string keyspace;
  std::string view;
  bool found = false;             // the view exists on this node
  bool repair = false;            // asked to repair
  int64_t checked_at_micros = 0;  // when the check ran
  int64_t rows_expected = 0;
  int64_t missing = 0;     // rows the base gives that the view lacks
  int64_t unexpected = 0;  // rows the view has that the base does not give
  int64_t different = 0;   // rows with other cells, values or expiries
  int64_t repaired = 0;    // rows rewritten (with repair)
};

class ViewUpdatesBacklogged : public std::runtime_error {
 public:
  explicit ViewUpdatesBacklogged(int64_t pending)
      : std::runtime_error("Too many view updates (" + std::to_string(pending) +
                           ") are waiting for their view replicas; writes to tables with "
                           "materialized views are refused until they are delivered") {}
};

class IndexingEngine final : public storage::Engine {
 public:
  static std::unique_ptr<IndexingEngine> Wrap(std::unique_ptr<storage::Engine> inner, Clock& clock);
  IndexingEngine(std::unique_ptr<storage::Engine> inner, Clock& clock);
  ~IndexingEngine() override;

  void SyncTables(const std::vector<storage::TableLayout>& tables) override;
  void Apply(const storage::Mutation& mutation) override { ApplyAll({&mutation}); }
  void ApplyAll(const std::vector<const storage::Mutation*>& mutations) override;
  void ApplyAllSynced(const std::vector<const storage::Mutation*>& mutations) override;
  storage::ReadResult Read(const storage::ReadCommand& command) const override;
  std::vector<storage::Mutation> ReadUnfiltered(const storage::ReadCommand& command) const override;
  void Truncate(const types::Uuid& table_id) override;
  void Flush() override { inner_->Flush(); }
  void Flush(const types::Uuid& table_id) override { inner_->Flush(table_id); }
  // The wrapped engine's: index and view column families are among its tables.
  storage::StorageStatistics Statistics() const override { return inner_->Statistics(); }
  std::shared_ptr<const storage::ledger::LedgerSnapshot> LargeData() const override {
    return inner_->LargeData();
  }
  std::optional<storage::ledger::PartitionFigures> FindLargePartition(
      const types::Uuid& table_id, const storage::PartitionKey& key) const override {
    return inner_->FindLargePartition(table_id, key);
  }
  void Compact(const types::Uuid& table_id) override;

  // Every index's build state.
  [[nodiscard]] std::vector<IndexBuildStatus> BuildStatuses() const;
  // Recomputes view `keyspace.view` from its base and compares (on a ring,
  // the rows this node derives for itself: view_checker.h); with `repair`,
  // rewrites each differing row from its base row, under the base
  // partition's lock. Reads without locks first, so a row a concurrent
  // write changes can count as different (its repair is still exact).
  [[nodiscard]] ViewCheck CheckView(const std::string& keyspace, const std::string& view,
                                    bool repair);
  // The last check of each view since the node started.
  [[nodiscard]] std::vector<ViewCheck> LastViewChecks() const;
  // Every view's build state.
  [[nodiscard]] std::vector<IndexBuildStatus> ViewBuildStatuses() const;

  // The view outbox (view_outbox.h). Without a router every view update is
  // applied here. Set once, before writes to tables with views.
  void SetViewUpdateRouter(std::shared_ptr<const ViewUpdateRouter> router);
  // The targets with view updates waiting.
  [[nodiscard]] std::vector<types::Uuid> ViewUpdateTargets() const;
  // Up to `limit` of `target`'s waiting updates, oldest first.
  [[nodiscard]] std::vector<PendingViewUpdate> PendingViewUpdates(const types::Uuid& target,
                                                                  size_t limit) const;
  // Deletes updates `target` acknowledged.
  void ViewUpdatesDelivered(const types::Uuid& target, const std::vector<int64_t>& sequences);
  [[nodiscard]] int64_t pending_view_updates() const { return outbox_size_.load(); }
  void set_max_pending_view_updates(int64_t limit) { max_pending_view_updates_ = limit; }
  // Blocks until no index is being built (tests).
  void AwaitBuilds() const;

 private:
  struct Index;
  struct View;
  struct IndexedTable;
  struct Catalog;
  struct Derived;
  std::shared_ptr<const Catalog> catalog() const;
  // ApplyAll and ApplyAllSynced (`synced`).
  void Write(const std::vector<const storage::Mutation*>& mutations, bool synced);
  void ApplyIndexed(const std::vector<const storage::Mutation*>& mutations, const Catalog& catalog,
                    bool synced);
  // Returns once no catalog is settling (SyncTables).
  void AwaitSettled() const;
  // The inner engine's ApplyAll or ApplyAllSynced.
  void WriteInner(const std::vector<const storage::Mutation*>& mutations, bool synced);
  void ForgetDropped(const Catalog& previous, const Catalog& next);
  void LoadBuildStates(const std::vector<Derived>& fresh);
  void BuildLoop();
  // Builds one page of partitions; false when the build is complete.
  bool BuildStep(const Derived& derived);
  // Adds what `table`'s views derive from `before` becoming `after` (one
  // base partition) to `writes`: view rows, or outbox records.
  void DeriveViewWrites(const IndexedTable& table, const storage::Mutation& before,
                        const storage::Mutation& after, const View* only, int32_t now,
                        std::vector<storage::Mutation>& writes);
  void RefuseWhenOutboxFull() const;
  void CountOutbox();

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
  // have landed yet: no build starts, and no write derives with the new one.
  bool settling_ = false;  // GUARDED_BY(mutex_)
  // Writes under way, counted by the parity of the epoch they started in:
  // SyncTables moves to the next epoch after publishing a catalog and waits
  // for the previous one's count to reach zero (no write made with the old
  // catalog is left), while new writes count in the other slot. A write
  // that finds the new catalog settling leaves its slot and waits.
  std::atomic<uint64_t> write_epoch_{0};
  std::atomic<int64_t> writes_in_flight_[2] = {0, 0};
  std::shared_ptr<const ViewUpdateRouter> router_;  // set before writes; never changes after
  std::atomic<int64_t> outbox_size_{0};
  bool outbox_counted_ = false;  // SyncTables calls are serialized by the schema listener
  std::atomic<int64_t> max_pending_view_updates_{10000};
  mutable std::mutex checks_mutex_;
  // GUARDED_BY(checks_mutex_): the last check of each (keyspace, view).
  std::map<std::pair<std::string, std::string>, ViewCheck> last_checks_;
  std::thread builder_;
};

}  // namespace sibyl::index
