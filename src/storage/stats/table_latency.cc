#include "storage/stats/table_latency.h"

#include <algorithm>
#include <cmath>

#include "storage/stats/estimated_histogram_offsets.h"

namespace sibyl::storage {

const std::array<uint64_t, TableLatency::kBoundedBuckets>& TableLatency::BucketBounds() {
  static const std::array<uint64_t, kBoundedBuckets> bounds = [] {
    std::array<uint64_t, kBoundedBuckets> out{};
    for (size_t i = 0; i < kBoundedBuckets; ++i) out[i] = EstimatedHistogramOffset(i);
    return out;
  }();
  return bounds;
}

void TableLatency::Observe(std::chrono::nanoseconds elapsed) noexcept {
  const uint64_t micros =
      elapsed.count() <= 0 ? 0 : static_cast<uint64_t>((elapsed.count() + 999) / 1000);
  const auto& bounds = BucketBounds();
  const size_t bucket =
      static_cast<size_t>(std::lower_bound(bounds.begin(), bounds.end(), micros) - bounds.begin());
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  total_micros_.fetch_add(micros, std::memory_order_relaxed);
  uint64_t low = min_micros_.load(std::memory_order_relaxed);
  while (micros < low &&
         !min_micros_.compare_exchange_weak(low, micros, std::memory_order_relaxed)) {
  }
  uint64_t high = max_micros_.load(std::memory_order_relaxed);
  while (micros > high &&
         !max_micros_.compare_exchange_weak(high, micros, std::memory_order_relaxed)) {
  }
}

TableLatency::Snapshot TableLatency::snapshot() const noexcept {
  Snapshot out;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    out.buckets[i] = buckets_[i].load(std::memory_order_relaxed);
    out.count += out.buckets[i];
  }
  out.total_micros = total_micros_.load(std::memory_order_relaxed);
  if (out.count > 0) {
    out.min_micros = min_micros_.load(std::memory_order_relaxed);
    out.max_micros = max_micros_.load(std::memory_order_relaxed);
    // An observation counted in a bucket but not yet in the extremes.
    if (out.min_micros > out.max_micros) out.min_micros = out.max_micros;
  }
  return out;
}

uint64_t TableLatency::Snapshot::Percentile(double fraction) const {
  if (count == 0) return 0;
  const auto rank = static_cast<uint64_t>(std::ceil(static_cast<double>(count) * fraction));
  uint64_t seen = 0;
  const auto& bounds = BucketBounds();
  for (size_t i = 0; i < kBoundedBuckets; ++i) {
    seen += buckets[i];
    if (seen >= std::max<uint64_t>(rank, 1)) return std::min(bounds[i], max_micros);
  }
  return max_micros;
}

}  // namespace sibyl::storage
