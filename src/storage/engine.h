#pragma once
// The replica's storage engine: one RocksDB database per node, one column
// family per table (so DROP and TRUNCATE are cheap and each table's options
// map onto its own column family). See docs/dev/storage.md for the key and
// value layout and the reconciliation rules.
//
//   auto engine = Engine::Open({.directory = data_dir / "data"}, clock);
//   engine->SyncTables(layouts);          // at start and after every schema change
//   engine->Apply(mutation);              // atomic, durable per the sync mode
//   ReadResult r = engine->Read(command);
//   std::vector<Mutation> u = engine->ReadUnfiltered(command);  // read repair
//
// Thread-safety: every method may be called from any thread concurrently.
// Apply() in batch/group mode blocks the calling thread until the write is
// fsynced (concurrent writers share one fsync); in periodic mode it returns
// once the write is in the memtable and the write-ahead log's OS buffer.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "storage/data/mutation.h"
#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"
#include "storage/ledger/large_data_ledger.h"
#include "storage/stats/table_latency.h"

namespace sibyl::storage {

enum class CommitlogSync {
  kPeriodic,  // fsync every `sync_period`; acknowledged writes may be lost on power loss
  kBatch,     // fsync before acknowledging
  kGroup,     // as batch, waiting up to `group_window` to gather more writers
};

struct EngineOptions {
  std::filesystem::path directory;  // created if missing
  CommitlogSync sync = CommitlogSync::kPeriodic;
  std::chrono::milliseconds sync_period{10000};  // commitlog_sync_period (Cassandra 4.1: 10s)
  std::chrono::milliseconds group_window{15};    // commitlog_sync_group_window
  size_t block_cache_bytes = 64 << 20;
};

// What the engine reports about itself for the metrics endpoint
// (docs/metrics.md) and `sibyl admin tablestats` / `tablehistograms`
// (docs/admin.md), read from RocksDB's properties and its SSTables' table
// properties when asked; only the local latencies are counted on the read
// and write paths.
struct TableStorageStatistics {
  types::Uuid table_id;             // a table's, a view's or an index's (TableLayout::id)
  uint64_t memtable_bytes = 0;      // rocksdb.cur-size-all-mem-tables: active and unflushed
  uint64_t sstable_bytes = 0;       // rocksdb.total-sst-files-size: every version's files
  uint64_t live_sstable_bytes = 0;  // rocksdb.live-sst-files-size: the current version's
  std::vector<uint64_t> sstables_per_level;  // rocksdb.num-files-at-level<N>
  uint64_t live_versions = 0;  // rocksdb.num-live-versions: >1 while iterators pin old files
  uint64_t pending_compaction_bytes = 0;  // rocksdb.estimate-pending-compaction-bytes
  uint64_t compaction_read_bytes = 0;     // rocksdb.cfstats compaction.Sum.ReadGB, in bytes
  uint64_t compaction_written_bytes = 0;  // rocksdb.cfstats compaction.Sum.WriteGB, in bytes
  // rocksdb.num-entries-active-mem-table + num-entries-imm-mem-tables: the
  // entries (cells, row markers, tombstones) written to the memtables.
  uint64_t memtable_entries = 0;
  uint64_t immutable_memtables = 0;  // rocksdb.num-immutable-mem-table: waiting for flush
  // Summed over the live SSTables' table properties, as the large-data
  // ledger read them after the table's last flush or compaction:
  uint64_t sstable_data_bytes = 0;  // data blocks as written (compressed)
  uint64_t sstable_raw_bytes = 0;   // keys and values before compression
  uint64_t filter_bytes = 0;        // bloom filter blocks
  // Engine reads (Read) and writes (Apply, ApplyAll: the whole write, its
  // wait for the commit log included, counted for each table it touches)
  // since the engine opened; a truncated table keeps them, a dropped one
  // loses them.
  TableLatency::Snapshot read_latency;
  TableLatency::Snapshot write_latency;

  uint64_t sstables() const {
    uint64_t n = 0;
    for (uint64_t files : sstables_per_level) n += files;
    return n;
  }
};

struct StorageStatistics {
  std::vector<TableStorageStatistics> tables;
  uint64_t running_compactions = 0;  // rocksdb.num-running-compactions
  uint64_t running_flushes = 0;      // rocksdb.num-running-flushes
  uint64_t block_cache_capacity_bytes = 0;
  uint64_t block_cache_usage_bytes = 0;   // entries in the cache, pinned ones included
  uint64_t block_cache_pinned_bytes = 0;  // entries in use by readers
};

class Engine {
 public:
  // Opens (creating if needed) the database in options.directory. Throws
  // std::runtime_error naming the directory and RocksDB's reason.
  static std::unique_ptr<Engine> Open(const EngineOptions& options, Clock& clock);
  virtual ~Engine() = default;

  // Makes the set of stored tables `tables`: creates column families for new
  // tables, applies changed options, drops those of tables not listed (their
  // data is gone). Throws std::runtime_error when RocksDB refuses.
  virtual void SyncTables(const std::vector<TableLayout>& tables) = 0;

