#include "tools/admin/index_builds.h"

namespace sibyl::tools::admin {

std::string FormatIndexBuilds(const std::vector<NodeIndexBuilds>& nodes,
                              const std::optional<std::string>& keyspace) {
  return FormatBuilds(
      nodes, keyspace, {"Keyspace", "Table", "Index"},
      [](const IndexBuild& build) {
        return std::vector<std::string>{build.keyspace, build.table, build.index};
      },
      "No secondary indexes");
}

}  // namespace sibyl::tools::admin
