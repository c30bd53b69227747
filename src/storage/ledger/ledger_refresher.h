#pragma once
// Tells the engine, on a thread of its own, which tables' files changed:
// a RocksDB listener that, for every flush and compaction of a column
// family, calls `refresh(family name, memtable_flushed)` — later, off
// RocksDB's background threads, which must not wait for the ledger's work;
// a family reported again before its refresh runs is refreshed once
// (`memtable_flushed` when any of its reports was a flush).
//
// Thread-safety: the listener's callbacks may come from any thread; Start and
// Stop from the owner's. After Stop, reports are dropped.

#include <rocksdb/listener.h>

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace sibyl::storage::ledger {

class LedgerRefresher final : public rocksdb::EventListener {
 public:
  explicit LedgerRefresher(
      std::function<void(const std::string& family, bool memtable_flushed)> refresh)
      : refresh_(std::move(refresh)) {}
  ~LedgerRefresher() override { Stop(); }

  void Start();
  void Stop();

  void OnFlushCompleted(rocksdb::DB* /*db*/, const rocksdb::FlushJobInfo& info) override {
    Report(info.cf_name, /*memtable_flushed=*/true);
  }
  void OnCompactionCompleted(rocksdb::DB* /*db*/, const rocksdb::CompactionJobInfo& info) override {
    Report(info.cf_name, /*memtable_flushed=*/false);
  }
  const char* Name() const override { return "SibylLedgerRefresher"; }

 private:
  void Report(const std::string& family, bool memtable_flushed);
  void Run();

  const std::function<void(const std::string&, bool)> refresh_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, bool> pending_;  // GUARDED_BY(mutex_): family → memtable flushed
  bool running_ = false;                 // GUARDED_BY(mutex_)
  std::thread thread_;
};

}  // namespace sibyl::storage::ledger
