#include "tools/stress/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace sibyl::tools {
namespace {

// The exact answer: the smallest value with at least p% of values at or below it.
uint64_t OraclePercentile(const std::vector<uint64_t>& sorted, double p) {
  const double exact = std::ceil(p / 100.0 * static_cast<double>(sorted.size()) - 1e-9);
  const size_t rank =
      std::clamp<size_t>(exact < 1 ? 1 : static_cast<size_t>(exact), 1, sorted.size());
  return sorted[rank - 1];
}

void ExpectClose(uint64_t exact, uint64_t approximate, double p) {
  // Never below the exact value, and at most one bucket width (1/128) above.
  EXPECT_GE(approximate, exact) << "p" << p;
  EXPECT_LE(static_cast<double>(approximate), static_cast<double>(exact) * (1.0 + 1.0 / 128) + 1)
      << "p" << p << " exact " << exact;
}

TEST(LatencyHistogramTest, PercentilesMatchSortedOracleOnRandomData) {
  std::mt19937_64 random(20240611);
  // Log-uniform from 1 ns to ~10 s: every scale the histogram covers in practice.
  std::uniform_real_distribution<double> log_value(0, std::log(1e10));
  for (int round = 0; round < 5; ++round) {
    LatencyHistogram h;
    std::vector<uint64_t> values;
    const int n = 1 + round * 4999;
    for (int i = 0; i < n; ++i) {
      const auto v = static_cast<uint64_t>(std::exp(log_value(random)));
      values.push_back(v);
      h.Record(v);
    }
    std::sort(values.begin(), values.end());
    for (double p : {0.1, 1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
      ExpectClose(OraclePercentile(values, p), h.ValueAtPercentile(p), p);
    }
    EXPECT_EQ(h.count(), values.size());
    EXPECT_EQ(h.max(), values.back());
    EXPECT_EQ(h.min(), values.front());
    double sum = 0;
    for (uint64_t v : values) sum += static_cast<double>(v);
    EXPECT_NEAR(h.mean(), sum / n, 1e-6 * sum / n);
  }
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 100; ++v) h.Record(v);
  EXPECT_EQ(h.ValueAtPercentile(50), 49u);
  EXPECT_EQ(h.ValueAtPercentile(1), 0u);
  EXPECT_EQ(h.ValueAtPercentile(100), 99u);
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverythingInOne) {
  std::mt19937_64 random(7);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 10000; ++i) {
    const uint64_t v = random() % 50'000'000;
    (i % 3 ? a : b).Record(v);
    all.Record(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.min(), all.min());
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    EXPECT_EQ(a.ValueAtPercentile(p), all.ValueAtPercentile(p));
  }
}

TEST(LatencyHistogramTest, EmptyAndReset) {
  LatencyHistogram h;
  EXPECT_EQ(h.ValueAtPercentile(99), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0);
  h.Record(12345);
  EXPECT_EQ(h.ValueAtPercentile(50), 12345u);  // clamped to max: exact for one value
  h.Reset();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.ValueAtPercentile(50), 0u);
}

TEST(LatencyHistogramTest, HugeValuesClampIntoTopBucketButMaxStaysExact) {
  LatencyHistogram h;
  h.Record(UINT64_MAX);
  h.Record(1);
  EXPECT_EQ(h.max(), UINT64_MAX);
  EXPECT_EQ(h.ValueAtPercentile(100), UINT64_MAX);
}

TEST(LatencyHistogramTest, BucketsAreContiguousAndNarrow) {
  // Each bucket starts right after the previous one ends, and is at most
  // 1/128 of its values wide.
  for (size_t i = 1; i < LatencyHistogram::Index(uint64_t{1} << 40); ++i) {
    const uint64_t low = LatencyHistogram::BucketHigh(i - 1) + 1;
    const uint64_t high = LatencyHistogram::BucketHigh(i);
    ASSERT_EQ(LatencyHistogram::Index(low), i);
    ASSERT_EQ(LatencyHistogram::Index(high), i);
    ASSERT_LE(high - low, low / 128);
  }
}

}  // namespace
}  // namespace sibyl::tools
