#include "tools/stress/fixed_rate_schedule.h"

#include <cmath>

#include "common/check.h"

namespace sibyl::tools {

FixedRateSchedule::FixedRateSchedule(Clock::time_point start, double ops_per_second)
    : start_(start), ops_per_second_(ops_per_second), nanos_per_op_(1e9 / ops_per_second) {
  SIBYL_CHECK(ops_per_second > 0);
}

FixedRateSchedule::Clock::time_point FixedRateSchedule::IntendedStart(uint64_t n) const {
  // A double holds n * interval exactly enough: 2^53 ns is over 100 days.
  const auto offset = std::llround(static_cast<double>(n) * nanos_per_op_);
  return start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(offset));
}

}  // namespace sibyl::tools
