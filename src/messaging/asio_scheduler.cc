#include "messaging/asio_scheduler.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <unordered_map>

#include "common/check.h"

namespace sibyl::messaging {

namespace asio = boost::asio;

struct AsioScheduler::Timers {
  std::mutex mutex;
  bool stopped = false;                                                    // GUARDED_BY(mutex)
  uint64_t next_id = 1;                                                    // GUARDED_BY(mutex)
  std::unordered_map<uint64_t, std::shared_ptr<asio::steady_timer>> live;  // GUARDED_BY(mutex)
};

AsioScheduler::AsioScheduler(size_t threads)
    : owned_io_(std::make_unique<asio::io_context>()),
      io_(owned_io_.get()),
      guard_(std::make_unique<asio::executor_work_guard<asio::io_context::executor_type>>(
          io_->get_executor())),
      timers_(std::make_shared<Timers>()) {
  SIBYL_CHECK(threads > 0, "an AsioScheduler needs a thread");
  for (size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { io_->run(); });
}

AsioScheduler::AsioScheduler(asio::io_context& io)
    : io_(&io), timers_(std::make_shared<Timers>()) {}

AsioScheduler::~AsioScheduler() { Stop(); }

void AsioScheduler::Post(Task task) {
  {
    std::lock_guard lock(timers_->mutex);
    if (timers_->stopped) return;
  }
  asio::post(*io_, std::move(task));
}

TimerHandle AsioScheduler::RunAfter(Duration delay, Task task) {
  auto timer = std::make_shared<asio::steady_timer>(*io_);
  timer->expires_after(delay > Duration::zero() ? delay : Duration::zero());
  uint64_t id;
  {
    std::lock_guard lock(timers_->mutex);
    if (timers_->stopped) return TimerHandle{};
    id = timers_->next_id++;
    timers_->live.emplace(id, timer);
  }
  // The timer is touched here (before the handle exists) and by at most one
  // Cancel or Stop afterwards; its expiry only takes the map entry.
  timer->async_wait([timers = timers_, id, task = std::move(task)](boost::system::error_code) {
    {
      std::lock_guard lock(timers->mutex);
      if (timers->live.erase(id) == 0) return;  // cancelled
    }
    task();
  });
  return TimerHandle{id};
}

bool AsioScheduler::Cancel(TimerHandle handle) {
  std::shared_ptr<asio::steady_timer> timer;
  {
    std::lock_guard lock(timers_->mutex);
    const auto it = timers_->live.find(handle.id);
    if (it == timers_->live.end()) return false;
    timer = std::move(it->second);
    timers_->live.erase(it);
  }
  timer->cancel();  // frees the wait now rather than at its expiry
  return true;
}

void AsioScheduler::Stop() {
  std::unordered_map<uint64_t, std::shared_ptr<asio::steady_timer>> live;
  {
    std::lock_guard lock(timers_->mutex);
    timers_->stopped = true;
    live.swap(timers_->live);
  }
  for (auto& [id, timer] : live) timer->cancel();
  if (!owned_io_) return;
  guard_.reset();
  io_->stop();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace sibyl::messaging
