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

#include <optional>
#include <string>
#include <vector>

#include "tools/admin/build_progress.h"
#include "tools/admin/node_sections.h"

namespace sibyl::tools::admin {

// One row of system_views.index_builds.
struct IndexBuild {
  std::string keyspace;
  std::string table;
  std::string index;
  BuildProgress progress;
};

using NodeIndexBuilds = MemberAnswer<std::vector<IndexBuild>>;

std::string FormatIndexBuilds(const std::vector<NodeIndexBuilds>& nodes,
                              const std::optional<std::string>& keyspace);

}  // namespace sibyl::tools::admin
