#pragma once
// Reads the materialized view builds of every member of the cluster over
// CQL: system_views.view_builds of each member, asked at its native address
// and port (member_queries.h).

#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/node_connection.h"
#include "tools/admin/view_builds.h"

namespace sibyl::tools::admin {

// One row of the answer to
//   SELECT keyspace_name, view_name, status, partitions_built, last_token,
//          failure FROM system_views.view_builds
// Throws AdminError on a null where a value belongs, or a malformed value.
[[nodiscard]] ViewBuild ViewBuildOfRow(const AdminRow& row);

// Every row of `node`'s system_views.view_builds. Throws AdminError naming
// the node and the cause when it cannot be reached or asked.
[[nodiscard]] std::vector<ViewBuild> ReadViewBuilds(const NodeAddress& node);

// The builds of every member in `cluster.members`' order (AskEveryMember).
// Never throws AdminError.
[[nodiscard]] std::vector<NodeViewBuilds> ReadClusterViewBuilds(const ClusterMembers& cluster,
                                                                const NodeAddress& contacted);

}  // namespace sibyl::tools::admin
