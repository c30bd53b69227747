#pragma once
// CSV as COPY reads and writes it (Python's csv module with cqlsh's dialect:
// a delimiter, a quote character doubled inside quotes, an escape character
// that takes the next character literally inside quotes).
//
// Fields know whether they were quoted: COPY FROM treats an unquoted field
// equal to the NULL string as null, a quoted one never. So that a table
// round-trips, CsvWriter quotes every field that the reader would otherwise
// misread: one holding the delimiter, a quote, the escape character, a line
// break, or equal to the NULL string (the empty string by default) while
// being a real value.

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::tools::shell {

struct CsvDialect {
  char delimiter = ',';
  char quote = '"';
  char escape = '\\';
};

struct CsvField {
  std::string text;
  bool quoted = false;
};

// Reads records from a FILE (not owned). A record may span lines inside
// quotes. Not thread-safe.
class CsvReader {
 public:
  CsvReader(std::FILE* file, CsvDialect dialect) : file_(file), dialect_(dialect) {}

  // The next record, or nullopt at the end of the input. `raw` receives the
  // record's text as read (for the error file). A record that ends inside
  // quotes is returned as read; `unterminated()` then says so.
  std::optional<std::vector<CsvField>> Next(std::string& raw);
  bool unterminated() const { return unterminated_; }
  // The line the last record started on (1 for the first).
  long line() const { return record_line_; }

 private:
  std::FILE* file_;
  CsvDialect dialect_;
  long next_line_ = 1;
  long record_line_ = 0;
  bool unterminated_ = false;
};

// Appends one record to `out`: the fields, delimited, then "\n". `null`:
// whether each field is null (written as `null_text`, unquoted).
class CsvWriter {
 public:
  CsvWriter(CsvDialect dialect, std::string null_text)
      : dialect_(dialect), null_text_(std::move(null_text)) {}

  void AppendRecord(std::string& out, const std::vector<std::optional<std::string>>& fields) const;

 private:
  CsvDialect dialect_;
  std::string null_text_;
};

}  // namespace sibyl::tools::shell
