#pragma once
// The latency of one kind of local operation on one table (a read or a
// write of the engine), as nodetool's tablestats and tablehistograms show
// it: a count, the total time, the exact minimum and maximum, and a
// histogram of buckets growing by about 20% from 1µs to over a minute,
// whose upper bounds are what a percentile reports (as Cassandra's
// EstimatedHistogram does: the 99th percentile of 1,234µs reads "1331").
//
//   TableLatency latency;
//   latency.Observe(std::chrono::microseconds(1234));
//   TableLatency::Snapshot s = latency.snapshot();
//   s.Percentile(0.99);  // the upper bound of the bucket holding it, in µs
//
// Counted since the node started; Cassandra's decay over the last minutes
// is not reproduced. Observe() is a binary search over the bounds and a few
// relaxed atomic operations: no lock, no allocation.
//
// Thread-safety: every method from any thread. A snapshot taken while
// others observe may count an observation in one figure and not yet in
// another.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace sibyl::storage {

class TableLatency {
 public:
  // Upper bounds of the buckets, in microseconds: 1, 2, ... then each about
  // 20% above the one before, up to BucketBounds().back() (over 60 seconds).
  // One more bucket holds what is above.
  static constexpr size_t kBoundedBuckets = 100;
  static const std::array<uint64_t, kBoundedBuckets>& BucketBounds();

  struct Snapshot {
    std::array<uint64_t, kBoundedBuckets + 1> buckets{};  // not cumulative; the last: overflow
    uint64_t count = 0;
    uint64_t total_micros = 0;
    uint64_t min_micros = 0;  // 0 when count is 0
    uint64_t max_micros = 0;

    // The upper bound of the bucket holding the observation at `fraction`
    // (0 < fraction <= 1) of the sorted observations, in µs, or the exact
    // maximum when that is lower (or the bucket is the overflow). 0 when
    // count is 0.
    [[nodiscard]] uint64_t Percentile(double fraction) const;
  };

  void Observe(std::chrono::nanoseconds elapsed) noexcept;
  [[nodiscard]] Snapshot snapshot() const noexcept;

 private:
  std::array<std::atomic<uint64_t>, kBoundedBuckets + 1> buckets_{};
  std::atomic<uint64_t> total_micros_{0};
  std::atomic<uint64_t> min_micros_{std::numeric_limits<uint64_t>::max()};
  std::atomic<uint64_t> max_micros_{0};
};

}  // namespace sibyl::storage
