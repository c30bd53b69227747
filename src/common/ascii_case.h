#pragma once
// ASCII case folding, as Java's toLowerCase/toUpperCase(Locale.US) treats
// CQL keywords, names and option values: A-Z and a-z change, every other
// byte (UTF-8 included) stays. Independent of the C locale.

#include <string>
#include <string_view>

namespace sibyl {

[[nodiscard]] inline std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

[[nodiscard]] inline std::string AsciiUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace sibyl
