#include "messaging/simulated_network.h"

#include "common/check.h"
#include "messaging/message_codec.h"

namespace sibyl::messaging {

// One node's side of the network: a Transport whose sends go through the
// network's faults.
class SimulatedNetwork::Endpoint final : public Transport {
 public:
  Endpoint(SimulatedNetwork& network, PeerAddress address)
      : network_(network), address_(std::move(address)) {}

  void Start(MessageSink& sink) override { sink_ = &sink; }
  void Send(const PeerAddress& to, Message message) override {
    network_.Send(address_, to, std::move(message));
  }
  void Stop() override { sink_ = nullptr; }
  PeerAddress local_address() const override { return address_; }
  std::map<PeerAddress, PeerCounters> Counters() const override { return counters_; }

  MessageSink* sink() const { return sink_; }
  PeerCounters& counters(const PeerAddress& peer) { return counters_[peer]; }
  bool up = true;

 private:
  SimulatedNetwork& network_;
  const PeerAddress address_;
  MessageSink* sink_ = nullptr;
  std::map<PeerAddress, PeerCounters> counters_;
};

SimulatedNetwork::SimulatedNetwork(SimulatedScheduler& scheduler, uint64_t seed, LinkFaults faults)
    : scheduler_(scheduler), seed_(seed), random_(seed), faults_(faults) {}

SimulatedNetwork::~SimulatedNetwork() = default;

Transport& SimulatedNetwork::AddNode(const PeerAddress& address) {
  auto [it, added] = nodes_.emplace(address, nullptr);
  SIBYL_CHECK(added, "two simulated nodes at " + address.ToString());
  it->second = std::make_unique<Endpoint>(*this, address);
  return *it->second;
}

void SimulatedNetwork::Block(const PeerAddress& from, const PeerAddress& to) {
  blocked_.emplace(from, to);
}

void SimulatedNetwork::Unblock(const PeerAddress& from, const PeerAddress& to) {
  blocked_.erase({from, to});
}

void SimulatedNetwork::Partition(const PeerAddress& a, const PeerAddress& b) {
  Block(a, b);
  Block(b, a);
}

void SimulatedNetwork::Split(const std::vector<std::vector<PeerAddress>>& groups) {
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t h = g + 1; h < groups.size(); ++h) {
      for (const auto& a : groups[g]) {
        for (const auto& b : groups[h]) Partition(a, b);
      }
    }
  }
}

void SimulatedNetwork::TakeDown(const PeerAddress& node) {
  const auto it = nodes_.find(node);
  SIBYL_CHECK(it != nodes_.end(), "no simulated node at " + node.ToString());
  if (!it->second->up) return;
  it->second->up = false;
  // Its connections reset: every other live node learns at once.
  for (auto& [address, endpoint] : nodes_) {
    if (address == node || !endpoint->up || endpoint->sink() == nullptr) continue;
    scheduler_.Post([this, address = address, node] {
      const auto peer = nodes_.find(address);
      if (peer->second->up && peer->second->sink() != nullptr) {
        peer->second->sink()->OnPeerLost(node);
      }
    });
  }
}

void SimulatedNetwork::BringUp(const PeerAddress& node) {
  const auto it = nodes_.find(node);
  SIBYL_CHECK(it != nodes_.end(), "no simulated node at " + node.ToString());
  it->second->up = true;
}

bool SimulatedNetwork::IsUp(const PeerAddress& node) const {
  const auto it = nodes_.find(node);
  return it != nodes_.end() && it->second->up;
}

std::optional<TraceEvent::Outcome> SimulatedNetwork::Obstacle(const PeerAddress& from,
                                                              const PeerAddress& to) const {
  const auto sender = nodes_.find(from);
  const auto receiver = nodes_.find(to);
  if (sender == nodes_.end() || !sender->second->up || receiver == nodes_.end() ||
      !receiver->second->up || receiver->second->sink() == nullptr) {
    return TraceEvent::Outcome::kNodeDown;
  }
  if (blocked_.contains({from, to})) return TraceEvent::Outcome::kBlocked;
  return std::nullopt;
}

void SimulatedNetwork::Record(const PeerAddress& from, const PeerAddress& to,
                              const Message& message, TraceEvent::Outcome outcome) {
  trace_.push_back(
      TraceEvent{scheduler_.Now(), from, to, message.verb, message.kind, message.id, outcome});
}

double SimulatedNetwork::Uniform() {
  // 53 random bits, not std::uniform_real_distribution, whose output is
  // left to the standard library: traces must not depend on it.
  return static_cast<double>(random_() >> 11) * 0x1.0p-53;
}

Duration SimulatedNetwork::Delay() {
  const auto span = static_cast<uint64_t>((faults_.max_delay - faults_.min_delay).count());
  if (faults_.max_delay <= faults_.min_delay) return faults_.min_delay;
  return faults_.min_delay + Duration(static_cast<Duration::rep>(random_() % (span + 1)));
}

void SimulatedNetwork::Send(const PeerAddress& from, const PeerAddress& to, Message message) {
  Endpoint& sender = *nodes_.at(from);
  if (const auto obstacle = Obstacle(from, to)) {
    sender.counters(to).messages_dropped++;
    Record(from, to, message, *obstacle);
    return;
  }
  if (Uniform() < faults_.drop_probability) {
    sender.counters(to).messages_dropped++;
    Record(from, to, message, TraceEvent::Outcome::kDropped);
    return;
  }
  const bool duplicate = Uniform() < faults_.duplicate_probability;
  PeerCounters& counters = sender.counters(to);
  counters.messages_sent += duplicate ? 2 : 1;
  counters.bytes_sent += (duplicate ? 2 : 1) * FrameSize(message);
  if (duplicate) {
    Record(from, to, message, TraceEvent::Outcome::kDuplicated);
    scheduler_.RunAfter(Delay(), [this, from, to, copy = message]() mutable {
      Deliver(from, to, std::move(copy));
    });
  }
  scheduler_.RunAfter(Delay(), [this, from, to, message = std::move(message)]() mutable {
    Deliver(from, to, std::move(message));
  });
}

void SimulatedNetwork::Deliver(const PeerAddress& from, const PeerAddress& to, Message message) {
  if (const auto obstacle = Obstacle(from, to)) {
    Record(from, to, message, *obstacle);
    return;
  }
  Record(from, to, message, TraceEvent::Outcome::kDelivered);
  Endpoint& receiver = *nodes_.at(to);
  PeerCounters& counters = receiver.counters(from);
  counters.messages_received++;
  counters.bytes_received += FrameSize(message);
  receiver.sink()->OnMessage(from, std::move(message));
}

}  // namespace sibyl::messaging
