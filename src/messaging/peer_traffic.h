#pragma once
// The per-peer counters of a TcpTransport, bumped by its connections on I/O
// threads without a lock and read as snapshots for the performance docs.
//
// Thread-safe.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "messaging/peer_address.h"
#include "messaging/transport.h"

namespace sibyl::messaging {

struct AtomicPeerCounters {
  std::atomic<uint64_t> messages_sent{0};
  std::atomic<uint64_t> bytes_sent{0};
  std::atomic<uint64_t> messages_received{0};
  std::atomic<uint64_t> bytes_received{0};
  std::atomic<uint64_t> messages_dropped{0};

  void Add(std::atomic<uint64_t>& counter, uint64_t n) {
    counter.fetch_add(n, std::memory_order_relaxed);
  }
  PeerCounters Snapshot() const;
};

class PeerTraffic {
 public:
  // The counters of `peer`, created at first use; stable for the table's life.
  std::shared_ptr<AtomicPeerCounters> For(const PeerAddress& peer);
  std::map<PeerAddress, PeerCounters> Snapshot() const;

 private:
  mutable std::mutex mutex_;
  std::map<PeerAddress, std::shared_ptr<AtomicPeerCounters>> peers_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::messaging
