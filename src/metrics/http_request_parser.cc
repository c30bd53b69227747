#include "metrics/http_request_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace sibyl::metrics {
namespace {

bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 32 && u < 127 && c != '(' && c != ')' && c != '<' && c != '>' && c != '@' &&
           c != ',' && c != ';' && c != ':' && c != '\\' && c != '"' && c != '/' && c != '[' &&
           c != ']' && c != '?' && c != '=' && c != '{' && c != '}';
  });
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Whether the comma-separated `list` holds `token` (case-insensitive).
bool ListHas(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    const size_t comma = std::min(list.find(','), list.size());
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (EqualsIgnoreCase(item, token)) return true;
    list.remove_prefix(std::min(comma + 1, list.size()));
  }
  return false;
}

}  // namespace

void HttpRequestParser::Reset() {
  head_.clear();
  consumed_ = 0;
  request_ = HttpRequest();
}

HttpParse HttpRequestParser::Feed(std::string_view bytes) {
  // The end of the head may straddle two reads: search from a little before
  // the bytes just added.
  const size_t before = head_.size();
  const size_t room = options_.max_head_bytes + 4 - std::min(before, options_.max_head_bytes + 4);
  head_.append(bytes.substr(0, room));
  const size_t from = before < 3 ? 0 : before - 3;
  const size_t end = head_.find("\r\n\r\n", from);
  if (end == std::string::npos) {
    if (head_.size() > options_.max_head_bytes) return HttpParse::kTooLarge;
    return HttpParse::kNeedMore;
  }
  if (end + 4 > options_.max_head_bytes) return HttpParse::kTooLarge;
  consumed_ = end + 4 - before;
  return Parse(std::string_view(head_).substr(0, end + 2));
}

// `head`: the request line and each field, every line ending in CRLF.
HttpParse HttpRequestParser::Parse(std::string_view head) {
  const size_t line_end = head.find("\r\n");
  const std::string_view line = head.substr(0, line_end);
  // request-line = method SP request-target SP HTTP-version (RFC 9112 3)
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos) return HttpParse::kBad;
  const std::string_view method = line.substr(0, sp1);
  const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (!IsToken(method) || target.empty() || target.find(' ') != std::string_view::npos) {
    return HttpParse::kBad;
  }
  if (version.size() != 8 || version.substr(0, 7) != "HTTP/1." || !std::isdigit(version[7])) {
    return HttpParse::kBad;
  }
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 32 || static_cast<unsigned char>(c) >= 127) {
      return HttpParse::kBad;
    }
  }
  // origin-form ("/metrics?x"), absolute-form ("http://host:9180/metrics",
  // which RFC 9112 3.2.2 has servers accept) or asterisk-form ("*"); anything
  // else is not a request target.
  std::string_view path = target.substr(0, target.find('?'));
  if (path.starts_with("http://") || path.starts_with("https://")) {
    const size_t authority = path.find("//") + 2;
    const size_t slash = path.find('/', authority);
    path = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
  } else if (!path.starts_with('/') && path != "*") {
    return HttpParse::kBad;
  }
  request_.method = std::string(method);
  request_.path = std::string(path);
  request_.minor_version = version[7] - '0';
  bool connection_close = false;
  bool connection_keep_alive = false;

  std::string_view fields = head.substr(line_end + 2);
  while (!fields.empty()) {
    const size_t eol = fields.find("\r\n");
    const std::string_view field = fields.substr(0, eol);
    fields.remove_prefix(eol + 2);
    const size_t colon = field.find(':');
    if (colon == std::string_view::npos || !IsToken(field.substr(0, colon))) {
      return HttpParse::kBad;  // also obsolete line folding, which RFC 9112 lets us refuse
    }
    const std::string_view name = field.substr(0, colon);
    std::string_view value = field.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (EqualsIgnoreCase(name, "Connection")) {
      connection_close = connection_close || ListHas(value, "close");
      connection_keep_alive = connection_keep_alive || ListHas(value, "keep-alive");
    } else if (EqualsIgnoreCase(name, "Content-Length")) {
      uint64_t length = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec != std::errc() || ptr != value.data() + value.size()) return HttpParse::kBad;
      request_.has_body = request_.has_body || length > 0;
    } else if (EqualsIgnoreCase(name, "Transfer-Encoding")) {
      request_.has_body = true;
    }
  }
  request_.keep_alive = request_.minor_version >= 1 ? !connection_close : connection_keep_alive;
  return HttpParse::kComplete;
}

}  // namespace sibyl::metrics
