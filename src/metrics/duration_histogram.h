#pragma once
// A latency distribution as a Prometheus histogram with one fixed set of
// buckets, from 100µs to 10s (a point read served from memory takes some
// hundred µs; a write waiting for a quorum through a timeout, seconds):
//
//   le (seconds): 0.0001 0.00025 0.0005 0.001 0.0025 0.005 0.01 0.025 0.05
//                 0.1 0.25 0.5 1 2.5 5 10 +Inf
//
// Every histogram shares the buckets, so histogram_quantile may aggregate
// across labels. Observe() is a few comparisons and two relaxed atomic adds:
// no lock, no allocation.
//
// Thread-safety: every method from any thread. A snapshot taken while
// others observe may count an observation in its buckets and not yet in its
// sum; `count` is the sum of the buckets, so the +Inf bucket always equals it.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace sibyl::metrics {

class DurationHistogram {
 public:
  // The buckets' upper bounds, in nanoseconds; the +Inf bucket follows.
  static constexpr std::array<uint64_t, 16> kBoundsNanos = {
      100'000,       250'000,       500'000,       1'000'000,     2'500'000,   5'000'000,
      10'000'000,    25'000'000,    50'000'000,    100'000'000,   250'000'000, 500'000'000,
      1'000'000'000, 2'500'000'000, 5'000'000'000, 10'000'000'000};
  static constexpr size_t kBuckets = kBoundsNanos.size() + 1;  // with +Inf

  struct Snapshot {
    // Cumulative, as Prometheus wants them: cumulative[i] counts the
    // observations <= kBoundsNanos[i]; the last is +Inf, equal to count.
    std::array<uint64_t, kBuckets> cumulative{};
    uint64_t count = 0;
    double sum_seconds = 0;
  };

  void Observe(std::chrono::nanoseconds elapsed) noexcept {
    const uint64_t nanos = elapsed.count() < 0 ? 0 : static_cast<uint64_t>(elapsed.count());
    size_t i = 0;
    while (i < kBoundsNanos.size() && nanos > kBoundsNanos[i]) ++i;
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    sum_nanos_.fetch_add(nanos, std::memory_order_relaxed);
  }

  Snapshot snapshot() const noexcept;

 private:
  std::array<std::atomic<uint64_t>, kBuckets> buckets_{};  // not cumulative
  std::atomic<uint64_t> sum_nanos_{0};  // wraps after 584 years of summed latency
};

}  // namespace sibyl::metrics
