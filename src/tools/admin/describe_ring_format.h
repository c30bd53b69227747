#pragma once
// `sibyl admin describering KEYSPACE`: what `nodetool describering` 4.1
// prints: the contacted node's schema version, then one line per range of
// the ring (previous token, token] with the keyspace's natural replicas in
// the strategy's order, their native addresses, datacenters and racks:
//
//   Schema Version:<uuid>
//   TokenRange:
//   <TAB>TokenRange(start_token:-3, end_token:7, endpoints:[127.0.0.2, 127.0.0.1],
//   rpc_endpoints:[127.0.0.2, 127.0.0.1], endpoint_details:[EndpointDetails(host:127.0.0.2,
//   datacenter:dc1, rack:r1), EndpointDetails(host:127.0.0.1, datacenter:dc1, rack:r1)])
//
// (each TokenRange on one line; "TokenRange: " ends with a space). Cassandra
// lists the ranges in hash order; Sibyl lists them in ring order, the range
// that wraps around the end of the ring first.

#include <string>

#include "tools/admin/cluster_members.h"

namespace sibyl::tools::admin {

// Throws AdminError when the keyspace is unknown or uses LocalStrategy
// ("There is no ring for the keyspace: system", Cassandra's words).
std::string FormatDescribeRing(const ClusterMembers& cluster, const std::string& keyspace);

}  // namespace sibyl::tools::admin
