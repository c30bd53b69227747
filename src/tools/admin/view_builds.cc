#include "tools/admin/view_builds.h"

namespace sibyl::tools::admin {

std::string FormatViewBuilds(const std::vector<NodeViewBuilds>& nodes,
                             const std::optional<std::string>& keyspace) {
  return FormatBuilds(
      nodes, keyspace, {"Keyspace", "View"},
      [](const ViewBuild& build) {
        return std::vector<std::string>{build.keyspace, build.view};
      },
      "No materialized views");
}

}  // namespace sibyl::tools::admin
