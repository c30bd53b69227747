#pragma once
// Small text helpers the shell's files share: reading a text cell of a
// system-table result by column name (ASCII case folding is common/ascii_case.h).

#include <cctype>
#include <string>
#include <string_view>

#include "client/response_decoder.h"
#include "common/ascii_case.h"

namespace sibyl::tools::shell {

// The text of `column` in row `row` of `rows`; "" when null or missing.
inline std::string TextCell(const client::RowsResult& rows, size_t row, std::string_view column) {
  for (size_t i = 0; i < rows.metadata.columns.size(); ++i) {
    if (rows.metadata.columns[i].name == column && row < rows.rows.size() && rows.rows[row][i]) {
      return *rows.rows[row][i];
    }
  }
  return "";
}

}  // namespace sibyl::tools::shell
