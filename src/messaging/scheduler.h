#pragma once
// Time and deferred work for messaging and the layers above it. Everything
// that waits (request timeouts, reconnect backoff, heartbeats) goes through a
// Scheduler, so the same code runs on real threads (AsioScheduler) and in
// virtual time on one thread (SimulatedScheduler), where a test of N nodes
// replays exactly from its seed.

#include <chrono>
#include <cstdint>
#include <functional>

namespace sibyl::messaging {

using SchedulerClock = std::chrono::steady_clock;
using TimePoint = SchedulerClock::time_point;
using Duration = SchedulerClock::duration;
using Task = std::function<void()>;

// Names one RunAfter task. Zero never names a task.
struct TimerHandle {
  uint64_t id = 0;
  bool operator==(const TimerHandle&) const = default;
};

// Thread-safety is each implementation's: AsioScheduler may be called from
// any thread and runs tasks on its threads; SimulatedScheduler belongs to the
// one thread that drives it. Tasks must not block: they share the threads
// that deliver messages.
class Scheduler {
 public:
  virtual ~Scheduler() = default;

  // The scheduler's steady time (virtual for SimulatedScheduler).
  virtual TimePoint Now() const = 0;
  // Runs `task` soon, never inside the call.
  virtual void Post(Task task) = 0;
  // Runs `task` once `delay` has passed (at once for a delay <= 0, but never
  // inside the call). The handle cancels it.
  virtual TimerHandle RunAfter(Duration delay, Task task) = 0;
  // True if the task had not started and now never will; false if it ran,
  // is running, was cancelled already, or the handle is unknown.
  virtual bool Cancel(TimerHandle handle) = 0;
};

}  // namespace sibyl::messaging
