#include "server/disk_usage_monitor.h"

#include <spdlog/spdlog.h>

#include <system_error>

namespace sibyl::server {
namespace {

// Files may vanish while they are counted (a compaction or a flush ending):
// those, and anything unreadable, are skipped.
uint64_t DirectoryBytes(const std::filesystem::path& directory) {
  uint64_t bytes = 0;
  std::error_code error;
  std::filesystem::recursive_directory_iterator it(
      directory, std::filesystem::directory_options::skip_permission_denied, error);
  for (; !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    std::error_code ignored;
    if (!it->is_regular_file(ignored)) continue;
    const uintmax_t size = it->file_size(ignored);
    if (!ignored) bytes += size;
  }
  return bytes;
}

}  // namespace

DiskUsageMonitor::DiskUsageMonitor(const guardrails::Guardrails& guardrails, Measure measure,
                                   Listener listener, std::chrono::milliseconds interval)
    : guardrails_(guardrails),
      measure_(std::move(measure)),
      listener_(std::move(listener)),
      interval_(interval) {}

DiskUsageMonitor::~DiskUsageMonitor() { Stop(); }

DiskUsageMonitor::Measure DiskUsageMonitor::OfDirectory(std::filesystem::path directory) {
  return [directory = std::move(directory)]() -> std::optional<guardrails::DiskSpace> {
    std::error_code error;
    const std::filesystem::space_info space = std::filesystem::space(directory, error);
    if (error) return std::nullopt;
    return guardrails::DiskSpace{.used_bytes = DirectoryBytes(directory),
                                 .available_bytes = space.available};
  };
}

void DiskUsageMonitor::Start() {
  CheckNow();
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
      lock.unlock();
      CheckNow();
      lock.lock();
    }
  });
}

void DiskUsageMonitor::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DiskUsageMonitor::CheckNow() {
  const std::optional<guardrails::DiskSpace> space = measure_();
  if (!space) {
    spdlog::warn("Disk usage: cannot measure the data directory; keeping the last state");
    return;
  }
  Reading reading{.space = *space,
                  .percent = guardrails::DiskUsagePercent(*space, guardrails_.MaxDiskSize())};
  reading.state = guardrails_.ClassifyDiskUsage(reading.percent);
  if (const auto violation = guardrails_.CheckLocalDiskUsage(reading.percent)) {
    if (violation->failed) {
      spdlog::error("{}", violation->message);
    } else {
      spdlog::warn("{}", violation->message);
    }
  }
  std::optional<guardrails::DiskUsageState> previous;
  {
    std::lock_guard lock(mutex_);
    if (last_) previous = last_->state;
    last_ = reading;
  }
  if (previous != reading.state) {
    spdlog::info("Disk usage {}% ({} bytes used, {} available): {}", reading.percent,
                 space->used_bytes, space->available_bytes,
                 guardrails::DiskUsageStateName(reading.state));
  }
  if (listener_) listener_(reading.state);
}

std::optional<DiskUsageMonitor::Reading> DiskUsageMonitor::last() const {
  std::lock_guard lock(mutex_);
  return last_;
}

}  // namespace sibyl::server
