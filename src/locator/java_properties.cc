#include "locator/java_properties.h"

#include <vector>

namespace sibyl::locator {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// The natural lines of `text` (ending at \n, \r or \r\n).
std::vector<std::string_view> NaturalLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') continue;
    lines.push_back(text.substr(start, i - start));
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    start = i + 1;
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

bool EndsWithOddBackslashes(std::string_view line) {
  size_t count = 0;
  for (size_t i = line.size(); i > 0 && line[i - 1] == '\\'; --i) ++count;
  return count % 2 == 1;
}

std::string_view DropLeadingBlanks(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  return s;
}

void AppendUtf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

// The escape starting after a backslash at `s[i]`; advances `i` past it.
void AppendEscape(std::string_view s, size_t& i, std::string& out) {
  const char c = s[i++];
  switch (c) {
    case 't':
      out.push_back('\t');
      return;
    case 'n':
      out.push_back('\n');
      return;
    case 'r':
      out.push_back('\r');
      return;
    case 'f':
      out.push_back('\f');
      return;
    case 'u': {
      unsigned code = 0;
      int digits = 0;
      for (; digits < 4 && i < s.size(); ++digits, ++i) {
        const char h = s[i];
        const int v = h >= '0' && h <= '9'   ? h - '0'
                      : h >= 'a' && h <= 'f' ? h - 'a' + 10
                      : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                             : -1;
        if (v < 0) break;
        code = code * 16 + static_cast<unsigned>(v);
      }
      AppendUtf8(out, code);  // Java refuses a malformed \u; taking its digits is kinder
      return;
    }
    default:
      out.push_back(c);
      return;
  }
}

// One logical line (continuations joined) into its key and value.
void ParseLogicalLine(std::string_view line, std::map<std::string, std::string>& properties) {
  std::string key;
  size_t i = 0;
  while (i < line.size() && line[i] != '=' && line[i] != ':' && !IsBlank(line[i])) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      ++i;
      AppendEscape(line, i, key);
    } else {
      key.push_back(line[i++]);
    }
  }
  while (i < line.size() && IsBlank(line[i])) ++i;
  if (i < line.size() && (line[i] == '=' || line[i] == ':')) ++i;
  while (i < line.size() && IsBlank(line[i])) ++i;
  std::string value;
  while (i < line.size()) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      ++i;
      AppendEscape(line, i, value);
    } else if (line[i] != '\\') {
      value.push_back(line[i++]);
    } else {
      ++i;  // a lone trailing backslash (the file's last line) stands for nothing
    }
  }
  properties[std::move(key)] = std::move(value);
}

}  // namespace

std::map<std::string, std::string> ParseJavaProperties(std::string_view text) {
  std::map<std::string, std::string> properties;
  const std::vector<std::string_view> lines = NaturalLines(text);
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string_view first = DropLeadingBlanks(lines[n]);
    if (first.empty() || first.front() == '#' || first.front() == '!') continue;
    std::string logical;
    std::string_view part = first;
    while (EndsWithOddBackslashes(part) && n + 1 < lines.size()) {
      logical.append(part.substr(0, part.size() - 1));
      part = DropLeadingBlanks(lines[++n]);
    }
    logical.append(part);
    ParseLogicalLine(logical, properties);
  }
  return properties;
}

}  // namespace sibyl::locator