  // Applies every change of `mutation` atomically. Throws
  // std::runtime_error for an unknown table and when the write fails.
  virtual void Apply(const Mutation& mutation) = 0;
  // Applies several mutations (of any tables) as one atomic write.
  virtual void ApplyAll(const std::vector<const Mutation*>& mutations) = 0;
  // As ApplyAll, and fsynced before it returns whatever the sync mode: what
  // must survive a crash from the moment it is acknowledged (a Paxos
  // promise or acceptance, cluster/paxos/paxos_store.h).
  virtual void ApplyAllSynced(const std::vector<const Mutation*>& mutations) = 0;

  // Reconciled, live data. Throws std::runtime_error for an unknown table.
  virtual ReadResult Read(const ReadCommand& command) const = 0;

  // What this replica holds that decides `command`'s answer, tombstones
  // included: what a replica sends when the coordinator reconciles replicas
  // whose digests disagree (Cassandra's unfiltered partitions). One Mutation
  // per partition that has anything, in the order Read gives partitions.
  // For each partition named (or in the token range):
  //  * the partition deletion;
  //  * every range tombstone overlapping a slice (clustering_order.h,
  //    ClusteringRangesOverlap), whole: not clipped to the slices;
  //  * the static row, when a requested column is static: its marker, its
  //    deletion, and the requested static columns' collection deletions
  //    and cells;
  //  * every row in the slices: marker, row deletion, and the collection
  //    deletions and cells of EVERY regular column, requested or not, since
  //    a row lives while any of its cells does (CASSANDRA-10657);
  //  * cells as stored: the winning version with its timestamp, TTL and
  //    local deletion time — live values, counters (as stored: the merged
  //    delta or shards, counter_context.h), tombstones, and expired cells. An expired cell comes as
  //    it is stored: still an expiring cell (dead at now_seconds), or the
  //    tombstone (timestamp, expiry - ttl) compaction made of it. It is not
  //    converted on read as Cassandra's read path does: the conversion
  //    changes how the cell reconciles with another expiring version of the
  //    same timestamp (a tombstone beats it), so the merged answer could
  //    differ from the reconciliation of all writes.
  // Left out:
  //  * data shadowed by a deletion the replica holds (partition, covering
  //    range tombstone, row, collection; a deletion shadowed by an outer one
  //    too): it is dead, and the deletion, or a stronger one, is returned
  //    unless purgeable;
  //  * purgeable tombstones, as Cassandra's read path purges them
  //    (ReadCommand.withoutPurgeableTombstones), with gc_before =
  //    now_seconds - gc_grace_seconds: a deletion or cell tombstone whose
  //    local_deletion_time < gc_before, an expired cell whose write time
  //    (expiry - ttl) < gc_before, an expired row marker whose expiry <
  //    gc_before. Compaction may already have removed them; omitting them
  //    on read keeps compacted and uncompacted replicas' answers equal.
  //    Repairing within gc_grace is the operator's contract, as in Cassandra;
  //  * cells of dropped columns.
  // The limits, resume_after and `reversed` are ignored: the coordinator
  // asks this only for the slices of a single-partition read (token ranges
  // work too, unbounded). Rows come in clustering order.
  //
  // The contract (read_repair_randomized_test.cc): when replicas together
  // received every write and nothing was purgeable, merging their answers
  // (mutation_merge.h) and applying the merge to an empty engine gives the
  // same Read(command) as one engine that received every write. For counter
  // tables only when the counters are shards: merging two replicas' deltas
  // adds them.
  // Throws std::runtime_error for an unknown table.
  virtual std::vector<Mutation> ReadUnfiltered(const ReadCommand& command) const = 0;

  // Removes every row of the table (TRUNCATE), durably.
  virtual void Truncate(const types::Uuid& table_id) = 0;

  // Forces memtables to disk and compacts (tests, nodetool-like commands).
  virtual void Flush() = 0;
  // Writes the table's memtables to SSTables and syncs the commit log, as
  // `nodetool flush` does for one table; returns once both are done.
  // Throws std::runtime_error for an unknown table and when RocksDB fails.
  virtual void Flush(const types::Uuid& table_id) = 0;
  virtual void Compact(const types::Uuid& table_id) = 0;

  // The large-data ledger (ledger/large_data_ledger.h): each table's large
  // partitions, rows and cells as its live SSTables measure them, current
  // after every flush and compaction. An engine without SSTables has none:
  // null, and FindLargePartition answers nullopt.
  virtual std::shared_ptr<const ledger::LedgerSnapshot> LargeData() const { return nullptr; }
  // The ledger's figures for one partition, when it is large enough for a
  // file to have named it. Cheap while no table has a named partition.
  virtual std::optional<ledger::PartitionFigures> FindLargePartition(
      const types::Uuid& /*table_id*/, const PartitionKey& /*key*/) const {
    return std::nullopt;
  }

  // The engine's sizes and activity now. An engine without RocksDB under it
  // (the reference engine of tests) has none to give and returns it empty.
  virtual StorageStatistics Statistics() const { return {}; }
};

}  // namespace sibyl::storage
