#pragma once
// Test doubles for messaging's tests: an epoch gate moved by hand and a sink
// that records what a transport delivers.

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

#include "messaging/epoch_gate.h"
#include "messaging/transport.h"

namespace sibyl::messaging {

// The local epoch is set by the test; WhenCaughtUp waits for Advance (or a
// Fail). Thread-safe, callbacks run outside its lock.
class FakeEpochGate final : public EpochGate {
 public:
  explicit FakeEpochGate(uint64_t epoch = 1) : epoch_(epoch) {}

  uint64_t LocalEpoch() const override {
    std::lock_guard lock(mutex_);
    return epoch_;
  }
  void WhenCaughtUp(uint64_t epoch, std::function<void(bool)> done) override {
    {
      std::lock_guard lock(mutex_);
      if (epoch > epoch_) {
        waiters_.emplace_back(epoch, std::move(done));
        return;
      }
    }
    done(true);
  }
  // Moves the epoch and releases the waiters it satisfies.
  void Advance(uint64_t epoch) {
    std::vector<std::function<void(bool)>> ready;
    {
      std::lock_guard lock(mutex_);
      epoch_ = epoch;
      for (auto it = waiters_.begin(); it != waiters_.end();) {
        if (it->first <= epoch) {
          ready.push_back(std::move(it->second));
          it = waiters_.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& done : ready) done(true);
  }
  // The catch-up timed out for every waiter.
  void FailWaiters() {
    std::vector<std::pair<uint64_t, std::function<void(bool)>>> failed;
    {
      std::lock_guard lock(mutex_);
      failed.swap(waiters_);
    }
    for (auto& [epoch, done] : failed) done(false);
  }
  size_t waiting() const {
    std::lock_guard lock(mutex_);
    return waiters_.size();
  }

 private:
  mutable std::mutex mutex_;
  uint64_t epoch_;
  std::vector<std::pair<uint64_t, std::function<void(bool)>>> waiters_;
};

class RecordingSink final : public MessageSink {
 public:
  void OnMessage(const PeerAddress& from, Message message) override {
    std::lock_guard lock(mutex_);
    messages_.emplace_back(from, std::move(message));
  }
  void OnPeerLost(const PeerAddress& peer) override {
    std::lock_guard lock(mutex_);
    lost_.push_back(peer);
  }
  std::vector<std::pair<PeerAddress, Message>> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  std::vector<PeerAddress> lost() const {
    std::lock_guard lock(mutex_);
    return lost_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<PeerAddress, Message>> messages_;
  std::vector<PeerAddress> lost_;
};

}  // namespace sibyl::messaging
