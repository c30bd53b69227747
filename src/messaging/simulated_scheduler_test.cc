#include "messaging/simulated_scheduler.h"

#include <gtest/gtest.h>

#include <string>

#include "common/check.h"

namespace sibyl::messaging {
namespace {

using std::chrono::milliseconds;

TEST(SimulatedSchedulerTest, RunsByTimeThenBySchedulingOrder) {
  SimulatedScheduler scheduler;
  const TimePoint start = scheduler.Now();
  std::string order;
  scheduler.RunAfter(milliseconds(20), [&] { order += 'c'; });
  scheduler.RunAfter(milliseconds(10), [&] { order += 'a'; });
  scheduler.RunAfter(milliseconds(10), [&] { order += 'b'; });
  scheduler.Post([&] {
    order += 'p';
    // Posted from a task: after what is already due now, before later events.
    scheduler.Post([&] { order += 'q'; });
  });
  EXPECT_EQ(order, "");  // nothing runs inside the calls
  EXPECT_EQ(scheduler.RunUntilIdle(), 5u);
  EXPECT_EQ(order, "pqabc");
  EXPECT_EQ(scheduler.Now(), start + milliseconds(20));
}

TEST(SimulatedSchedulerTest, CancelledTasksNeverRun) {
  SimulatedScheduler scheduler;
  bool ran = false;
  const TimerHandle handle = scheduler.RunAfter(milliseconds(5), [&] { ran = true; });
  EXPECT_TRUE(scheduler.Cancel(handle));
  EXPECT_FALSE(scheduler.Cancel(handle));
  EXPECT_FALSE(scheduler.Cancel(TimerHandle{}));
  scheduler.RunUntilIdle();
  EXPECT_FALSE(ran);
  const TimerHandle done = scheduler.RunAfter(milliseconds(1), [] {});
  scheduler.RunUntilIdle();
  EXPECT_FALSE(scheduler.Cancel(done));  // it ran
}

TEST(SimulatedSchedulerTest, RunForRunsWhatIsDueAndMovesTime) {
  SimulatedScheduler scheduler;
  const TimePoint start = scheduler.Now();
  int ran = 0;
  scheduler.RunAfter(milliseconds(10), [&] { ++ran; });
  scheduler.RunAfter(milliseconds(30), [&] { ++ran; });
  scheduler.RunFor(milliseconds(10));
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(scheduler.Now(), start + milliseconds(10));
  scheduler.RunFor(milliseconds(15));
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(scheduler.Now(), start + milliseconds(25));
  EXPECT_EQ(scheduler.pending(), 1u);
}

TEST(SimulatedSchedulerTest, RunUntilStopsWhenThePredicateHoldsOrAtTheDeadline) {
  SimulatedScheduler scheduler;
  const TimePoint start = scheduler.Now();
  int ticks = 0;
  std::function<void()> tick = [&] {
    ++ticks;
    scheduler.RunAfter(milliseconds(10), tick);  // periodic, never idle
  };
  scheduler.Post(tick);
  EXPECT_TRUE(scheduler.RunUntil([&] { return ticks == 3; }, start + milliseconds(1000)));
  EXPECT_EQ(scheduler.Now(), start + milliseconds(20));
  EXPECT_FALSE(scheduler.RunUntil([] { return false; }, start + milliseconds(55)));
  EXPECT_EQ(ticks, 6);  // at 30, 40, 50
  EXPECT_EQ(scheduler.Now(), start + milliseconds(55));
}

TEST(SimulatedSchedulerTest, RunUntilIdleCatchesALivelock) {
  SimulatedScheduler scheduler;
  std::function<void()> forever = [&] { scheduler.Post(forever); };
  scheduler.Post(forever);
  EXPECT_THROW(scheduler.RunUntilIdle(100), InternalError);
}

}  // namespace
}  // namespace sibyl::messaging
