#include "tools/shell/csv_format.h"

namespace sibyl::tools::shell {

std::optional<std::vector<CsvField>> CsvReader::Next(std::string& raw) {
  raw.clear();
  unterminated_ = false;
  record_line_ = next_line_;
  int c = getc_unlocked(file_);
  if (c == EOF) return std::nullopt;
  std::vector<CsvField> fields(1);
  enum class State { kFieldStart, kUnquoted, kQuoted, kAfterQuote } state = State::kFieldStart;
  for (; c != EOF; c = getc_unlocked(file_)) {
    const char ch = static_cast<char>(c);
    if (ch == '\n') ++next_line_;
    if (state != State::kQuoted && (ch == '\n' || ch == '\r')) {
      if (ch == '\r') {
        const int next = getc_unlocked(file_);
        if (next != '\n' && next != EOF) ungetc(next, file_);
        if (next == '\n') ++next_line_;
      }
      return fields;
    }
    raw.push_back(ch);
    CsvField& field = fields.back();
    switch (state) {
      case State::kFieldStart:
        if (ch == dialect_.quote) {
          field.quoted = true;
          state = State::kQuoted;
          continue;
        }
        state = State::kUnquoted;
        [[fallthrough]];
      case State::kUnquoted:
      case State::kAfterQuote:
        if (ch == dialect_.delimiter) {
          fields.emplace_back();
          state = State::kFieldStart;
        } else {
          field.text.push_back(ch);  // Python keeps what follows a closing quote
        }
        continue;
      case State::kQuoted:
        if (ch == dialect_.escape && dialect_.escape != '\0') {
          const int next = getc_unlocked(file_);
          if (next == EOF) break;
          raw.push_back(static_cast<char>(next));
          if (next == '\n') ++next_line_;
          field.text.push_back(static_cast<char>(next));
        } else if (ch == dialect_.quote) {
          const int next = getc_unlocked(file_);
          if (next == dialect_.quote) {
            raw.push_back(static_cast<char>(next));
            field.text.push_back(ch);
          } else {
            if (next != EOF) ungetc(next, file_);
            state = State::kAfterQuote;
          }
        } else {
          field.text.push_back(ch);
        }
        continue;
    }
  }
  unterminated_ = state == State::kQuoted;
  return fields;
}

void CsvWriter::AppendRecord(std::string& out,
                             const std::vector<std::optional<std::string>>& fields) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.push_back(dialect_.delimiter);
    if (!fields[i]) {
      out.append(null_text_);
      continue;
    }
    const std::string& text = *fields[i];
    bool quote = text == null_text_;  // else it would read back as null
    for (const char c : text) {
      if (c == dialect_.delimiter || c == dialect_.quote || c == '\n' || c == '\r' ||
          (c == dialect_.escape && dialect_.escape != '\0')) {
        quote = true;
        break;
      }
    }
    if (!quote) {
      out.append(text);
      continue;
    }
    out.push_back(dialect_.quote);
    for (const char c : text) {
      if (c == dialect_.quote) {
        out.push_back(c);  // doubled
      } else if (c == dialect_.escape && dialect_.escape != '\0') {
        out.push_back(c);  // the escape character escaped
      }
      out.push_back(c);
    }
    out.push_back(dialect_.quote);
  }
  out.push_back('\n');
}

}  // namespace sibyl::tools::shell
