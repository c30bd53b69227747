#pragma once
// Small text helpers the shell's files share: ASCII case folding of keywords
// and reading a text cell of a system-table result by column name.

#include <cctype>
#include <string>
#include <string_view>

#include "client/response_decoder.h"

namespace sibyl::tools::shell {

inline std::string AsciiUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

inline std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

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
