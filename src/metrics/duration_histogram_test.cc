#include "metrics/duration_histogram.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace sibyl::metrics {
namespace {

TEST(DurationHistogram, CountsCumulativelyWithInfEqualToCount) {
  DurationHistogram histogram;
  histogram.Observe(std::chrono::nanoseconds(-5));  // a clock step back counts as 0
  histogram.Observe(std::chrono::milliseconds(1));
  histogram.Observe(std::chrono::milliseconds(1) + std::chrono::nanoseconds(1));
  const auto snapshot = histogram.snapshot();
  EXPECT_EQ(snapshot.count, 3u);
  EXPECT_EQ(snapshot.cumulative[0], 1u);  // <= 100µs
  EXPECT_EQ(snapshot.cumulative[3], 2u);  // <= 1ms
  EXPECT_EQ(snapshot.cumulative[4], 3u);  // <= 2.5ms
  EXPECT_EQ(snapshot.cumulative.back(), snapshot.count);
  EXPECT_DOUBLE_EQ(snapshot.sum_seconds, 0.002000001);
}

TEST(DurationHistogram, ConcurrentObserversLoseNothing) {
  DurationHistogram histogram;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&histogram, t] {
      for (int i = 0; i < 10000; ++i) histogram.Observe(std::chrono::microseconds(t * 300));
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(histogram.snapshot().count, 40000u);
}

}  // namespace
}  // namespace sibyl::metrics
