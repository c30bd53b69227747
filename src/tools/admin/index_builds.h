#pragma once
// `sibyl admin indexes [KEYSPACE]`: the secondary index builds of every
// node (each node's system_views.index_builds), one table per node headed
// by its address, in the members' order:
//
//   Node: 127.0.0.1
//   ===============
//   Keyspace  Table   Index   Status    Partitions built  Last token  Failure
//   ks        users   by_age  built     1200
//   ks        users   by_zip  building  310               -4611686...
//
//   Node: 127.0.0.2
//   ===============
//   DOWN: not asked
//
// Rows sorted by keyspace, table and index; with a keyspace, only its
// builds. Last token is empty unless building, Failure unless failed. A node
// without builds (in the keyspace) says "No secondary indexes"; a member down
// by the contacted node's failure detector, or one that cannot be asked,
// gets one line saying so. The tables share their column widths.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sibyl::tools::admin {

// One row of system_views.index_builds.
struct IndexBuild {
  std::string keyspace;
  std::string table;
  std::string index;
  std::string status;  // built, building or failed
  int64_t partitions_built = 0;
  std::optional<int64_t> last_token;
  std::optional<std::string> failure;
};

// What one member answered, or why it was not asked or did not answer.
struct NodeIndexBuilds {
  std::string address;
  // Empty when the node answered; otherwise the line shown instead of its table.
  std::string unavailable;
  std::vector<IndexBuild> builds;
};

std::string FormatIndexBuilds(const std::vector<NodeIndexBuilds>& nodes,
                              const std::optional<std::string>& keyspace);

}  // namespace sibyl::tools::admin
