#pragma once
// Durability of acknowledged writes, Cassandra's commitlog_sync modes on
// RocksDB's write-ahead log:
//
//   periodic  writes go to the WAL's OS buffer (WriteOptions.sync = false);
//             a background thread fsyncs the WAL every sync_period. A crash
//             of the process loses nothing (the OS has the bytes); a power
//             loss may lose up to one period.
//   batch     every write is fsynced before Apply returns (sync = true);
//             RocksDB's write group lets concurrent writers share one fsync.
//   group     writes go to the OS buffer, then wait for a shared fsync that
//             the background thread issues at most once per group_window:
//             fewer, larger fsyncs than batch, at the cost of up to one
//             window of latency.
//
// Thread-safety: every method may be called from any thread.

#include <rocksdb/db.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "storage/engine.h"

namespace sibyl::storage {

class CommitlogSyncer {
 public:
  // `db` must outlive the syncer.
  CommitlogSyncer(rocksdb::DB& db, const EngineOptions& options);
  ~CommitlogSyncer();  // stops the thread after a last fsync
  CommitlogSyncer(const CommitlogSyncer&) = delete;
  CommitlogSyncer& operator=(const CommitlogSyncer&) = delete;

  // A write's options: fsynced before it returns in batch mode, or when
  // `synced` (Engine::ApplyAllSynced) whatever the mode.
  rocksdb::WriteOptions write_options(bool synced) const;
  // Whether a write made with write_options(synced) must still
  // AwaitDurable: not when it was fsynced itself.
  bool needs_await(bool synced) const { return !synced || mode_ != CommitlogSync::kGroup; }
  // Called after every successful write: returns once the write is as
  // durable as the mode promises. Throws std::runtime_error when an fsync
  // failed (the write may not be durable).
  void AwaitDurable();

 private:
  void RunPeriodic();
  void RunGroup();
  // REQUIRES: mutex_ not held.
  rocksdb::Status SyncWal();

  rocksdb::DB& db_;
  const CommitlogSync mode_;
  const std::chrono::milliseconds period_;
  const std::chrono::milliseconds window_;

  std::mutex mutex_;
  std::condition_variable wake_syncer_;
  std::condition_variable synced_;
  bool stopping_ = false;  // GUARDED_BY(mutex_)
  uint64_t written_ = 0;   // GUARDED_BY(mutex_): writes that await an fsync
  uint64_t durable_ = 0;   // GUARDED_BY(mutex_): writes known fsynced
  std::string failure_;    // GUARDED_BY(mutex_): the last fsync error
  std::thread thread_;
};

}  // namespace sibyl::storage
