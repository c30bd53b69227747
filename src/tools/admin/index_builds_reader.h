#pragma once
// Reads the index builds of every member of the cluster over CQL, as any
// client could: system_views.index_builds of each member, asked at its
// native address and port (from system_views.gossip_info).

#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/index_builds.h"
#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// Every row of `node`'s system_views.index_builds. Throws AdminError naming
// the node and the cause when it cannot be reached or asked.
[[nodiscard]] std::vector<IndexBuild> ReadIndexBuilds(const NodeAddress& node);

// Where to ask `member`: its native address and port; its internode address
// when it announced no native address (or a wildcard one), `fallback_port`
// when no port.
[[nodiscard]] NodeAddress NativeAddressOf(const MemberState& member, uint16_t fallback_port);

// The builds of every member in `cluster.members`' order. A member down by
// the contacted node's failure detector is not asked; one that cannot be
// asked is named with the reason. Never throws AdminError.
[[nodiscard]] std::vector<NodeIndexBuilds> ReadClusterIndexBuilds(const ClusterMembers& cluster,
                                                                  const NodeAddress& contacted);

}  // namespace sibyl::tools::admin
