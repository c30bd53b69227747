#pragma once
// Watches how full the node's data directory is (Cassandra 4.1's
// DiskUsageMonitor): every interval it measures the space the data takes and
// the space left, works out the usage (guardrails/disk_usage.h), checks
// local_data_disk_usage, logging a violation (at most once per notify
// interval), and hands the resulting state to its listener, which tells the
// coordinator and, through the heartbeats, the other nodes.
//
//   DiskUsageMonitor monitor(guardrails, DiskUsageMonitor::OfDirectory(dir),
//                            [&](DiskUsageState s) { states.SetLocal(s); },
//                            std::chrono::seconds(30));
//   monitor.Start();  ...  monitor.Stop();
//
// What counts as used: every file under the data directory (tables, the
// write-ahead log, hints and schema kept there). Cassandra counts its live
// SSTables plus its memtables, which are to be flushed; Sibyl's write-ahead
// log lives beside its tables and holds what the memtables hold, so it
// stands for them.
//
// Measures even while the guardrail is off (the state is then
// NOT_AVAILABLE), so that the metrics always show the usage.
//
// Thread-safety: Start and Stop from one thread; CheckNow and last from
// any. The listener runs on the monitor's thread (or CheckNow's caller).

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "guardrails/disk_usage.h"
#include "guardrails/guardrails.h"

namespace sibyl::server {

class DiskUsageMonitor {
 public:
  // The data's size and the space left; nullopt when they cannot be read.
  using Measure = std::function<std::optional<guardrails::DiskSpace>()>;
  using Listener = std::function<void(guardrails::DiskUsageState)>;

  // What the last round found.
  struct Reading {
    guardrails::DiskSpace space;
    int64_t percent = 0;
    guardrails::DiskUsageState state = guardrails::DiskUsageState::kNotAvailable;
  };

  // REQUIRES: `guardrails` outlives the monitor; interval > 0.
  DiskUsageMonitor(const guardrails::Guardrails& guardrails, Measure measure, Listener listener,
                   std::chrono::milliseconds interval);
  ~DiskUsageMonitor();
  DiskUsageMonitor(const DiskUsageMonitor&) = delete;
  DiskUsageMonitor& operator=(const DiskUsageMonitor&) = delete;

  // The bytes of every regular file under `directory`, and the space
  // available to the node on its file system.
  static Measure OfDirectory(std::filesystem::path directory);

  // Checks now, then every interval on a thread of its own.
  void Start();
  // Stops the thread; idempotent.
  void Stop();
  // One round: measure, check, tell the listener.
  void CheckNow();
  // nullopt before the first round or while the measure fails.
  std::optional<Reading> last() const;

 private:
  const guardrails::Guardrails& guardrails_;
  const Measure measure_;
  const Listener listener_;
  const std::chrono::milliseconds interval_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;        // GUARDED_BY(mutex_)
  std::optional<Reading> last_;  // GUARDED_BY(mutex_)
  std::thread thread_;
};

}  // namespace sibyl::server
