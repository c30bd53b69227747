#include "tools/admin/flush.h"

#include <algorithm>

#include "tools/admin/admin_error.h"

namespace sibyl::tools::admin {

std::vector<TableSelection> TablesToFlush(const SchemaTables& schema,
                                          const std::optional<std::string>& keyspace,
                                          const std::vector<std::string>& tables) {
  std::vector<TableSelection> out;
  if (!keyspace) {
    for (const auto& [name, names] : schema) {
      for (const std::string& table : names) out.push_back({name, table});
    }
    return out;
  }
  const auto found = schema.find(*keyspace);
  if (found == schema.end()) throw AdminError("Keyspace " + *keyspace + " does not exist");
  if (tables.empty()) {
    for (const std::string& table : found->second) out.push_back({*keyspace, table});
    return out;
  }
  for (const std::string& table : tables) {
    if (!found->second.contains(table)) {
      throw AdminError("Unknown keyspace/cf pair (" + *keyspace + "." + table + ")");
    }
    out.push_back({*keyspace, table});
  }
  return out;
}

std::string FormatFlushes(const std::string& what, const std::vector<NodeFlush>& nodes) {
  std::vector<NodeSection> sections;
  for (const NodeFlush& node : nodes) {
    NodeSection& section = sections.emplace_back();
    section.address = node.address;
    if (!node.unavailable.empty()) {
      section.line = node.unavailable;
    } else if (!node.answer.refusal.empty()) {
      section.line = "Not flushed: " + node.answer.refusal;
    } else {
      const int64_t n = node.answer.flushed;
      section.line =
          "Flushed " + std::to_string(n) + (n == 1 ? " table" : " tables") + " of " + what;
    }
  }
  return FormatNodeSections(sections);
}

bool FlushesComplete(const std::vector<NodeFlush>& nodes) {
  return !nodes.empty() && std::all_of(nodes.begin(), nodes.end(), [](const NodeFlush& node) {
    return node.unavailable.empty() && node.answer.refusal.empty();
  });
}

}  // namespace sibyl::tools::admin
