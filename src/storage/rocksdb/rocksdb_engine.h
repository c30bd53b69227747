#pragma once
// The Engine on RocksDB (engine.h, docs/dev/storage.md): one database, one
// column family per table named by the table's id, every write a Merge the
// cell merge operator reconciles, expiry and purging in a compaction filter,
// durability by commitlog_sync mode.

#include <rocksdb/db.h>

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <utility>

#include "storage/compaction/purge_compaction_filter.h"
#include "storage/engine.h"
#include "storage/ledger/large_data_ledger.h"
#include "storage/ledger/ledger_refresher.h"
#include "storage/rocksdb/commitlog_syncer.h"

namespace sibyl::storage {

// The local latencies of one table (TableStorageStatistics).
struct TableActivity {
  TableLatency reads;
  TableLatency writes;
};

class RocksDbEngine final : public Engine {
 public:
  // Use Engine::Open.
  RocksDbEngine(const EngineOptions& options, Clock& clock);
  ~RocksDbEngine() override;

  void SyncTables(const std::vector<TableLayout>& tables) override;
  void Apply(const Mutation& mutation) override;
  void ApplyAll(const std::vector<const Mutation*>& mutations) override;
  void ApplyAllSynced(const std::vector<const Mutation*>& mutations) override;
  ReadResult Read(const ReadCommand& command) const override;
  std::vector<Mutation> ReadUnfiltered(const ReadCommand& command) const override;
  void Truncate(const types::Uuid& table_id) override;
  void Flush() override;
  void Flush(const types::Uuid& table_id) override;
  void Compact(const types::Uuid& table_id) override;
  StorageStatistics Statistics() const override;
  std::shared_ptr<const ledger::LedgerSnapshot> LargeData() const override {
    return ledger_.Snapshot();
  }
  std::optional<ledger::PartitionFigures> FindLargePartition(
      const types::Uuid& table_id, const PartitionKey& key) const override {
    return ledger_.FindPartition(table_id, key);
  }

 private:
  struct Table {
    std::shared_ptr<const TableLayout> layout;  // nullptr: on disk, not synced yet
    StorageOptions options;                     // what the family was opened with
    std::shared_ptr<TablePurgeState> purge_state;
    rocksdb::ColumnFamilyHandle* handle = nullptr;
    // Shared with the writes and reads measuring themselves, which may end
    // after the table is dropped.
    std::shared_ptr<TableActivity> activity = std::make_shared<TableActivity>();
  };

  // REQUIRES: mutex_ held (shared or exclusive).
  const Table& FindTable(const types::Uuid& id) const;
  Table& FindTable(const types::Uuid& id) {
    return const_cast<Table&>(std::as_const(*this).FindTable(id));
  }
  // REQUIRES: mutex_ held exclusively.
  void CreateFamily(const std::string& name, Table& table);
  void DropFamily(Table& table);
  void StoreOptions(const std::string& name, const StorageOptions* options);
  // `synced`: fsynced before it returns, whatever the sync mode.
  void Write(rocksdb::WriteBatch& batch, bool synced);
  // ApplyAll and ApplyAllSynced.
  void Write(const std::vector<const Mutation*>& mutations, bool synced);
  // Flushes the tables' memtables, syncs the commit log, then refreshes
  // their ledgers. Takes mutex_ shared.
  void FlushTables(const std::vector<types::Uuid>& ids);
  // Rebuilds the table's ledger from its live files' properties
  // (`memtable_flushed`: after a flush, LargeDataLedger::Rebuild). Takes
  // mutex_ shared: REQUIRES it not held exclusively by this thread.
  void RefreshLedger(const types::Uuid& id, bool memtable_flushed);

  const EngineOptions options_;
  ledger::LargeDataLedger ledger_;
  // Registered with RocksDB before it opens; its thread runs from the end of
  // the constructor until the start of the destructor.
  std::shared_ptr<ledger::LedgerRefresher> ledger_refresher_;
  Clock& clock_;
  std::shared_ptr<rocksdb::Cache> cache_;
  std::unique_ptr<rocksdb::DB> db_;
  std::unique_ptr<CommitlogSyncer> syncer_;
  // Apply/Read hold it shared; SyncTables/Truncate (which replace column
  // family handles) hold it exclusively.
  mutable std::shared_mutex mutex_;
  std::map<types::Uuid, Table> tables_;  // GUARDED_BY(mutex_); family name = id.ToString()
};

}  // namespace sibyl::storage
