#include "storage/stats/table_latency.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace sibyl::storage {
namespace {

using std::chrono::microseconds;

TEST(TableLatencyTest, BoundsGrowByAboutAFifthUpToOverAMinute) {
  const auto& bounds = TableLatency::BucketBounds();
  EXPECT_EQ(bounds[0], 1u);
  EXPECT_EQ(bounds[1], 2u);
  for (size_t i = 1; i < bounds.size(); ++i) {
    EXPECT_GT(bounds[i], bounds[i - 1]);
    EXPECT_LE(bounds[i], bounds[i - 1] * 12 / 10 + 1);
  }
  EXPECT_GT(bounds.back(), 60'000'000u);
}

TEST(TableLatencyTest, EmptyHasNoFigures) {
  const TableLatency latency;
  const TableLatency::Snapshot s = latency.snapshot();
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.min_micros, 0u);
  EXPECT_EQ(s.max_micros, 0u);
  EXPECT_EQ(s.Percentile(0.5), 0u);
}

TEST(TableLatencyTest, CountsTotalsAndExtremes) {
  TableLatency latency;
  latency.Observe(microseconds(10));
  latency.Observe(microseconds(1000));
  latency.Observe(std::chrono::nanoseconds(1500));  // rounded up to 2µs
  const TableLatency::Snapshot s = latency.snapshot();
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.total_micros, 1012u);
  EXPECT_EQ(s.min_micros, 2u);
  EXPECT_EQ(s.max_micros, 1000u);
}

TEST(TableLatencyTest, PercentilesAreBucketBoundsCappedByTheMaximum) {
  TableLatency latency;
  for (int i = 0; i < 99; ++i) latency.Observe(microseconds(100));
  latency.Observe(microseconds(5000));
  const TableLatency::Snapshot s = latency.snapshot();
  const auto& bounds = TableLatency::BucketBounds();
  const uint64_t hundred_bound = *std::lower_bound(bounds.begin(), bounds.end(), 100u);
  EXPECT_GE(hundred_bound, 100u);
  EXPECT_LT(hundred_bound, 121u);
  EXPECT_EQ(s.Percentile(0.5), hundred_bound);
  EXPECT_EQ(s.Percentile(0.99), hundred_bound);
  // The last observation's bucket bound is above 5000µs; the maximum is exact.
  EXPECT_EQ(s.Percentile(1.0), 5000u);
}

TEST(TableLatencyTest, AboveEveryBoundIsTheExactMaximum) {
  TableLatency latency;
  latency.Observe(std::chrono::seconds(200));
  const TableLatency::Snapshot s = latency.snapshot();
  EXPECT_EQ(s.buckets.back(), 1u);
  EXPECT_EQ(s.Percentile(0.5), 200'000'000u);
}

}  // namespace
}  // namespace sibyl::storage
