#include "storage/ledger/ledger_refresher.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace sibyl::storage::ledger {

void LedgerRefresher::Start() {
  std::lock_guard lock(mutex_);
  if (running_) return;
  running_ = true;
  thread_ = std::thread([this] { Run(); });
}

void LedgerRefresher::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    running_ = false;
    pending_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

void LedgerRefresher::Report(const std::string& family, bool memtable_flushed) {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    pending_[family] |= memtable_flushed;
  }
  wake_.notify_one();
}

void LedgerRefresher::Run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return !running_ || !pending_.empty(); });
    if (!running_) return;
    const auto [family, memtable_flushed] = *pending_.begin();
    pending_.erase(pending_.begin());
    lock.unlock();
    try {
      refresh_(family, memtable_flushed);
    } catch (const std::exception& e) {
      // The ledger keeps its last figures; the next flush tries again.
      spdlog::warn("large-data ledger: cannot measure table {}: {}", family, e.what());
    }
    lock.lock();
  }
}

}  // namespace sibyl::storage::ledger
