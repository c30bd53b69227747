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
//
// Thread-safety: every method may be called from any thread concurrently.
// Apply() in batch/group mode blocks the calling thread until the write is
// fsynced (concurrent writers share one fsync); in periodic mode it returns
// once the write is in the memtable and the write-ahead log's OS buffer.

#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "storage/mutation.h"
#include "storage/read_command.h"
#include "storage/table_layout.h"

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

  // Reconciled, live data. Throws std::runtime_error for an unknown table.
  virtual ReadResult Read(const ReadCommand& command) const = 0;

  // Removes every row of the table (TRUNCATE), durably.
  virtual void Truncate(const types::Uuid& table_id) = 0;

  // Forces memtables to disk and compacts (tests, nodetool-like commands).
  virtual void Flush() = 0;
  virtual void Compact(const types::Uuid& table_id) = 0;
};

}  // namespace sibyl::storage
