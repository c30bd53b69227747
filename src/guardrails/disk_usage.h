#pragma once
// Disk usage as the disk-usage guardrails see it (Cassandra 4.1's
// DiskUsageMonitor and DiskUsageState):
//
//   usage = used / min(used + available, data_disk_usage_max_disk_size)
//
// where `used` is the space the node's data takes and `available` the free
// space of the file system holding it. The percentage is rounded up, then
// compared with local_data_disk_usage's thresholds (the keys
// data_disk_usage_percentage_warn/fail_threshold): over the fail threshold
// the node is FULL, over the warn threshold STUFFED, else SPACIOUS; with
// both thresholds off, NOT_AVAILABLE. Each node tells the others its state
// (in its heartbeats), and a coordinator warns about or refuses a write
// whose replicas are STUFFED or FULL (replica_disk_usage).

#include <cstdint>
#include <optional>
#include <string_view>

namespace sibyl::guardrails {

// On the wire in heartbeats: do not change the values.
enum class DiskUsageState : uint8_t {
  kNotAvailable = 0,  // the guardrail is off, or the state is not known yet
  kSpacious = 1,      // under the warn threshold
  kStuffed = 2,       // over the warn threshold, under the fail threshold
  kFull = 3,          // over the fail threshold
};

// Cassandra's enum constant name, as gossip carries it: "NOT_AVAILABLE",
// "SPACIOUS", "STUFFED", "FULL".
std::string_view DiskUsageStateName(DiskUsageState state);
// Cassandra's toString(), as the local guardrail's message shows it:
// "Not Available", "Spacious", "Stuffed", "Full".
std::string_view DiskUsageStateText(DiskUsageState state);

inline bool IsStuffedOrFull(DiskUsageState state) {
  return state == DiskUsageState::kStuffed || state == DiskUsageState::kFull;
}

// What the data takes and what remains, in bytes.
struct DiskSpace {
  uint64_t used_bytes = 0;
  uint64_t available_bytes = 0;
};

// The usage in percent, rounded up (Cassandra rounds the ratio up to five
// decimals, then the percentage up to an integer). The total is capped at
// `max_disk_size` when given; over 100 when the data takes more than that.
// A total of zero counts as 100%.
[[nodiscard]] int64_t DiskUsagePercent(const DiskSpace& space,
                                       std::optional<uint64_t> max_disk_size);

}  // namespace sibyl::guardrails
