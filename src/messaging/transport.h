#pragma once
// Moves messages between nodes: TcpTransport over sockets, SimulatedNetwork's
// endpoints inside one process. Delivery is best effort: a message may be
// dropped (counted) and then only the sender's timeout notices; nothing is
// retransmitted here.

#include <cstdint>
#include <map>

#include "messaging/message.h"
#include "messaging/peer_address.h"

namespace sibyl::messaging {

// Traffic with one peer, for the performance docs and operators. Sent and
// received count frames and their bytes on the wire (message_codec.h);
// dropped counts messages to the peer that were never sent (queue full,
// connection lost, no route) — the sender's timeout handles them.
struct PeerCounters {
  uint64_t messages_sent = 0;
  uint64_t bytes_sent = 0;
  uint64_t messages_received = 0;
  uint64_t bytes_received = 0;
  uint64_t messages_dropped = 0;
  bool operator==(const PeerCounters&) const = default;
};

// What a transport delivers to. Called on the transport's threads (or the
// simulated scheduler's): implementations are thread-safe and do not block.
class MessageSink {
 public:
  virtual ~MessageSink() = default;
  // A message from `from`, the sender's listen address.
  virtual void OnMessage(const PeerAddress& from, Message message) = 0;
  // The connection to `peer` broke or could not be made: what was sent to
  // it may not have arrived.
  virtual void OnPeerLost(const PeerAddress& peer) = 0;
};

// Send and Counters are thread-safe. Start and Stop are called once each,
// in that order, by the owner.
class Transport {
 public:
  virtual ~Transport() = default;
  // Begins delivering to `sink`. REQUIRES: `sink` outlives Stop().
  virtual void Start(MessageSink& sink) = 0;
  // Queues `message` for `to`; never blocks. A message that cannot be sent
  // is dropped and counted.
  virtual void Send(const PeerAddress& to, Message message) = 0;
  // Closes every connection and drops what is queued; after it returns the
  // sink is called no more.
  virtual void Stop() = 0;
  // Where this transport listens, as peers address it.
  virtual PeerAddress local_address() const = 0;
  virtual std::map<PeerAddress, PeerCounters> Counters() const = 0;
};

}  // namespace sibyl::messaging
