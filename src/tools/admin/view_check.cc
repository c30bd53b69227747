#include "tools/admin/view_check.h"

#include <algorithm>

namespace sibyl::tools::admin {
namespace {

std::string Count(int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

NodeSection Section(const std::string& qualified, const NodeViewCheck& node) {
  NodeSection section{.address = node.address, .table = {}, .line = node.unavailable};
  if (!node.unavailable.empty()) return section;
  if (!node.answer.check) {
    section.line = node.answer.refusal;
    return section;
  }
  const ViewCheck& check = *node.answer.check;
  section.table.Add({"View", "Rows", "Missing", "Unexpected", "Different", "Repaired"});
  section.table.Add({qualified, std::to_string(check.rows_expected), std::to_string(check.missing),
                     std::to_string(check.unexpected), std::to_string(check.different),
                     std::to_string(check.repaired)});
  return section;
}

}  // namespace

int64_t ViewCheck::remaining() const {
  return std::max<int64_t>(0, missing + unexpected + different - repaired);
}

std::string FormatViewChecks(const std::string& keyspace, const std::string& view, bool repair,
                             const std::vector<NodeViewCheck>& nodes) {
  const std::string qualified = keyspace + "." + view;
  std::vector<NodeSection> sections;
  int64_t remaining = 0;
  int64_t repaired = 0;
  int64_t nodes_differing = 0;
  std::vector<std::string> not_checked;
  for (const NodeViewCheck& node : nodes) {
    sections.push_back(Section(qualified, node));
    if (!node.unavailable.empty() || !node.answer.check) {
      not_checked.push_back(node.address);
      continue;
    }
    const ViewCheck& check = *node.answer.check;
    remaining += check.remaining();
    repaired += check.repaired;
    if (check.remaining() > 0) ++nodes_differing;
  }
  std::string out = FormatNodeSections(sections) + '\n';
  if (not_checked.size() == nodes.size()) return out + qualified + " was not checked on any node\n";
  const std::string differing = Count(remaining, "row") + " on " + Count(nodes_differing, "node");
  if (!repair) {
    out += remaining == 0 ? qualified + " is consistent with its base on every node asked\n"
                          : qualified + " differs from its base: " + differing +
                                " (run with --repair to rewrite them)\n";
  } else {
    out += qualified + ": " + Count(repaired, "row") + " repaired\n";
    if (remaining > 0) out += qualified + " still differs from its base: " + differing + "\n";
  }
  if (!not_checked.empty()) {
    std::string names;
    for (const std::string& address : not_checked) {
      names += (names.empty() ? "" : ", ") + address;
    }
    out += qualified + " was not checked on " +
           Count(static_cast<int64_t>(not_checked.size()), "node") + ": " + names + "\n";
  }
  return out;
}

bool ViewChecksClean(const std::vector<NodeViewCheck>& nodes) {
  return !nodes.empty() && std::all_of(nodes.begin(), nodes.end(), [](const NodeViewCheck& node) {
    return node.unavailable.empty() && node.answer.check && node.answer.check->remaining() == 0;
  });
}

}  // namespace sibyl::tools::admin
