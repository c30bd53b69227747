#pragma once
// The node's one clock (design.md, "One clock"): write timestamps in
// microseconds, unique and increasing on the node as Cassandra's
// ClientState.getTimestamp() makes them, and `now` in seconds for TTL and
// gc_grace decisions. Everything that needs the time takes a Clock&, so tests
// can move time with ManualClock.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace sibyl {

class Clock {
 public:
  virtual ~Clock() = default;
  // Microseconds since the epoch, strictly greater than every earlier
  // result of this clock (Cassandra: "unique and increasing" server-side
  // timestamps). Thread-safe.
  int64_t NextTimestampMicros() {
    int64_t now = NowMicros();
    int64_t last = last_timestamp_.load(std::memory_order_relaxed);
    for (;;) {
      int64_t next = now > last ? now : last + 1;
      if (last_timestamp_.compare_exchange_weak(last, next, std::memory_order_relaxed)) return next;
    }
  }
  // Seconds since the epoch: the `now` that decides what has expired.
  int32_t NowSeconds() { return static_cast<int32_t>(NowMicros() / 1000000); }
  // The wall time in microseconds since the epoch, not necessarily unique.
  // Makes every later NextTimestampMicros() exceed `timestamp`: data found
  // written "in the future" (a clock that went back, another node's clock)
  // is then superseded by what this node writes next.
  void Observe(int64_t timestamp) {
    int64_t last = last_timestamp_.load(std::memory_order_relaxed);
    while (last < timestamp &&
           !last_timestamp_.compare_exchange_weak(last, timestamp, std::memory_order_relaxed)) {
    }
  }
  virtual int64_t NowMicros() = 0;

 private:
  std::atomic<int64_t> last_timestamp_{0};
};

class SystemClock final : public Clock {
 public:
  int64_t NowMicros() override {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

// A clock that moves only when told to (tests).
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t micros = 1'700'000'000'000'000) : micros_(micros) {}
  int64_t NowMicros() override { return micros_.load(); }
  void Set(int64_t micros) { micros_.store(micros); }
  void AdvanceSeconds(int64_t seconds) { micros_.fetch_add(seconds * 1'000'000); }

 private:
  std::atomic<int64_t> micros_;
};

}  // namespace sibyl
