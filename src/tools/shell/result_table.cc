#include "tools/shell/result_table.h"

#include <algorithm>

namespace sibyl::tools::shell {
namespace {

std::string Padding(const std::string& text, size_t width) {
  const size_t used = DisplayWidth(text);
  return std::string(width > used ? width - used : 0, ' ');
}

std::vector<size_t> ColumnWidths(const FormattedPage& page) {
  std::vector<size_t> widths;
  widths.reserve(page.names.size());
  for (const std::string& name : page.names) widths.push_back(DisplayWidth(name));
  for (const auto& row : page.rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  }
  return widths;
}

// Python's str.rstrip(): trailing white space goes.
std::string RightTrimmed(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
  return text;
}

}  // namespace

size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033' && i + 1 < text.size() && text[i + 1] == '[') {  // a colour: no width
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    width += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  }
  return width;
}

void Columnize(std::ostream& out, const std::vector<std::string>& items, size_t display_width) {
  if (items.empty()) {
    out << "<empty>\n";
    return;
  }
  if (items.size() == 1) {
    out << items[0] << '\n';
    return;
  }
  const size_t size = items.size();
  size_t rows = size;
  std::vector<size_t> widths;
  bool fits = false;
  for (size_t nrows = 1; nrows < size && !fits; ++nrows) {
    const size_t ncols = (size + nrows - 1) / nrows;
    widths.clear();
    long total = -2;
    for (size_t col = 0; col < ncols; ++col) {
      size_t width = 0;
      for (size_t row = 0; row < nrows && row + nrows * col < size; ++row) {
        width = std::max(width, DisplayWidth(items[row + nrows * col]));
      }
      widths.push_back(width);
      total += static_cast<long>(width) + 2;
      if (total > static_cast<long>(display_width)) break;
    }
    if (total <= static_cast<long>(display_width)) {
      fits = true;
      rows = nrows;
    }
  }
  if (!fits) widths.assign(1, 0);
  const size_t cols = (size + rows - 1) / rows;
  for (size_t row = 0; row < rows; ++row) {
    std::vector<std::string> texts;
    for (size_t col = 0; col < cols; ++col) {
      const size_t i = row + rows * col;
      texts.push_back(i < size ? items[i] : "");
    }
    while (!texts.empty() && texts.back().empty()) texts.pop_back();
    std::string line;
    for (size_t col = 0; col < texts.size(); ++col) {
      if (col > 0) line += "  ";
      line += texts[col] + Padding(texts[col], col < widths.size() ? widths[col] : 0);
    }
    out << line << '\n';
  }
}

void PrintTable(std::ostream& out, const FormattedPage& page, bool with_header, bool tty) {
  const std::vector<size_t> widths = ColumnWidths(page);
  // A page without rows shows its header whatever `with_header` says.
  if (with_header || page.rows.empty()) {
    std::string header;
    std::string rule;
    for (size_t i = 0; i < page.names.size(); ++i) {
      if (i > 0) {
        header += " | ";
        rule += "-+-";
      }
      header += page.names[i] + Padding(page.names[i], widths[i]);
      rule += std::string(widths[i], '-');
    }
    out << ' ' << RightTrimmed(header) << '\n' << '-' << rule << "-\n";
  }
  if (page.rows.empty()) {
    out << '\n';
    return;
  }
  for (const auto& row : page.rows) {
    std::string line;
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      if (i > 0) line += " | ";
      line += Padding(row[i], widths[i]) + row[i];
    }
    out << ' ' << line << '\n';
  }
  if (tty) out << '\n';
}

void PrintVertically(std::ostream& out, const FormattedPage& page, size_t row_offset) {
  size_t name_width = 0;
  size_t value_width = 0;
  for (const std::string& name : page.names) name_width = std::max(name_width, DisplayWidth(name));
  for (const auto& row : page.rows) {
    for (const std::string& value : row) value_width = std::max(value_width, DisplayWidth(value));
  }
  for (size_t r = 0; r < page.rows.size(); ++r) {
    out << "@ Row " << row_offset + r + 1 << '\n';
    out << '-' << std::string(name_width, '-') << "-+-" << std::string(value_width, '-') << "-\n";
    const auto& row = page.rows[r];
    for (size_t i = 0; i < row.size() && i < page.names.size(); ++i) {
      out << ' ' << page.names[i] << Padding(page.names[i], name_width) << " | " << row[i] << '\n';
    }
    out << '\n';
  }
}

void PrintRowCount(std::ostream& out, size_t rows, bool tty) {
  if (!tty) out << '\n';
  out << '(' << rows << " rows)\n";
}

void PrintWarnings(std::ostream& out, const std::vector<std::string>& warnings) {
  if (warnings.empty()) return;
  out << "\nWarnings :\n";
  for (const std::string& warning : warnings) out << warning << "\n\n";
}

}  // namespace sibyl::tools::shell
