#pragma once
// `sibyl admin decommission`: the contacted node leaves the ring, as
// `nodetool decommission` makes the node it talks to leave: it hands every
// range it holds to the node taking it over, leaves the cluster's
// directory, then stops. Over CQL: the node's host id from system.local,
// then INSERT INTO system_views.decommission, which answers once the node
// has left (schema/decommission_table.h). Prints nothing when it left; a
// refusal ("Not enough live nodes to maintain replication factor in
// keyspace ks (RF = 3, N = 3). Perform a forceful decommission to
// ignore.") or a failure is an AdminError.

#include <chrono>

#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// Streaming every range a node holds takes a while.
inline constexpr std::chrono::milliseconds kDecommissionTimeout = std::chrono::hours(2);

// `force`: even when fewer nodes than a keyspace's replication factor remain
// (nodetool decommission --force).
void DecommissionNode(const NodeAddress& node, bool force = false);

}  // namespace sibyl::tools::admin
