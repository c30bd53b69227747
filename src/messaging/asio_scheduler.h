#pragma once
// The real Scheduler: tasks and timers on a boost::asio::io_context, either
// one the scheduler owns and runs on its own threads, or one the caller owns
// and runs.
//
// Thread-safe: every method may be called from any thread, tasks included.
// Tasks run on the io_context's threads, concurrently when there are several.
//
// Invariant: a RunAfter task runs at most once, and not at all once Cancel
// returned true or Stop() was called: the entry of a timer leaves `timers`
// under the mutex either by its expiry (which then runs it) or by Cancel or
// Stop (which then cancel the Asio timer), never both.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "messaging/scheduler.h"

namespace sibyl::messaging {

class AsioScheduler final : public Scheduler {
 public:
  // Owns an io_context run by `threads` threads (at least one), started here.
  explicit AsioScheduler(size_t threads);
  // Uses `io`, which the caller runs. REQUIRES: `io` outlives this scheduler.
  explicit AsioScheduler(boost::asio::io_context& io);
  AsioScheduler(const AsioScheduler&) = delete;
  AsioScheduler& operator=(const AsioScheduler&) = delete;
  ~AsioScheduler() override;  // Stop()

  TimePoint Now() const override { return SchedulerClock::now(); }
  void Post(Task task) override;
  TimerHandle RunAfter(Duration delay, Task task) override;
  bool Cancel(TimerHandle handle) override;

  // Cancels every timer; an owned io_context stops (tasks not yet run are
  // dropped) and its threads are joined. Later calls post and schedule
  // nothing. REQUIRES: not called from a task of an owned io_context.
  void Stop();

  boost::asio::io_context& io_context() { return *io_; }

 private:
  struct Timers;  // shared with pending timer handlers, which may outlive *this

  std::unique_ptr<boost::asio::io_context> owned_io_;
  boost::asio::io_context* io_;
  std::unique_ptr<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard_;
  std::vector<std::thread> threads_;
  std::shared_ptr<Timers> timers_;
};

}  // namespace sibyl::messaging
