#include "tools/admin/text_table.h"

#include <algorithm>

namespace sibyl::tools::admin {

std::vector<size_t> ColumnWidths(const std::vector<TextTable>& tables) {
  std::vector<size_t> widths;
  for (const TextTable& table : tables) {
    for (const auto& row : table.rows()) {
      if (row.size() > widths.size()) widths.resize(row.size(), 0);
      for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
  }
  return widths;
}

std::string Render(const TextTable& table, const std::vector<size_t>& widths,
                   const std::string& delimiter) {
  std::string out;
  for (const auto& row : table.rows()) {
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      out += cell;
      out.append(widths[i] > cell.size() ? widths[i] - cell.size() : 0, ' ');
      if (i + 1 < widths.size()) out += delimiter;
    }
    out += '\n';
  }
  return out;
}

}  // namespace sibyl::tools::admin
