#pragma once
// N nodes' transports inside one process, on a SimulatedScheduler, with
// faults drawn from a seeded generator: the same seed and the same sends give
// the same deliveries at the same virtual times (trace() records them).
//
// Each send draws whether the message is dropped, whether it is duplicated,
// and each copy's delay in [min_delay, max_delay]; different delays reorder
// messages. Links can be blocked one way or both, or the nodes split into
// groups that cannot reach each other; a node can be taken down (whatever it
// sends or is sent vanishes, in flight included) and brought back. A cut
// link or a downed node also loses the messages already in flight on it, as
// a reset connection would. Taking a node down tells every other node
// OnPeerLost (its connections reset); a blocked link tells no one (a silent
// network): only timeouts notice.
//
// Not thread-safe: used on the scheduler's thread, like the scheduler.
// REQUIRES: the network outlives every event it scheduled that will run
// (destroy it before the scheduler runs again, or after the last run).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "messaging/simulated_scheduler.h"
#include "messaging/transport.h"

namespace sibyl::messaging {

struct LinkFaults {
  double drop_probability = 0;       // each message, each link
  double duplicate_probability = 0;  // a second copy, with its own delay
  Duration min_delay = std::chrono::milliseconds(1);
  Duration max_delay = std::chrono::milliseconds(1);
};

// One message's fate, in the order the network decided it.
struct TraceEvent {
  enum class Outcome : uint8_t {
    kDelivered,
    kDropped,     // the drop probability
    kDuplicated,  // a second copy was scheduled (its delivery is traced too)
    kBlocked,     // a blocked link, at send or on arrival
    kNodeDown,    // the sender or the receiver down, or no such node
  };
  TimePoint time;
  PeerAddress from;
  PeerAddress to;
  Verb verb;
  MessageKind kind;
  uint64_t id;
  Outcome outcome;
  bool operator==(const TraceEvent&) const = default;
};

class SimulatedNetwork {
 public:
  SimulatedNetwork(SimulatedScheduler& scheduler, uint64_t seed, LinkFaults faults = {});
  SimulatedNetwork(const SimulatedNetwork&) = delete;
  SimulatedNetwork& operator=(const SimulatedNetwork&) = delete;
  ~SimulatedNetwork();

  // A node's transport, owned by the network. REQUIRES: a new address.
  Transport& AddNode(const PeerAddress& address);

  void SetFaults(const LinkFaults& faults) { faults_ = faults; }
  // Messages from `from` to `to` are lost (one direction).
  void Block(const PeerAddress& from, const PeerAddress& to);
  void Unblock(const PeerAddress& from, const PeerAddress& to);
  // Both directions between a and b.
  void Partition(const PeerAddress& a, const PeerAddress& b);
  // Blocks every link between nodes of different groups (both directions).
  void Split(const std::vector<std::vector<PeerAddress>>& groups);
  // Unblocks every link.
  void Heal() { blocked_.clear(); }
  void TakeDown(const PeerAddress& node);
  void BringUp(const PeerAddress& node);
  bool IsUp(const PeerAddress& node) const;

  uint64_t seed() const { return seed_; }
  const std::vector<TraceEvent>& trace() const { return trace_; }

 private:
  class Endpoint;
  friend class Endpoint;

  void Send(const PeerAddress& from, const PeerAddress& to, Message message);
  void Deliver(const PeerAddress& from, const PeerAddress& to, Message message);
  // Why a message from → to cannot pass now, if it cannot.
  std::optional<TraceEvent::Outcome> Obstacle(const PeerAddress& from, const PeerAddress& to) const;
  void Record(const PeerAddress& from, const PeerAddress& to, const Message& message,
              TraceEvent::Outcome outcome);
  double Uniform();  // [0, 1), the same on every platform
  Duration Delay();

  SimulatedScheduler& scheduler_;
  const uint64_t seed_;
  std::mt19937_64 random_;
  LinkFaults faults_;
  std::map<PeerAddress, std::unique_ptr<Endpoint>> nodes_;
  std::set<std::pair<PeerAddress, PeerAddress>> blocked_;  // (from, to)
  std::vector<TraceEvent> trace_;
};

}  // namespace sibyl::messaging
