#pragma once
// The sending side of streaming: answers STREAM_PULL from this node's
// engine, every row of the slice as stored (stream_messages.h), paced by
// cassandra.yaml's stream_throughput_outbound over every stream this node
// sends: a reply of B bytes leaves no sooner than B / rate after the one
// before it (a token bucket without burst), waiting on the scheduler, never
// on a thread. Rate 0: unthrottled, as Cassandra reads it.
//
// Thread-safety: handlers run on messaging threads (and the reads on
// `blocking` when given); the pacing state is under a mutex.

#include <atomic>
#include <cstdint>
#include <mutex>

#include "cluster/cluster_services.h"
#include "common/clock.h"
#include "storage/engine.h"

namespace sibyl::cluster::streaming {

class StreamSource {
 public:
  // `engine`, `clock` (what has expired, for the tombstones left out as
  // purgeable) and `services` (its messaging, scheduler and blocking
  // runner) must outlive the source.
  StreamSource(const ClusterServices& services, const storage::Engine& engine, Clock& clock,
               uint64_t throughput_bytes_per_second);

  // Registers STREAM_PULL; before messaging starts.
  void RegisterHandler();

  uint64_t bytes_sent() const { return bytes_sent_.load(std::memory_order_relaxed); }

 private:
  // How long a reply of `bytes` waits for its turn (and takes it).
  messaging::Duration TakeTurn(size_t bytes);

  const ClusterServices services_;
  const storage::Engine& engine_;
  Clock& clock_;
  const uint64_t throughput_;
  std::mutex mutex_;
  messaging::TimePoint next_free_{};  // GUARDED_BY(mutex_)
  std::atomic<uint64_t> bytes_sent_{0};
};

}  // namespace sibyl::cluster::streaming
