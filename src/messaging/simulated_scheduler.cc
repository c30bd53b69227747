#include "messaging/simulated_scheduler.h"

#include "common/check.h"

namespace sibyl::messaging {

SimulatedScheduler::SimulatedScheduler(TimePoint start) : now_(start) {}

void SimulatedScheduler::Post(Task task) { RunAfter(Duration::zero(), std::move(task)); }

TimerHandle SimulatedScheduler::RunAfter(Duration delay, Task task) {
  const TimePoint when = delay > Duration::zero() ? now_ + delay : now_;
  const uint64_t sequence = next_sequence_++;
  events_.emplace(Key{when, sequence}, std::move(task));
  timers_.emplace(sequence, when);
  return TimerHandle{sequence};
}

bool SimulatedScheduler::Cancel(TimerHandle handle) {
  const auto it = timers_.find(handle.id);
  if (it == timers_.end()) return false;
  events_.erase(Key{it->second, it->first});
  timers_.erase(it);
  return true;
}

bool SimulatedScheduler::RunOne() {
  if (events_.empty()) return false;
  auto node = events_.extract(events_.begin());
  timers_.erase(node.key().second);
  now_ = node.key().first;
  node.mapped()();
  return true;
}

size_t SimulatedScheduler::RunUntilIdle(size_t max_events) {
  size_t ran = 0;
  while (RunOne()) {
    ++ran;
    SIBYL_CHECK(ran < max_events,
                "the simulation did not become idle after " + std::to_string(ran) + " events");
  }
  return ran;
}

void SimulatedScheduler::RunFor(Duration duration) {
  const TimePoint end = now_ + duration;
  while (!events_.empty() && events_.begin()->first.first <= end) RunOne();
  now_ = end;
}

bool SimulatedScheduler::RunUntil(const std::function<bool()>& done, TimePoint deadline) {
  for (;;) {
    if (done()) return true;
    if (events_.empty() || events_.begin()->first.first > deadline) break;
    RunOne();
  }
  if (deadline > now_) now_ = deadline;
  return done();
}

}  // namespace sibyl::messaging
