#pragma once
// A keyspace's replicas for every range of the ring, computed once so that
// the request path finds a token's replicas with one binary search and no
// allocation. A placement is a snapshot: when the ring, the topology or the
// keyspace's replication changes, build a new one and swap the shared_ptr.
//
// Immutable once built: safe to share between threads. Views returned stay
// valid while the placement lives.

#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "dht/token.h"
#include "locator/replication_strategy.h"
#include "locator/token_ring.h"
#include "locator/topology.h"

namespace sibyl::locator {

class ReplicaPlacement {
 public:
  // `topology` must place every node of `ring`; `local_node` is
  // LocalStrategy's replica.
  static std::shared_ptr<const ReplicaPlacement> Build(const ReplicationStrategy& strategy,
                                                       const TokenRing& ring,
                                                       const Topology& topology,
                                                       const NodeId& local_node);

  // A token's natural replicas, primary first, as strategy.NaturalReplicas
  // gives them. Empty on an empty ring (but LocalStrategy's).
  std::span<const NodeId> ReplicasFor(dht::Token token) const;
  // The replicas of the range closed by the ring's i-th token.
  // REQUIRES: i < ring_size(), unless the strategy is LocalStrategy (whose
  // placement keeps no ring and answers the local node for anything).
  std::span<const NodeId> ReplicasAt(size_t i) const;

  const ReplicationStrategy& strategy() const { return strategy_; }
  size_t ring_size() const { return tokens_.size(); }

 private:
  explicit ReplicaPlacement(ReplicationStrategy strategy) : strategy_(std::move(strategy)) {}

  ReplicationStrategy strategy_;
  std::vector<dht::Token> tokens_;  // the ring's tokens, sorted
  // Range i's replicas are replicas_[offsets_[i], offsets_[i + 1]).
  std::vector<uint32_t> offsets_;
  std::vector<NodeId> replicas_;
  std::vector<NodeId> local_;  // LocalStrategy's answer, for any token
};

}  // namespace sibyl::locator
