#include "guardrails/disk_usage.h"

#include <algorithm>
#include <iterator>

namespace sibyl::guardrails {

namespace {

// By DiskUsageState value: the enum constant's name, and its toString().
struct StateNames {
  std::string_view name;
  std::string_view text;
};
constexpr StateNames kStateNames[] = {
    {"NOT_AVAILABLE", "Not Available"},
    {"SPACIOUS", "Spacious"},
    {"STUFFED", "Stuffed"},
    {"FULL", "Full"},
};

const StateNames& NamesOf(DiskUsageState state) {
  const auto index = static_cast<size_t>(state);
  return index < std::size(kStateNames) ? kStateNames[index] : kStateNames[0];
}

}  // namespace

std::string_view DiskUsageStateName(DiskUsageState state) { return NamesOf(state).name; }

std::string_view DiskUsageStateText(DiskUsageState state) { return NamesOf(state).text; }

int64_t DiskUsagePercent(const DiskSpace& space, std::optional<uint64_t> max_disk_size) {
  // 128-bit arithmetic: used + available can pass 2^64 on no real file
  // system, but used * 100000 can on a large one.
  using Wide = unsigned __int128;
  Wide total = static_cast<Wide>(space.used_bytes) + space.available_bytes;
  if (max_disk_size) total = std::min<Wide>(total, *max_disk_size);
  if (total == 0) return 100;
  // ceil(used / total, 5 decimals) in units of 1/100000, then ceil(x / 1000) percent.
  const Wide ratio_e5 = (static_cast<Wide>(space.used_bytes) * 100000 + total - 1) / total;
  return static_cast<int64_t>((ratio_e5 + 999) / 1000);
}

}  // namespace sibyl::guardrails
