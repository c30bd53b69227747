#pragma once
// The layout of the reports that ask every member of the cluster (indexes,
// views, verify-view): one section per node, in the members' order,
// separated by an empty line:
//
//   Node: 127.0.0.1
//   ===============
//   Keyspace  View     Status  ...
//   ks        by_name  built   ...
//
//   Node: 127.0.0.2
//   ===============
//   DOWN: not asked
//
// The sections' tables share their column widths, as nodetool's
// per-datacenter tables do.

#include <string>
#include <vector>

#include "tools/admin/text_table.h"

namespace sibyl::tools::admin {

// What one member answered, or why it was not asked or did not answer.
template <typename Answer>
struct MemberAnswer {
  std::string address;
  // Empty when the member answered; otherwise the line shown instead of its
  // answer ("DOWN: not asked", "Unreachable: <why>").
  std::string unavailable;
  Answer answer{};
};

struct NodeSection {
  std::string address;
  // Shown when it has rows (its header row included).
  TextTable table;
  // Shown instead of an empty table.
  std::string line;
};

std::string FormatNodeSections(const std::vector<NodeSection>& sections);

}  // namespace sibyl::tools::admin
