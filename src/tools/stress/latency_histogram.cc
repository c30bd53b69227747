#include "tools/stress/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace sibyl::tools {

LatencyHistogram::LatencyHistogram() : counts_(kBuckets, 0) {}

size_t LatencyHistogram::Index(uint64_t value) {
  if (value < kSubBuckets) return static_cast<size_t>(value);
  int exponent = std::bit_width(value) - 1;  // >= kSubBits
  if (exponent > kMaxExponent) {
    exponent = kMaxExponent;
    value = (uint64_t{1} << (kMaxExponent + 1)) - 1;
  }
  const uint64_t sub = (value >> (exponent - kSubBits)) & (kSubBuckets - 1);
  // Row 0 holds the exact values; row r >= 1 is exponent kSubBits + r - 1.
  return static_cast<size_t>((static_cast<uint64_t>(exponent - kSubBits) + 1) * kSubBuckets + sub);
}

uint64_t LatencyHistogram::BucketHigh(size_t index) {
  if (index < kSubBuckets) return index;
  const int exponent = static_cast<int>(index / kSubBuckets) - 1 + kSubBits;
  const uint64_t sub = index % kSubBuckets;
  const uint64_t width = uint64_t{1} << (exponent - kSubBits);
  return (uint64_t{1} << exponent) + (sub + 1) * width - 1;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
  min_ = std::min(min_, other.min_);
}

void LatencyHistogram::Reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  sum_ = 0;
  max_ = 0;
  min_ = UINT64_MAX;
}

uint64_t LatencyHistogram::ValueAtPercentile(double p) const {
  if (count_ == 0) return 0;
  // The rank (1-based) of the value asked for, computed as the exact oracle
  // would: ceil(p/100 * n), at least 1 and at most n.
  const double exact = std::ceil(p / 100.0 * static_cast<double>(count_) - 1e-9);
  const uint64_t rank =
      std::clamp<uint64_t>(exact < 1 ? 1 : static_cast<uint64_t>(exact), 1, count_);
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      // The top bucket also holds the clamped values beyond its range.
      return i + 1 == kBuckets ? max_ : std::clamp(BucketHigh(i), min(), max_);
    }
  }
  return max_;
}

}  // namespace sibyl::tools
