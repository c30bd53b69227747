#pragma once
// The large-data ledger of a node: for each table, its partitions' figures
// summed over the table's live SSTables — the logical partition, not one
// file's piece of it, so a partition that grew past a threshold over several
// flushes is seen. Rebuilt from the files' user properties
// (ledger_properties_collector.h) after every flush and compaction of the
// table; compaction makes the sums exact (until then a row rewritten in two
// files counts twice).
//
// The memtable's share is counted on write, cheaply, for the partitions the
// files already name: the bytes each write adds (AddUnflushed), until the
// flush that puts them in a file. Only bytes: a memtable holds every
// rewrite of a row, so counting rows there would count a hot row many
// times. A partition written wholly since the last flush is named at that
// flush. docs/dev/storage.md, "The large-data ledger".
//
//   ledger.Rebuild(table_id, files, now_millis, flushed);  // after a flush/compaction
//   ledger.AddUnflushed(table_id, key, bytes);     // the engine, on each write
//   if (auto p = ledger.FindPartition(table_id, key)) ...;   // a statement's check
//   auto snapshot = ledger.Snapshot();             // system_views.large_partitions
//
// Thread-safety: every method may be called from any thread. Snapshots are
// immutable; FindPartition costs one atomic load while no table has a named
// partition; AddUnflushed the same, then one relaxed atomic addition.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "storage/data/mutation.h"
#include "storage/ledger/partition_figures.h"
#include "types/uuid.h"

namespace sibyl::storage::ledger {

// One table's figures.
struct TableLedger {
  types::Uuid table_id;
  // Partitions named by at least one file, with every file's figures for
  // them summed (largest row and collection: the largest of any file), in
  // key order.
  std::vector<PartitionFigures> partitions;
  std::vector<RowFigures> rows;    // rows named by a file, summed over files
  std::vector<CellFigures> cells;  // cells (the largest version) and collections (summed)
  PartitionHistograms histograms;  // every file's partitions
  uint64_t files = 0;
  uint64_t unmeasured_files = 0;  // files without (or with an unreadable) ledger property
  int64_t measured_at_millis = 0;
  // The files' RocksDB table properties, summed (Engine::Statistics).
  uint64_t data_bytes = 0;    // data blocks as written (compressed)
  uint64_t raw_bytes = 0;     // keys and values before compression
  uint64_t filter_bytes = 0;  // bloom filter blocks
  // Per partition (same index): the bytes written to it since the flush
  // these figures come from. Counted into a published ledger, hence mutable.
  mutable std::unique_ptr<std::atomic<uint64_t>[]> unflushed_bytes;

  // partitions[i] with the memtable's share.
  PartitionFigures Current(size_t i) const;
  // nullptr when the partition is not named.
  const PartitionFigures* FindPartition(BytesView prefix) const;
  PartitionFigures* FindPartition(BytesView prefix) {
    return const_cast<PartitionFigures*>(std::as_const(*this).FindPartition(prefix));
  }
};

struct LedgerSnapshot {
  std::map<types::Uuid, std::shared_ptr<const TableLedger>> tables;
};

// One live file of a table: its path (what identifies it), its
// kFileLedgerProperty value, if it has one, and RocksDB's sizes of it.
struct LedgerFile {
  std::string path;
  std::optional<BytesView> property;
  uint64_t data_bytes = 0;
  uint64_t raw_bytes = 0;
  uint64_t filter_bytes = 0;
};

class LargeDataLedger {
 public:
  // Makes `files` the table's live files. Decodes only files not seen before.
  // `memtable_flushed`: a flush wrote the memtable the unflushed counts are
  // of, and they start again from 0 — when `files` has a file not seen
  // before; else (a compaction, or a flush already counted) they are kept.
  void Rebuild(const types::Uuid& table_id, const std::vector<LedgerFile>& files,
               int64_t now_millis, bool memtable_flushed);
  // Counts `bytes` written to `key` into the memtable's share, when a file
  // names the partition.
  void AddUnflushed(const types::Uuid& table_id, const PartitionKey& key, uint64_t bytes);
  bool has_named_partitions() const {
    return named_partitions_.load(std::memory_order_acquire) != 0;
  }
  void Forget(const types::Uuid& table_id);

  std::shared_ptr<const LedgerSnapshot> Snapshot() const;
  // The partition's figures, the memtable's share included; nullopt when
  // no file names it.
  std::optional<PartitionFigures> FindPartition(const types::Uuid& table_id,
                                                const PartitionKey& key) const;

 private:
  // The named partition `key` of the table in `snapshot`, and its table.
  static std::pair<const TableLedger*, size_t> Locate(const LedgerSnapshot& snapshot,
                                                      const types::Uuid& table_id,
                                                      const PartitionKey& key);
  // REQUIRES: mutex_ held.
  void Publish(std::shared_ptr<const LedgerSnapshot> next);

  // Serializes Rebuild and Forget; readers load the snapshot without it.
  mutable std::mutex mutex_;
  std::atomic<std::shared_ptr<const LedgerSnapshot>> snapshot_{
      std::make_shared<const LedgerSnapshot>()};
  // Each table's files, decoded once; nullptr for a file not measured.
  std::map<types::Uuid, std::map<std::string, std::shared_ptr<const FileLedger>>>
      files_;                                // GUARDED_BY(mutex_)
  std::atomic<size_t> named_partitions_{0};  // over every table
};

// Sums files' ledgers into a table's (the part of Rebuild that needs no lock).
TableLedger SumFileLedgers(const types::Uuid& table_id,
                           const std::vector<std::shared_ptr<const FileLedger>>& files);

}  // namespace sibyl::storage::ledger
