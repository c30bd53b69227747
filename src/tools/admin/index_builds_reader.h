#pragma once
// Reads the index builds of every member of the cluster over CQL, as any
// client could: system_views.index_builds of each member, asked at its
// native address and port (from system_views.gossip_info).

#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/index_builds.h"
#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// One row of the answer to
//   SELECT keyspace_name, table_name, index_name, status, partitions_built,
//          last_token, failure FROM system_views.index_builds
// Throws AdminError on a null where a value belongs, or a malformed value.
[[nodiscard]] IndexBuild IndexBuildOfRow(const AdminRow& row);

// Every row of `node`'s system_views.index_builds. Throws AdminError naming
// the node and the cause when it cannot be reached or asked.
[[nodiscard]] std::vector<IndexBuild> ReadIndexBuilds(const NodeAddress& node);

// The builds of every member in `cluster.members`' order (AskEveryMember).
// Never throws AdminError.
[[nodiscard]] std::vector<NodeIndexBuilds> ReadClusterIndexBuilds(const ClusterMembers& cluster,
                                                                  const NodeAddress& contacted);

}  // namespace sibyl::tools::admin
