#include "messaging/asio_scheduler.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

namespace sibyl::messaging {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Generous: only a broken scheduler makes a test wait this long.
constexpr auto kSchedulerDeadline = seconds(30);

TEST(AsioSchedulerTest, PostRunsOnTheSchedulersThread) {
  AsioScheduler scheduler(2);
  std::promise<std::thread::id> ran_on;
  scheduler.Post([&] { ran_on.set_value(std::this_thread::get_id()); });
  auto future = ran_on.get_future();
  ASSERT_EQ(future.wait_for(kSchedulerDeadline), std::future_status::ready);
  EXPECT_NE(future.get(), std::this_thread::get_id());
}

TEST(AsioSchedulerTest, RunAfterWaitsAtLeastItsDelay) {
  AsioScheduler scheduler(1);
  const TimePoint start = scheduler.Now();
  std::promise<TimePoint> ran_at;
  scheduler.RunAfter(milliseconds(30), [&] { ran_at.set_value(SchedulerClock::now()); });
  auto future = ran_at.get_future();
  ASSERT_EQ(future.wait_for(kSchedulerDeadline), std::future_status::ready);
  EXPECT_GE(future.get() - start, milliseconds(30));
}

TEST(AsioSchedulerTest, CancelledTasksNeverRun) {
  AsioScheduler scheduler(1);
  std::atomic<bool> cancelled_ran{false};
  const TimerHandle handle = scheduler.RunAfter(milliseconds(20), [&] { cancelled_ran = true; });
  EXPECT_TRUE(scheduler.Cancel(handle));
  EXPECT_FALSE(scheduler.Cancel(handle));
  // A later task runs after the cancelled one's time: had it not been
  // cancelled, it would have run by then.
  std::promise<void> later;
  scheduler.RunAfter(milliseconds(60), [&] { later.set_value(); });
  ASSERT_EQ(later.get_future().wait_for(kSchedulerDeadline), std::future_status::ready);
  EXPECT_FALSE(cancelled_ran.load());
}

TEST(AsioSchedulerTest, CancelAfterTheTaskRanReturnsFalse) {
  AsioScheduler scheduler(1);
  std::promise<void> ran;
  const TimerHandle handle = scheduler.RunAfter(milliseconds(0), [&] { ran.set_value(); });
  ASSERT_EQ(ran.get_future().wait_for(kSchedulerDeadline), std::future_status::ready);
  EXPECT_FALSE(scheduler.Cancel(handle));
}

TEST(AsioSchedulerTest, StopCancelsTimersAndRefusesNewWork) {
  std::atomic<int> ran{0};
  {
    AsioScheduler scheduler(2);
    for (int i = 0; i < 100; ++i) scheduler.RunAfter(seconds(3600), [&] { ++ran; });
    scheduler.Stop();  // returns at once although an hour of timers is pending
    scheduler.Post([&] { ++ran; });
    EXPECT_EQ(scheduler.RunAfter(milliseconds(0), [&] { ++ran; }), TimerHandle{});
  }
  EXPECT_EQ(ran.load(), 0);
}

TEST(AsioSchedulerTest, RunsOnAGivenIoContext) {
  boost::asio::io_context io;
  AsioScheduler scheduler(io);
  int order = 0;
  int posted = 0;
  int timed = 0;
  scheduler.RunAfter(milliseconds(5), [&] { timed = ++order; });
  scheduler.Post([&] { posted = ++order; });
  io.run();  // runs until the work is done: the scheduler holds no work guard
  EXPECT_EQ(posted, 1);
  EXPECT_EQ(timed, 2);
}

}  // namespace
}  // namespace sibyl::messaging
