#include "cql/syntax_error.h"

#include <algorithm>
#include <vector>

#include "cql/utf16.h"

namespace sibyl::cql {
namespace {

// ErrorCollector's window around the error.
constexpr size_t kFirstTokenOffset = 10;
constexpr size_t kLastTokenOffset = 2;

bool HasPosition(const Token& token) { return token.line > 0 && token.column >= 0; }

// Java's query.split("\n"): trailing empty strings are dropped.
std::vector<std::u16string> SplitLines(std::string_view query) {
  std::vector<std::u16string> lines;
  size_t start = 0;
  while (true) {
    size_t end = query.find('\n', start);
    lines.push_back(ToUtf16(query.substr(start, end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  while (lines.size() > 1 && lines.back().empty()) lines.pop_back();
  if (lines.size() == 1 && lines[0].empty() && !query.empty()) lines.clear();
  return lines;
}

// ErrorCollector.getLastCharPositionInLine: column plus the length of the
// token's text (which for strings is the unescaped contents).
size_t EndColumn(const Token& token) {
  return static_cast<size_t>(token.column) + Utf16Length(token.text);
}

std::u16string Insert(const std::u16string& line, size_t at, char16_t c) {
  at = std::min(at, line.size());
  std::u16string out = line.substr(0, at);
  out.push_back(c);
  out.append(line, at, std::u16string::npos);
  return out;
}

}  // namespace

std::string TokenDisplay(const Token& token) {
  if (token.type == TokenType::kEof) return "'<EOF>'";
  std::string shown = "'";
  for (char c : token.text) {
    switch (c) {
      case '\n':
        shown += "\\n";
        break;
      case '\r':
        shown += "\\r";
        break;
      case '\t':
        shown += "\\t";
        break;
      default:
        shown.push_back(c);
    }
  }
  shown.push_back('\'');
  return shown;
}

std::string FormatParserError(std::string_view query, const TokenList& list,
                              const ParserErrorSite& site) {
  const auto& tokens = list.tokens;
  const Token& error_token = tokens[site.error_token];
  std::string message = "line " + std::to_string(error_token.line) + ":" +
                        std::to_string(error_token.column) + " " + site.message;

  size_t size = std::max<size_t>(site.fetched_count, 1);
  size_t index = site.stream_index;
  const Token& from = tokens[index > kFirstTokenOffset ? index - kFirstTokenOffset : 0];
  const Token& to = tokens[std::min(size - 1, index + kLastTokenOffset)];
  const Token& offending = tokens[std::min(index, size - 1)];
  if (!HasPosition(from) || !HasPosition(to) || !HasPosition(offending)) return message;

  std::vector<std::u16string> lines = SplitLines(query);
  auto line_index = [&](const Token& t) { return static_cast<size_t>(t.line - 1); };
  if (lines.empty() || line_index(to) >= lines.size())
    return message;  // cannot happen for real tokens

  bool include_query_start = from.line == 1 && from.column == 0;
  bool include_query_end =
      static_cast<size_t>(to.line) == lines.size() && EndColumn(to) == lines.back().size();

  message += " (";
  if (!include_query_start) message += "...";

  std::u16string& to_line = lines[line_index(to)];
  size_t to_end = EndColumn(to);
  if (to_end < to_line.size()) to_line.resize(to_end);
  std::u16string& offending_line = lines[line_index(offending)];
  offending_line = Insert(Insert(offending_line, EndColumn(offending), u']'),
                          static_cast<size_t>(offending.column), u'[');
  std::u16string& from_line = lines[line_index(from)];
  from_line.erase(0, std::min(static_cast<size_t>(from.column), from_line.size()));

  for (size_t i = line_index(from); i <= line_index(to); ++i) message += ToUtf8(lines[i]);
  if (!include_query_end) message += "...";
  message += ")";
  return message;
}

std::string FormatLexerError(const LexError& error) {
  return "line " + std::to_string(error.line) + ":" + std::to_string(error.column) + " " +
         error.message;
}

}  // namespace sibyl::cql
