#pragma once
// A task run every `period` on a scheduler until stopped: the rounds of hint
// replay and batch-log replay. Start() schedules the first round (once);
// Stop() cancels the next one, and a round running then does not schedule
// another.
//
// Thread-safety: every method may be called from any thread. The round runs
// on the scheduler's threads, without any lock of this class held.

#include <functional>
#include <mutex>

#include "messaging/scheduler.h"

namespace sibyl::cluster {

class PeriodicRounds {
 public:
  // REQUIRES: `scheduler` outlives the object, and stops running its tasks
  // (or Stop() was called) before the object goes.
  PeriodicRounds(messaging::Scheduler& scheduler, messaging::Duration period,
                 std::function<void()> round)
      : scheduler_(scheduler), period_(period), round_(std::move(round)) {}

  void Start();
  void Stop();
  bool stopped() const;

 private:
  void ScheduleNext();

  messaging::Scheduler& scheduler_;
  const messaging::Duration period_;
  const std::function<void()> round_;

  mutable std::mutex mutex_;
  bool started_ = false;          // GUARDED_BY(mutex_)
  bool stopped_ = false;          // GUARDED_BY(mutex_)
  messaging::TimerHandle timer_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::cluster
