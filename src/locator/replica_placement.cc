#include "locator/replica_placement.h"

#include <algorithm>

#include "common/check.h"

namespace sibyl::locator {

std::shared_ptr<const ReplicaPlacement> ReplicaPlacement::Build(const ReplicationStrategy& strategy,
                                                                const TokenRing& ring,
                                                                const Topology& topology,
                                                                const NodeId& local_node) {
  std::shared_ptr<ReplicaPlacement> placement(new ReplicaPlacement(strategy));
  if (strategy.kind() == ReplicationStrategy::Kind::kLocal) {
    placement->local_ = {local_node};
    return placement;
  }
  placement->tokens_.assign(ring.tokens().begin(), ring.tokens().end());
  placement->offsets_.reserve(ring.size() + 1);
  placement->offsets_.push_back(0);
  for (const std::vector<NodeId>& replicas :
       strategy.NaturalReplicasOfEveryRange(ring, topology, local_node)) {
    placement->replicas_.insert(placement->replicas_.end(), replicas.begin(), replicas.end());
    placement->offsets_.push_back(static_cast<uint32_t>(placement->replicas_.size()));
  }
  return placement;
}

std::span<const NodeId> ReplicaPlacement::ReplicasFor(dht::Token token) const {
  if (!local_.empty()) return local_;
  if (tokens_.empty()) return {};
  const auto it = std::lower_bound(tokens_.begin(), tokens_.end(), token);
  return ReplicasAt(it == tokens_.end() ? 0 : static_cast<size_t>(it - tokens_.begin()));
}

std::span<const NodeId> ReplicaPlacement::ReplicasAt(size_t i) const {
  if (!local_.empty()) return local_;
  SIBYL_CHECK(i < tokens_.size(), "ring index " + std::to_string(i));
  return std::span<const NodeId>(replicas_).subspan(offsets_[i], offsets_[i + 1] - offsets_[i]);
}

}  // namespace sibyl::locator
