#pragma once
// Columns padded to their widest cell, as nodetool's TableBuilder lays them
// out: every cell left-aligned and padded (the last one too), cells
// separated by a delimiter, one line per row. Tables in one SharedWidths
// group share their column widths, as nodetool's per-datacenter tables do.

#include <string>
#include <vector>

namespace sibyl::tools::admin {

class TextTable {
 public:
  void Add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  std::vector<std::vector<std::string>> rows_;
};

// The widest cell of each column over all `tables`.
std::vector<size_t> ColumnWidths(const std::vector<TextTable>& tables);

// `table`'s rows laid out with `widths` and `delimiter` between cells.
std::string Render(const TextTable& table, const std::vector<size_t>& widths,
                   const std::string& delimiter);

}  // namespace sibyl::tools::admin
