#include "cluster/periodic_rounds.h"

namespace sibyl::cluster {

void PeriodicRounds::Start() {
  {
    std::lock_guard lock(mutex_);
    if (started_ || stopped_) return;
    started_ = true;
  }
  ScheduleNext();
}

void PeriodicRounds::Stop() {
  messaging::TimerHandle timer;
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    timer = timer_;
  }
  if (timer.id != 0) scheduler_.Cancel(timer);
}

bool PeriodicRounds::stopped() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

void PeriodicRounds::ScheduleNext() {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  // Scheduling under the lock keeps Stop from missing the new timer; the
  // scheduler runs the task later, never inside RunAfter.
  timer_ = scheduler_.RunAfter(period_, [this] {
    round_();
    ScheduleNext();
  });
}

}  // namespace sibyl::cluster
