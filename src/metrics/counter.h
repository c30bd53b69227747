#pragma once
// A monotonic count (a Prometheus counter) that any thread may bump: one
// relaxed atomic add, no lock, no allocation, so it can sit on the request
// path. Readers (a scrape) see each counter's latest value; no order between
// counters is promised, which Prometheus does not need.
//
// Thread-safety: every method from any thread.

#include <atomic>
#include <cstdint>

namespace sibyl::metrics {

class Counter {
 public:
  void Add(uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

}  // namespace sibyl::metrics
