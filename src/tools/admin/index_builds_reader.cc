#include "tools/admin/index_builds_reader.h"

#include "tools/admin/member_queries.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kIndexBuildsQuery =
    "SELECT keyspace_name, table_name, index_name, status, partitions_built, last_token, failure "
    "FROM system_views.index_builds";

}  // namespace

IndexBuild IndexBuildOfRow(const AdminRow& row) {
  return IndexBuild{.keyspace = RequiredColumn(row, 0, "keyspace_name"),
                    .table = RequiredColumn(row, 1, "table_name"),
                    .index = RequiredColumn(row, 2, "index_name"),
                    .progress = ReadBuildProgress(row, 3)};
}

std::vector<IndexBuild> ReadIndexBuilds(const NodeAddress& node) {
  std::vector<IndexBuild> builds;
  WithNodeConnection(node, [&](client::Connection& connection) {
    for (const AdminRow& row : QueryRows(connection, node, kIndexBuildsQuery)) {
      builds.push_back(IndexBuildOfRow(row));
    }
  });
  return builds;
}

std::vector<NodeIndexBuilds> ReadClusterIndexBuilds(const ClusterMembers& cluster,
                                                    const NodeAddress& contacted) {
  return AskEveryMember(cluster, contacted, ReadIndexBuilds);
}

}  // namespace sibyl::tools::admin
