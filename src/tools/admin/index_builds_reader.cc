#include "tools/admin/index_builds_reader.h"

#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kIndexBuildsQuery =
    "SELECT keyspace_name, table_name, index_name, status, partitions_built, last_token, failure "
    "FROM system_views.index_builds";

IndexBuild ReadBuild(const AdminRow& row) {
  IndexBuild build;
  build.keyspace = RequiredColumn(row, 0, "keyspace_name");
  build.table = RequiredColumn(row, 1, "table_name");
  build.index = RequiredColumn(row, 2, "index_name");
  build.status = RequiredColumn(row, 3, "status");
  build.partitions_built = types::DecodeBigint(RequiredColumn(row, 4, "partitions_built"));
  if (row.size() > 5 && row[5]) build.last_token = types::DecodeBigint(*row[5]);
  if (row.size() > 6 && row[6]) build.failure = *row[6];
  return build;
}

}  // namespace

std::vector<IndexBuild> ReadIndexBuilds(const NodeAddress& node) {
  std::vector<IndexBuild> builds;
  WithNodeConnection(node, [&](client::Connection& connection) {
    for (const AdminRow& row : QueryRows(connection, node, kIndexBuildsQuery)) {
      builds.push_back(ReadBuild(row));
    }
  });
  return builds;
}

NodeAddress NativeAddressOf(const MemberState& member, uint16_t fallback_port) {
  NodeAddress node;
  const std::string& native = member.native_address;
  const bool wildcard = native.empty() || native == "0.0.0.0" || native == "::";
  node.host = wildcard ? member.address : native;
  node.port = member.native_port != 0 ? member.native_port : fallback_port;
  return node;
}

std::vector<NodeIndexBuilds> ReadClusterIndexBuilds(const ClusterMembers& cluster,
                                                    const NodeAddress& contacted) {
  std::vector<NodeIndexBuilds> nodes;
  for (const MemberState& member : cluster.members) {
    NodeIndexBuilds& node = nodes.emplace_back();
    node.address = member.address;
    if (member.alive == false) {
      node.unavailable = "DOWN: not asked";
      continue;
    }
    try {
      node.builds = ReadIndexBuilds(NativeAddressOf(member, contacted.port));
    } catch (const AdminError& e) {
      node.unavailable = std::string("Unreachable: ") + e.what();
    }
  }
  return nodes;
}

}  // namespace sibyl::tools::admin
