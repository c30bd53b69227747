#pragma once
// How much of the ring each node holds, as `nodetool status` reports it:
// "Owns" is the fraction of the ring a node owns as primary replica (the
// sum of its ranges (previous token, token]); "Owns (effective)" is the
// fraction it holds as any replica of a keyspace (the sum of the ranges it
// replicates), so that with RF 3 on 3 nodes every node owns 100%.
//
// Pure functions of their inputs.

#include <map>

#include "locator/replica_placement.h"
#include "locator/token_ring.h"

namespace sibyl::locator {

// Node → fraction in [0, 1] for each node of the ring; the fractions sum to
// 1. A ring of one token gives its node the whole ring.
std::map<NodeId, double> PrimaryOwnership(const TokenRing& ring);

// Node → fraction in [0, 1] for each node that replicates some range; the
// fractions sum to the average number of replicas per range (the factor,
// when the ring has enough nodes). `placement` must be built on `ring`;
// a LocalStrategy placement gives its node the whole ring.
std::map<NodeId, double> EffectiveOwnership(const TokenRing& ring,
                                            const ReplicaPlacement& placement);

}  // namespace sibyl::locator
