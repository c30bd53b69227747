#pragma once
// Reads ClusterMembers from one node over CQL, as any client could: the
// members from system_views.gossip_info, the schema version from
// system.local, the replication of every keyspace from
// system_schema.keyspaces.

#include "tools/admin/cluster_members.h"
#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// Throws AdminError naming the node and the cause when it cannot be reached,
// a query fails (a node without system_views.gossip_info, for one), or an
// answer cannot be read.
[[nodiscard]] ClusterMembers ReadClusterMembers(const NodeAddress& node);

}  // namespace sibyl::tools::admin
