#include "tools/admin/node_sections.h"

namespace sibyl::tools::admin {

std::string FormatNodeSections(const std::vector<NodeSection>& sections) {
  std::vector<TextTable> tables;
  tables.reserve(sections.size());
  for (const NodeSection& section : sections) tables.push_back(section.table);
  const std::vector<size_t> widths = ColumnWidths(tables);
  std::string out;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (i > 0) out += '\n';
    const std::string header = "Node: " + sections[i].address;
    out += header + '\n' + std::string(header.size(), '=') + '\n';
    if (sections[i].table.rows().empty()) {
      out += sections[i].line + '\n';
    } else {
      out += Render(sections[i].table, widths, "  ");
    }
  }
  return out;
}

}  // namespace sibyl::tools::admin
