#include "storage/rocksdb/commitlog_syncer.h"

#include <stdexcept>

#include "storage/data/storage_error.h"

namespace sibyl::storage {

CommitlogSyncer::CommitlogSyncer(rocksdb::DB& db, const EngineOptions& options)
    : db_(db), mode_(options.sync), period_(options.sync_period), window_(options.group_window) {
  if (mode_ == CommitlogSync::kPeriodic) {
    thread_ = std::thread([this] { RunPeriodic(); });
  } else if (mode_ == CommitlogSync::kGroup) {
    thread_ = std::thread([this] { RunGroup(); });
  }
}

CommitlogSyncer::~CommitlogSyncer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_syncer_.notify_all();
  if (thread_.joinable()) thread_.join();
  (void)SyncWal();  // best effort at a clean close; Open recovers either way
}

rocksdb::WriteOptions CommitlogSyncer::write_options(bool synced) const {
  rocksdb::WriteOptions options;
  options.sync = synced || mode_ == CommitlogSync::kBatch;
  return options;
}

rocksdb::Status CommitlogSyncer::SyncWal() { return db_.SyncWAL(); }

void CommitlogSyncer::AwaitDurable() {
  std::unique_lock lock(mutex_);
  if (mode_ == CommitlogSync::kGroup) {
    uint64_t ticket = ++written_;
    wake_syncer_.notify_one();
    synced_.wait(lock, [&] { return durable_ >= ticket || !failure_.empty() || stopping_; });
    if (durable_ >= ticket) return;
  }
  if (!failure_.empty()) throw StorageError("commit log sync", {}, failure_);
}

void CommitlogSyncer::RunPeriodic() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_syncer_.wait_for(lock, period_, [&] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    rocksdb::Status status = SyncWal();
    lock.lock();
    if (!status.ok()) failure_ = status.ToString();
  }
}

void CommitlogSyncer::RunGroup() {
  std::unique_lock lock(mutex_);
  auto last_sync = std::chrono::steady_clock::now() - window_;
  while (true) {
    wake_syncer_.wait(lock, [&] { return stopping_ || written_ > durable_; });
    if (stopping_) break;
    // At most one fsync per window: writers arriving meanwhile share it.
    auto due = last_sync + window_;
    if (std::chrono::steady_clock::now() < due) {
      wake_syncer_.wait_until(lock, due, [&] { return stopping_; });
      if (stopping_) break;
    }
    // Every write counted so far has completed its Write() before counting.
    uint64_t target = written_;
    lock.unlock();
    rocksdb::Status status = SyncWal();
    last_sync = std::chrono::steady_clock::now();
    lock.lock();
    if (status.ok()) {
      durable_ = target;
    } else {
      failure_ = status.ToString();
    }
    synced_.notify_all();
  }
  // Release waiters: the destructor's last fsync covers their writes.
  synced_.notify_all();
}

}  // namespace sibyl::storage
