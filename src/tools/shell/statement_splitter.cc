#include "tools/shell/statement_splitter.h"

#include <array>
#include <cctype>

#include "tools/shell/shell_text.h"

namespace sibyl::tools::shell {
namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

}  // namespace

bool IsLineCommand(std::string_view word) {
  // cqlshhandling.my_commands_ending_with_newline.
  static constexpr std::array<std::string_view, 19> kCommands = {
      "HELP",   "?",       "CONSISTENCY", "SERIAL", "DESCRIBE", "DESC",   "SHOW",
      "SOURCE", "CAPTURE", "LOGIN",       "DEBUG",  "TRACING",  "EXPAND", "PAGING",
      "EXIT",   "QUIT",    "CLEAR",       "CLS",    "HISTORY"};
  const std::string upper = AsciiUpper(word);
  for (std::string_view command : kCommands) {
    if (upper == command) return true;
  }
  return false;
}

bool StatementSplitter::in_statement() const {
  if (state_ != State::kCode) return true;
  for (char c : buffer_) {
    if (!IsBlank(c)) return true;
  }
  return false;
}

std::string StatementSplitter::pending() const {
  size_t begin = 0;
  size_t end = buffer_.size();
  while (begin < end && IsBlank(buffer_[begin])) ++begin;
  while (end > begin && IsBlank(buffer_[end - 1])) --end;
  return buffer_.substr(begin, end - begin);
}

void StatementSplitter::Reset() {
  buffer_.clear();
  state_ = State::kCode;
  first_word_.clear();
  words_ = 0;
  in_batch_ = false;
  saw_apply_ = false;
  ends_at_newline_ = false;
}

void StatementSplitter::Finish(std::vector<std::string>& out) {
  std::string statement = pending();
  Reset();
  if (!statement.empty()) out.push_back(std::move(statement));
}

void StatementSplitter::NoteWord(std::string_view word) {
  const std::string upper = AsciiUpper(word);
  if (words_++ == 0) {
    first_word_ = upper;
    ends_at_newline_ = IsLineCommand(upper);
    in_batch_ = upper == "BEGIN";
    return;
  }
  if (!in_batch_) return;
  if (saw_apply_ && upper == "BATCH") in_batch_ = false;
  saw_apply_ = upper == "APPLY";
}

std::vector<std::string> StatementSplitter::AddLine(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    const char next = i + 1 < line.size() ? line[i + 1] : '\0';
    switch (state_) {
      case State::kSingleQuoted:
      case State::kDoubleQuoted: {
        buffer_.push_back(c);
        const char quote = state_ == State::kSingleQuoted ? '\'' : '"';
        if (c == quote) {
          if (next == quote) {  // a doubled quote stays inside
            buffer_.push_back(next);
            ++i;
          } else {
            state_ = State::kCode;
          }
        }
        ++i;
        continue;
      }
      case State::kDollarQuoted:
        buffer_.push_back(c);
        if (c == '$' && next == '$') {
          buffer_.push_back(next);
          state_ = State::kCode;
          ++i;
        }
        ++i;
        continue;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          state_ = State::kCode;
          buffer_.push_back(' ');
          ++i;
        }
        ++i;
        continue;
      case State::kCode:
        break;
    }
    if (IsWordChar(c)) {
      const size_t begin = i;
      while (i < line.size() && IsWordChar(line[i])) ++i;
      buffer_.append(line.substr(begin, i - begin));
      NoteWord(line.substr(begin, i - begin));
      continue;
    }
    if ((c == '-' && next == '-') || (c == '/' && next == '/')) break;  // the rest is a comment
    if (c == '/' && next == '*') {
      state_ = State::kBlockComment;
      i += 2;
      continue;
    }
    if (c == ';' && !in_batch_) {
      Finish(out);
      ++i;
      continue;
    }
    if (c == '?' && words_ == 0) {  // "?" is HELP
      words_ = 1;
      first_word_ = "?";
      ends_at_newline_ = true;
    }
    if (c == '\'') state_ = State::kSingleQuoted;
    if (c == '"') state_ = State::kDoubleQuoted;
    if (c == '$' && next == '$') {
      state_ = State::kDollarQuoted;
      buffer_.push_back(c);
      ++i;
    }
    buffer_.push_back(c);
    ++i;
  }
  if (state_ == State::kCode && ends_at_newline_) {
    Finish(out);
  } else if (in_statement()) {
    buffer_.push_back('\n');
  } else {
    buffer_.clear();
  }
  return out;
}

}  // namespace sibyl::tools::shell
