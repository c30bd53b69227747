#pragma once
// A distribution of one measure of partitions (bytes, rows, cells,
// tombstones) as Cassandra's EstimatedHistogram keeps it: bucket i counts
// values in (offset[i-1], offset[i]] (estimated_histogram_offsets.h), so a percentile is answered
// within 20% and two histograms add up bucket by bucket. Exact count, minimum and maximum are kept
// beside the buckets. What `system_views.partition_stats` and `tablehistograms` show.
//
// Not thread-safe: a value type, built by one thread and then shared const.

#include <array>
#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "storage/stats/estimated_histogram_offsets.h"

namespace sibyl::storage::ledger {

class MeasureHistogram {
 public:
  // 150 buckets reach ~7.6e11; larger values land in the last bucket.
  static constexpr int kBuckets = static_cast<int>(kEstimatedHistogramOffsets);

  void Add(uint64_t value);
  void Merge(const MeasureHistogram& other);
  // Takes back one Add(value). The minimum stays as it was (it may then be
  // lower than any value left): the ledger removes a partition's pieces only
  // to add their sum, never below them.
  void Remove(uint64_t value);

  uint64_t count() const { return count_; }
  // 0 when empty.
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  // The upper bound of the bucket holding the `fraction` (0..1] quantile, as
  // EstimatedHistogram.percentile answers (never above max()); 0 when empty.
  uint64_t Percentile(double fraction) const;

  // A compact form for an SSTable's user properties; nullopt when malformed.
  void AppendEncoded(Bytes& out) const;
  static std::optional<MeasureHistogram> Decode(BytesView& in);

  static uint64_t BucketOffset(int bucket);

  friend bool operator==(const MeasureHistogram&, const MeasureHistogram&) = default;

 private:
  static int BucketOf(uint64_t value);

  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

}  // namespace sibyl::storage::ledger
