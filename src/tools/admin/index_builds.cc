#include "tools/admin/index_builds.h"

#include <algorithm>
#include <tuple>

#include "tools/admin/text_table.h"

namespace sibyl::tools::admin {
namespace {

std::vector<const IndexBuild*> Shown(const NodeIndexBuilds& node,
                                     const std::optional<std::string>& keyspace) {
  std::vector<const IndexBuild*> shown;
  for (const IndexBuild& build : node.builds) {
    if (!keyspace || build.keyspace == *keyspace) shown.push_back(&build);
  }
  std::sort(shown.begin(), shown.end(), [](const IndexBuild* a, const IndexBuild* b) {
    return std::tie(a->keyspace, a->table, a->index) < std::tie(b->keyspace, b->table, b->index);
  });
  return shown;
}

}  // namespace

std::string FormatIndexBuilds(const std::vector<NodeIndexBuilds>& nodes,
                              const std::optional<std::string>& keyspace) {
  // One table per node that answered with builds; they share their widths.
  std::vector<TextTable> tables(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::vector<const IndexBuild*> shown = Shown(nodes[i], keyspace);
    if (!nodes[i].unavailable.empty() || shown.empty()) continue;
    TextTable& table = tables[i];
    table.Add(
        {"Keyspace", "Table", "Index", "Status", "Partitions built", "Last token", "Failure"});
    for (const IndexBuild* build : shown) {
      table.Add({build->keyspace, build->table, build->index, build->status,
                 std::to_string(build->partitions_built),
                 build->last_token ? std::to_string(*build->last_token) : "",
                 build->failure.value_or("")});
    }
  }
  const std::vector<size_t> widths = ColumnWidths(tables);
  std::string out;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i > 0) out += '\n';
    const std::string header = "Node: " + nodes[i].address;
    out += header + '\n' + std::string(header.size(), '=') + '\n';
    if (!nodes[i].unavailable.empty()) {
      out += nodes[i].unavailable + '\n';
    } else if (tables[i].rows().empty()) {
      out += keyspace ? "No secondary indexes in " + *keyspace + "\n" : "No secondary indexes\n";
    } else {
      out += Render(tables[i], widths, "  ");
    }
  }
  return out;
}

}  // namespace sibyl::tools::admin
