#pragma once
// A log-bucketed latency histogram for the load-generating benchmarks: each
// power of two is split into 32 linear sub-buckets, so a recorded value is
// known to within ~3%. Recording is an index computation and an increment;
// no allocation after construction. Not thread-safe: one per thread, merged.

#include <array>
#include <bit>
#include <cstdint>

namespace sibyl::bench {

class LatencyHistogram {
 public:
  void Record(uint64_t nanos) {
    ++counts_[Index(nanos)];
    ++total_;
    if (nanos > max_) max_ = nanos;
  }
  void Merge(const LatencyHistogram& other) {
    for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
    total_ += other.total_;
    if (other.max_ > max_) max_ = other.max_;
  }
  uint64_t count() const { return total_; }
  uint64_t max() const { return max_; }
  // The upper bound of the bucket holding the q-quantile (0 < q <= 1); 0 when empty.
  uint64_t Quantile(double q) const {
    if (total_ == 0) return 0;
    auto rank = static_cast<uint64_t>(q * static_cast<double>(total_) + 0.5);
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return UpperBound(i) < max_ ? UpperBound(i) : max_;
    }
    return max_;
  }

 private:
  static constexpr int kSubBits = 5;  // 32 sub-buckets per power of two
  static constexpr uint64_t kSub = 1u << kSubBits;
  static constexpr int kMaxExponent = 48;  // ~78 hours in nanoseconds: plenty

  // Values below kSub get one bucket each; above, bucket (exponent, top bits).
  static size_t Index(uint64_t v) {
    if (v < kSub) return static_cast<size_t>(v);
    int exponent = std::bit_width(v) - 1;  // >= kSubBits
    if (exponent > kMaxExponent) {
      exponent = kMaxExponent;
      v = (uint64_t{1} << (kMaxExponent + 1)) - 1;
    }
    const uint64_t sub = (v >> (exponent - kSubBits)) & (kSub - 1);
    return static_cast<size_t>(kSub + (exponent - kSubBits) * kSub + sub);
  }
  static uint64_t UpperBound(size_t index) {
    if (index < kSub) return index;
    const size_t exponent = (index - kSub) / kSub + kSubBits;
    const uint64_t sub = (index - kSub) % kSub;
    const uint64_t step = uint64_t{1} << (exponent - kSubBits);
    return (uint64_t{1} << exponent) + (sub + 1) * step - 1;
  }

  std::array<uint64_t, kSub + (kMaxExponent - kSubBits + 1) * kSub> counts_{};
  uint64_t total_ = 0;
  uint64_t max_ = 0;
};

}  // namespace sibyl::bench
