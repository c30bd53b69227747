#include "tools/stress/token_aware_router.h"

#include <algorithm>

#include "locator/replication_strategy.h"
#include "locator/topology.h"

namespace sibyl::tools {

TokenAwareRouter::TokenAwareRouter(const std::vector<RingNode>& nodes,
                                   const std::map<std::string, std::string>& replication) {
  std::map<locator::NodeId, std::vector<dht::Token>> tokens;
  std::map<locator::NodeId, locator::Location> locations;
  std::map<locator::NodeId, uint32_t> index_of;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    tokens[nodes[i].host_id] = nodes[i].tokens;
    locations[nodes[i].host_id] = {nodes[i].datacenter, nodes[i].rack};
    index_of[nodes[i].host_id] = i;
  }
  const locator::TokenRing ring(tokens);
  const locator::Topology topology(std::move(locations));
  const auto strategy = locator::ReplicationStrategy::FromMap(replication);
  // LocalStrategy aside (never a stress keyspace), any node computes the same replicas.
  const locator::NodeId any_node = ring.empty() ? locator::NodeId{} : ring.nodes().front();
  const auto replicas = strategy.NaturalReplicasOfEveryRange(ring, topology, any_node);
  tokens_.assign(ring.tokens().begin(), ring.tokens().end());
  offsets_.push_back(0);
  for (size_t i = 0; i < ring.size(); ++i) {
    for (const locator::NodeId& id : replicas[i]) replicas_.push_back(index_of.at(id));
    offsets_.push_back(static_cast<uint32_t>(replicas_.size()));
  }
}

std::span<const uint32_t> TokenAwareRouter::ReplicasOf(BytesView routing_key) const {
  if (tokens_.empty()) return {};
  const dht::Token token = dht::Murmur3Token(routing_key);
  // The range (previous, t] holding `token` is closed by the first ring token >= it.
  size_t i = static_cast<size_t>(std::lower_bound(tokens_.begin(), tokens_.end(), token) -
                                 tokens_.begin());
  if (i == tokens_.size()) i = 0;  // past the last token: the range that wraps
  return std::span<const uint32_t>(replicas_).subspan(offsets_[i], offsets_[i + 1] - offsets_[i]);
}

}  // namespace sibyl::tools
