#pragma once
// A string as a JSON string literal (RFC 8259): quotes, backslashes and
// control characters escaped, everything else (UTF-8 included) as it is, as
// Cassandra's Json.quoteAsJsonString (Jackson) writes them.
// Shared by toJson / SELECT JSON and the tools' --json reports.

#include <string>
#include <string_view>

namespace sibyl {

[[nodiscard]] inline std::string QuoteJsonString(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace sibyl
