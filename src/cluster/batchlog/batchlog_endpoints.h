#pragma once
// Where a coordinator stores a logged batch before sending its mutations
// (Cassandra's ReplicaPlans.forBatchlogWrite / filterBatchlogEndpoints): up
// to two live nodes of the local datacenter other than itself, on racks
// other than its own when there are some, on two different racks when it
// can. None alive: for ANY the coordinator keeps the batch itself; for any
// other level the write is Unavailable ("Cannot achieve consistency level
// ONE", required 1, alive 0), as in Cassandra.
//
// Pure function of the view and liveness: safe from any thread.

#include <cstdint>
#include <vector>

#include "cluster/cluster_view.h"
#include "cluster/liveness.h"

namespace sibyl::cluster {

// `spread` (the batch id's hash, say) rotates the choice among equally good
// nodes so that batches do not all land on the same two. Throws
// CqlError(kUnavailable).
std::vector<types::Uuid> BatchlogEndpoints(const ClusterView& view, const Liveness& liveness,
                                           bool consistency_is_any, uint64_t spread);

}  // namespace sibyl::cluster
