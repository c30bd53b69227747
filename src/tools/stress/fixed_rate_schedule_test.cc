#include "tools/stress/fixed_rate_schedule.h"

#include <gtest/gtest.h>

namespace sibyl::tools {
namespace {

using std::chrono::nanoseconds;

TEST(FixedRateScheduleTest, OperationNIsDueAtStartPlusNOverRate) {
  const auto start = FixedRateSchedule::Clock::time_point(std::chrono::seconds(100));
  const FixedRateSchedule schedule(start, 20000);  // one every 50 µs
  EXPECT_EQ(schedule.IntendedStart(0), start);
  EXPECT_EQ(schedule.IntendedStart(1) - start, nanoseconds(50000));
  EXPECT_EQ(schedule.IntendedStart(20000) - start, std::chrono::seconds(1));
  EXPECT_EQ(schedule.IntendedStart(1'000'000'000) - start, std::chrono::seconds(50000));
}

TEST(FixedRateScheduleTest, FractionalIntervalsDoNotDrift) {
  const auto start = FixedRateSchedule::Clock::time_point{};
  const FixedRateSchedule schedule(start, 3);  // 333333333.33 ns apart
  EXPECT_EQ(schedule.IntendedStart(1) - start, nanoseconds(333333333));
  EXPECT_EQ(schedule.IntendedStart(2) - start, nanoseconds(666666667));
  // Rounded per operation, not accumulated: exactly 1000 s after 3000 ops.
  EXPECT_EQ(schedule.IntendedStart(3000) - start, std::chrono::seconds(1000));
  for (uint64_t n = 1; n < 1000; ++n) {
    EXPECT_GT(schedule.IntendedStart(n), schedule.IntendedStart(n - 1));
  }
}

}  // namespace
}  // namespace sibyl::tools
