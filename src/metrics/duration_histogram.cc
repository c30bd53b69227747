#include "metrics/duration_histogram.h"

namespace sibyl::metrics {

DurationHistogram::Snapshot DurationHistogram::snapshot() const noexcept {
  Snapshot out;
  uint64_t running = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    running += buckets_[i].load(std::memory_order_relaxed);
    out.cumulative[i] = running;
  }
  out.count = running;
  out.sum_seconds = static_cast<double>(sum_nanos_.load(std::memory_order_relaxed)) / 1e9;
  return out;
}

}  // namespace sibyl::metrics
