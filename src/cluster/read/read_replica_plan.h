#pragma once
// Which replicas a read contacts (Cassandra 4.1's ReplicaPlans.forRead /
// forRangeRead without speculation): the live replicas, sorted by
// proximity — this node, then its datacenter, then the others, each group
// in the placement's order — keeping only the local datacenter's for
// LOCAL_ONE / LOCAL_QUORUM; Unavailable (consistency_level.h) when they
// cannot satisfy the level. The first block_for of them are asked.
//
// Pure function of its inputs: safe from any thread.

#include <cstdint>
#include <span>
#include <vector>

#include "cluster/cluster_view.h"
#include "cluster/liveness.h"

namespace sibyl::cluster {

struct ReadReplicaPlan {
  std::vector<locator::NodeId> contacts;  // live, by proximity; size() >= block_for
  int block_for = 1;
};

// `replicas`: the natural replicas of the partition or range read.
// Throws CqlError(kUnavailable).
[[nodiscard]] ReadReplicaPlan PlanRead(const ClusterView& view, const Liveness& liveness,
                                       const KeyspaceReplication& replication,
                                       std::span<const locator::NodeId> replicas,
                                       uint16_t consistency);

}  // namespace sibyl::cluster
