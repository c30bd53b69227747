#pragma once
// Reads ClusterMembers from one node over CQL, as any client could: the
// members from system_views.gossip_info, the schema version from
// system.local, the replication of every keyspace from
// system_schema.keyspaces.

#include <cstdint>
#include <string>

#include "tools/admin/cluster_members.h"

namespace sibyl::tools::admin {

struct NodeAddress {
  // Default: 127.0.0.1 (nodetool's default host).
  std::string host = "127.0.0.1";
  // The node's CQL port. Default: 9042.
  uint16_t port = 9042;
};

// Throws AdminError naming the node and the cause when it cannot be reached,
// a query fails (a node without system_views.gossip_info, for one), or an
// answer cannot be read.
[[nodiscard]] ClusterMembers ReadClusterMembers(const NodeAddress& node);

}  // namespace sibyl::tools::admin
