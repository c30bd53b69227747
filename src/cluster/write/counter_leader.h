#pragma once
// The counter leader's step of a counter update on a cluster (Cassandra's
// CounterMutation.applyCounterMutation): the update arrives as deltas (the
// amount each counter cell changes by); the leader, a replica of the
// partition, reads its own shard of each of those counters, and returns
// the write that sets that shard to clock + 1 and value + delta
// (storage/cells/counter_context.h). That write, unlike a delta, can be sent to
// every replica, retried, hinted and read-repaired: each copy counts once.
//
// A node that lost its data (a new disk) would restart its shard's clock
// and be ignored by replicas holding higher clocks; replacing a node is
// not supported yet (docs/cluster.md).
//
// Not thread-safe on its own: the caller holds the partition's counter lock
// (PartitionLocks) from the read until the returned write is applied here,
// so two updates of one counter on this node never read the same shard.

#include <cstdint>

#include "storage/data/mutation.h"
#include "storage/engine.h"
#include "types/uuid.h"

namespace sibyl::cluster {

// `deltas` holds counter cells (8-byte deltas) and nothing else; the
// result holds the same cells as shards of `leader`. Throws
// std::invalid_argument for anything else in `deltas`.
[[nodiscard]] storage::Mutation CounterShardsForUpdate(const storage::Engine& engine,
                                                       const storage::Mutation& deltas,
                                                       const types::Uuid& leader,
                                                       int32_t now_seconds);

}  // namespace sibyl::cluster
