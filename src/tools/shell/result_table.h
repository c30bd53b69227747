#pragma once
// Rows printed as cqlsh 4.1 prints a result (cqlsh.py: print_result,
// print_formatted_result, print_formatted_result_vertically,
// print_warnings), for `sibyl shell`. Values arrive already formatted
// (types::Format gives cqlsh's text of each value); this file only lays
// them out:
//
//    k | v                         header: names left-justified, " | " apart
//   ---+-------                    one '-' per column width, joined by "-+-"
//    1 | hello                     values right-justified
//                                  (a blank line here on a terminal)
//   (1 rows)
//
// EXPAND ON prints each row as "@ Row N" and "name | value" lines instead.
// A whole result, as print_result does it: a blank line, then each page
// (PrintTable with the header on the first page, or on every page on a
// terminal; pages after the first only when they have rows), then
// PrintRowCount.
// A column's width is the widest of its name and values, in code points
// (cqlsh measures with wcwidth: East Asian wide characters count one here,
// two there).

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace sibyl::tools::shell {

// One page of a result: the column names and each row's formatted values.
struct FormattedPage {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;  // each as long as `names`
};

// print_formatted_result: the header when `with_header`, then the rows; a
// page without rows prints its header and a blank line. `tty`: output goes
// to a terminal (a blank line follows the rows).
void PrintTable(std::ostream& out, const FormattedPage& page, bool with_header, bool tty);

// print_formatted_result_vertically (EXPAND ON). `row_offset`: rows printed
// before this page, so numbering goes on across pages.
void PrintVertically(std::ostream& out, const FormattedPage& page, size_t row_offset);

// print_result's end: "(N rows)", after a blank line when not on a terminal.
void PrintRowCount(std::ostream& out, size_t rows, bool tty);

// print_warnings: nothing without warnings, else "Warnings :" and each
// warning followed by a blank line.
void PrintWarnings(std::ostream& out, const std::vector<std::string>& warnings);

// The width cqlsh gives `text`: its code points (UTF-8 continuation bytes
// and ANSI colour sequences do not count).
size_t DisplayWidth(const std::string& text);

// Python's cmd.Cmd.columnize, which cqlsh's DESCRIBE KEYSPACES / TABLES and
// HELP use: the fewest rows whose columns, two spaces apart, fit
// `display_width`; filled column by column; "<empty>" for no items.
void Columnize(std::ostream& out, const std::vector<std::string>& items, size_t display_width = 80);

}  // namespace sibyl::tools::shell
