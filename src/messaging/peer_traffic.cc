#include "messaging/peer_traffic.h"

namespace sibyl::messaging {

PeerCounters AtomicPeerCounters::Snapshot() const {
  return PeerCounters{
      .messages_sent = messages_sent.load(std::memory_order_relaxed),
      .bytes_sent = bytes_sent.load(std::memory_order_relaxed),
      .messages_received = messages_received.load(std::memory_order_relaxed),
      .bytes_received = bytes_received.load(std::memory_order_relaxed),
      .messages_dropped = messages_dropped.load(std::memory_order_relaxed),
  };
}

std::shared_ptr<AtomicPeerCounters> PeerTraffic::For(const PeerAddress& peer) {
  std::lock_guard lock(mutex_);
  auto& counters = peers_[peer];
  if (!counters) counters = std::make_shared<AtomicPeerCounters>();
  return counters;
}

std::map<PeerAddress, PeerCounters> PeerTraffic::Snapshot() const {
  std::lock_guard lock(mutex_);
  std::map<PeerAddress, PeerCounters> out;
  for (const auto& [peer, counters] : peers_) out.emplace(peer, counters->Snapshot());
  return out;
}

}  // namespace sibyl::messaging
