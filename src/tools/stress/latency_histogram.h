#pragma once
// A high-dynamic-range latency histogram in the spirit of HdrHistogram:
// log-linear buckets, so the relative error is bounded at every scale.
//
//   * values (nanoseconds) below 2^kSubBits get a bucket each (exact);
//   * every power of two above that, [2^e, 2^(e+1)), is split into
//     2^kSubBits linear buckets of width 2^(e - kSubBits).
//
// With kSubBits = 7 a value is known to within 1/128 (< 0.8%): two to three
// significant digits from nanoseconds up to the largest value tracked
// (2^kMaxExponent+1 ns, about 6.5 days; larger values are clamped into the
// top bucket, but max() stays exact). Recording is a bit scan, a shift and an
// increment, with no allocation; the bucket array is allocated once
// (~47 KiB). Not thread-safe: keep one per thread and Merge().

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sibyl::tools {

class LatencyHistogram {
 public:
  LatencyHistogram();

  void Record(uint64_t value) {
    ++counts_[Index(value)];
    ++count_;
    sum_ += value;
    if (value > max_) max_ = value;
    if (value < min_) min_ = value;
  }
  void Merge(const LatencyHistogram& other);
  void Reset();

  uint64_t count() const { return count_; }
  // 0 when empty.
  uint64_t max() const { return max_; }
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  double mean() const { return count_ == 0 ? 0 : static_cast<double>(sum_) / count_; }

  // The value at percentile `p` (0 < p <= 100): the smallest recorded value v
  // such that at least p% of the values are <= v, reported as the highest
  // value of v's bucket (but never above max() nor below min()), so it is at
  // most 1/128 above the exact answer. 0 when empty.
  [[nodiscard]] uint64_t ValueAtPercentile(double p) const;

  // The bucket layout, exposed for tests.
  static constexpr int kSubBits = 7;
  static constexpr int kMaxExponent = 52;
  static size_t Index(uint64_t value);
  // The largest value that falls into bucket `index`.
  static uint64_t BucketHigh(size_t index);

 private:
  static constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBits;
  static constexpr size_t kBuckets = kSubBuckets * (kMaxExponent - kSubBits + 2);

  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
  uint64_t min_ = UINT64_MAX;
};

}  // namespace sibyl::tools
