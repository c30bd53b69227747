#pragma once
// What the build reports (`indexes`, `views`) share: the progress columns
// of system_views.index_builds and system_views.view_builds, and the report
// laid out per node (node_sections.h). Each build's row is the names that
// identify it (keyspace first; rows sort by them), then
//
//   Status    Partitions built  Last token            Failure
//   building  310               -4611686018427387904
//
// Last token is empty unless building, Failure unless failed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/admin/node_connection.h"
#include "tools/admin/node_sections.h"

namespace sibyl::tools::admin {

struct BuildProgress {
  std::string status;  // built, building or failed
  int64_t partitions_built = 0;
  std::optional<int64_t> last_token;
  std::optional<std::string> failure;
};

// The progress in `row`'s columns status, partitions_built, last_token and
// failure, from `first_column` on. Throws AdminError on a null status or
// partition count, or a malformed value.
[[nodiscard]] BuildProgress ReadBuildProgress(const AdminRow& row, size_t first_column);

// One node's section: `unavailable` when not empty; otherwise the table of
// `rows` (each the build's names, then its progress) sorted, under
// `name_headers` and the progress' headers; "<none>" (" in KEYSPACE" with
// one) for a node without rows.
struct BuildRow {
  std::vector<std::string> names;
  const BuildProgress* progress = nullptr;
};
[[nodiscard]] NodeSection BuildsSection(const std::string& address, const std::string& unavailable,
                                        const std::vector<std::string>& name_headers,
                                        std::vector<BuildRow> rows, const std::string& none,
                                        const std::optional<std::string>& keyspace);

// Every node's builds of `keyspace` (all without one). `Build` has a
// `keyspace` and a `progress`; `names(build)` gives its names, keyspace first.
template <typename Build, typename Names>
[[nodiscard]] std::string FormatBuilds(const std::vector<MemberAnswer<std::vector<Build>>>& nodes,
                                       const std::optional<std::string>& keyspace,
                                       const std::vector<std::string>& name_headers,
                                       const Names& names, const std::string& none) {
  std::vector<NodeSection> sections;
  for (const MemberAnswer<std::vector<Build>>& node : nodes) {
    std::vector<BuildRow> rows;
    for (const Build& build : node.answer) {
      if (!keyspace || build.keyspace == *keyspace) rows.push_back({names(build), &build.progress});
    }
    sections.push_back(BuildsSection(node.address, node.unavailable, name_headers, std::move(rows),
                                     none, keyspace));
  }
  return FormatNodeSections(sections);
}

}  // namespace sibyl::tools::admin
