#pragma once
// `sibyl admin views [KEYSPACE]`: the materialized view builds of every
// node (each node's system_views.view_builds), one table per node headed by
// its address, in the members' order (node_sections.h):
//
//   Node: 127.0.0.1
//   ===============
//   Keyspace  View          Status    Partitions built  Last token  Failure
//   shop      users_by_age  built     1200
//   shop      users_by_zip  building  310               -4611686...
//
//   Node: 127.0.0.2
//   ===============
//   DOWN: not asked
//
// Rows sorted by keyspace and view; with a keyspace, only its builds. Last
// token is empty unless building, Failure unless failed. A node without
// builds (in the keyspace) says "No materialized views"; a member down by
// the contacted node's failure detector, or one that cannot be asked, gets
// one line saying so. The tables share their column widths.

#include <optional>
#include <string>
#include <vector>

#include "tools/admin/build_progress.h"
#include "tools/admin/node_sections.h"

namespace sibyl::tools::admin {

// One row of system_views.view_builds.
struct ViewBuild {
  std::string keyspace;
  std::string view;
  BuildProgress progress;
};

using NodeViewBuilds = MemberAnswer<std::vector<ViewBuild>>;

std::string FormatViewBuilds(const std::vector<NodeViewBuilds>& nodes,
                             const std::optional<std::string>& keyspace);

}  // namespace sibyl::tools::admin
