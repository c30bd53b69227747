#pragma once
// When each operation of a fixed-rate run is meant to start.
//
// Operation n (numbered from 0 over all connections) is due at
// start + n / rate. The load generator sends it at that time or, when it is
// behind (every request slot busy), as soon as it can, and measures its
// latency from the intended time rather than the send time: a server that
// stalls then shows the queue it caused in the percentiles, instead of the
// client quietly waiting and sending fewer requests ("coordinated omission").

#include <chrono>
#include <cstdint>

namespace sibyl::tools {

class FixedRateSchedule {
 public:
  using Clock = std::chrono::steady_clock;

  // REQUIRES: ops_per_second > 0.
  FixedRateSchedule(Clock::time_point start, double ops_per_second);

  // start + n / rate, rounded to the nanosecond.
  [[nodiscard]] Clock::time_point IntendedStart(uint64_t n) const;
  double ops_per_second() const { return ops_per_second_; }
  Clock::time_point start() const { return start_; }

 private:
  Clock::time_point start_;
  double ops_per_second_;
  double nanos_per_op_;
};

}  // namespace sibyl::tools
