#include "tools/admin/view_builds_reader.h"

#include "tools/admin/member_queries.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kViewBuildsQuery =
    "SELECT keyspace_name, view_name, status, partitions_built, last_token, failure "
    "FROM system_views.view_builds";

}  // namespace

ViewBuild ViewBuildOfRow(const AdminRow& row) {
  return ViewBuild{.keyspace = RequiredColumn(row, 0, "keyspace_name"),
                   .view = RequiredColumn(row, 1, "view_name"),
                   .progress = ReadBuildProgress(row, 2)};
}

std::vector<ViewBuild> ReadViewBuilds(const NodeAddress& node) {
  std::vector<ViewBuild> builds;
  WithNodeConnection(node, [&](client::Connection& connection) {
    for (const AdminRow& row : QueryRows(connection, node, kViewBuildsQuery)) {
      builds.push_back(ViewBuildOfRow(row));
    }
  });
  return builds;
}

std::vector<NodeViewBuilds> ReadClusterViewBuilds(const ClusterMembers& cluster,
                                                  const NodeAddress& contacted) {
  return AskEveryMember(cluster, contacted, ReadViewBuilds);
}

}  // namespace sibyl::tools::admin
