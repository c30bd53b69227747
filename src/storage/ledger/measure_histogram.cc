#include "storage/ledger/measure_histogram.h"

#include <algorithm>
#include <cmath>

#include "storage/ledger/ledger_codec.h"
#include "storage/stats/estimated_histogram_offsets.h"

namespace sibyl::storage::ledger {

uint64_t MeasureHistogram::BucketOffset(int bucket) {
  return EstimatedHistogramOffset(static_cast<size_t>(bucket));
}

int MeasureHistogram::BucketOf(uint64_t value) {
  // The first bucket whose bound is at least `value`; the last holds the rest.
  int low = 0, high = kBuckets - 1;
  while (low < high) {
    const int middle = (low + high) / 2;
    if (BucketOffset(middle) < value) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

void MeasureHistogram::Add(uint64_t value) {
  ++buckets_[BucketOf(value)];
  ++count_;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

void MeasureHistogram::Merge(const MeasureHistogram& other) {
  for (int i = 0; i < kBuckets; ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void MeasureHistogram::Remove(uint64_t value) {
  uint64_t& bucket = buckets_[BucketOf(value)];
  if (bucket == 0) return;
  --bucket;
  if (--count_ == 0) *this = MeasureHistogram();
}

uint64_t MeasureHistogram::Percentile(double fraction) const {
  if (count_ == 0) return 0;
  const auto wanted = static_cast<uint64_t>(std::ceil(static_cast<double>(count_) * fraction));
  if (wanted == 0) return min();
  uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += buckets_[i];
    if (seen >= wanted) return std::min(BucketOffset(i), max_);
  }
  return max_;
}

// count, min, max, then (bucket gap, count) for each non-empty bucket.
void MeasureHistogram::AppendEncoded(Bytes& out) const {
  AppendVarint(out, count_);
  AppendVarint(out, min());
  AppendVarint(out, max_);
  int used = 0;
  for (int i = 0; i < kBuckets; ++i) used += buckets_[i] != 0;
  AppendVarint(out, used);
  int last = 0;
  for (int i = 0; i < kBuckets; ++i) {
    if (buckets_[i] == 0) continue;
    AppendVarint(out, i - last);
    AppendVarint(out, buckets_[i]);
    last = i;
  }
}

std::optional<MeasureHistogram> MeasureHistogram::Decode(BytesView& in) {
  MeasureHistogram h;
  auto count = ReadVarint(in), min = ReadVarint(in), max = ReadVarint(in), used = ReadVarint(in);
  if (!count || !min || !max || !used || *used > kBuckets) return std::nullopt;
  uint64_t bucket = 0, total = 0;
  for (uint64_t i = 0; i < *used; ++i) {
    auto gap = ReadVarint(in), n = ReadVarint(in);
    if (!gap || !n) return std::nullopt;
    bucket += *gap;
    if (bucket >= kBuckets) return std::nullopt;
    h.buckets_[bucket] = *n;
    total += *n;
  }
  if (total != *count) return std::nullopt;
  h.count_ = *count;
  h.min_ = *count == 0 ? UINT64_MAX : *min;
  h.max_ = *max;
  return h;
}

}  // namespace sibyl::storage::ledger
