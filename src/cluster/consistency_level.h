#pragma once
// How many replicas a consistency level needs, and the Unavailable error a
// coordinator answers before contacting any replica when too few are alive,
// as Cassandra 4.1 computes them (db/ConsistencyLevel.java blockFor,
// locator/ReplicaPlans.java assureSufficientLiveReplicas):
//
//   ONE, LOCAL_ONE, ANY → 1; TWO → 2; THREE → 3
//   QUORUM, SERIAL      → all replicas / 2 + 1
//   ALL                 → all replicas
//   LOCAL_QUORUM, LOCAL_SERIAL → the local datacenter's replicas / 2 + 1
//                          (QUORUM's answer unless NetworkTopologyStrategy)
//   EACH_QUORUM         → the sum of every datacenter's local quorum (QUORUM
//                          unless NetworkTopologyStrategy)
//
// Errors (CqlError kUnavailable with consistency, required, alive):
//   Cannot achieve consistency level QUORUM
//   Cannot achieve consistency level EACH_QUORUM in DC dc2
//
// Pure functions: safe from any thread.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "locator/replication_strategy.h"

namespace sibyl::cluster {

// The replicas a request at `consistency` waits for (`consistency` is the
// protocol's code, protocol::Consistency).
[[nodiscard]] int BlockFor(uint16_t consistency, const locator::ReplicationStrategy& strategy,
                           std::string_view local_dc);
// A datacenter's quorum (ConsistencyLevel.localQuorumFor).
[[nodiscard]] int LocalQuorumFor(const locator::ReplicationStrategy& strategy, std::string_view dc);
// LOCAL_ONE, LOCAL_QUORUM and NODE_LOCAL count only the local datacenter's
// replicas (LOCAL_SERIAL is not flagged so in Cassandra either).
[[nodiscard]] bool IsDatacenterLocal(uint16_t consistency);

// What the pending replicas of a write add to its BlockFor (4.1's
// ConsistencyLevel.blockForWrite): none for ANY, the local datacenter's for
// LOCAL_ONE, LOCAL_QUORUM and LOCAL_SERIAL, every one for the others.
// `pending` is each pending replica's datacenter.
[[nodiscard]] int PendingBlockFor(uint16_t consistency, std::span<const std::string_view> pending,
                                  std::string_view local_dc);

// Throws CqlError(kUnavailable) unless `live` — the datacenter of each live
// replica the request could use — satisfies `consistency`, `block_for`
// being BlockFor's answer. ANY always passes (a hint on the coordinator will do).
void AssureSufficientLiveReplicas(uint16_t consistency,
                                  const locator::ReplicationStrategy& strategy,
                                  std::string_view local_dc, std::span<const std::string_view> live,
                                  int block_for);

}  // namespace sibyl::cluster
