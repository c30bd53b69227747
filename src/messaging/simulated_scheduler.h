#pragma once
// A Scheduler in virtual time for deterministic tests: time moves only when
// the test runs events, and events run in (time, sequence) order, where the
// sequence is the order in which they were scheduled. Two runs that schedule
// the same events run them identically.
//
// Not thread-safe: every call, and every task, is on the one thread that
// drives the scheduler (the test's).

#include <cstddef>
#include <functional>
#include <map>
#include <unordered_map>
#include <utility>

#include "messaging/scheduler.h"

namespace sibyl::messaging {

class SimulatedScheduler final : public Scheduler {
 public:
  // Virtual time starts at `start` (an arbitrary, fixed point, so traces
  // are comparable between runs).
  explicit SimulatedScheduler(TimePoint start = TimePoint{} + std::chrono::hours(1));

  TimePoint Now() const override { return now_; }
  void Post(Task task) override;
  TimerHandle RunAfter(Duration delay, Task task) override;
  bool Cancel(TimerHandle handle) override;

  // Runs the earliest event, moving time to it. False when there is none.
  bool RunOne();
  // Runs events until none is left; returns how many ran. Periodic tasks
  // (heartbeats) never leave the queue empty: such tests use RunFor or
  // RunUntil. REQUIRES: fewer than `max_events` events run (a check fails
  // otherwise, which catches a livelock instead of hanging the test).
  size_t RunUntilIdle(size_t max_events = 10'000'000);
  // Runs every event due within `duration` from now, then sets the time to
  // now + duration.
  void RunFor(Duration duration);
  // Runs events until `done()` holds (checked before each event) or the next
  // event is past `deadline`, when time moves to the deadline. Returns
  // whether `done()` held.
  bool RunUntil(const std::function<bool()>& done, TimePoint deadline);

  size_t pending() const { return events_.size(); }

 private:
  using Key = std::pair<TimePoint, uint64_t>;  // (when, sequence)

  TimePoint now_;
  uint64_t next_sequence_ = 1;
  std::map<Key, Task> events_;
  std::unordered_map<uint64_t, TimePoint> timers_;  // sequence → when, for Cancel
};

}  // namespace sibyl::messaging
