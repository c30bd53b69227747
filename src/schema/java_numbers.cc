#include "schema/java_numbers.h"

#include "types/number_text.h"

namespace sibyl::schema {

std::optional<int32_t> ParseJavaInt(std::string_view text) {
  const auto value = types::ParseJavaInteger(text, INT32_MIN, INT32_MAX);
  if (!value) return std::nullopt;
  return static_cast<int32_t>(*value);
}

std::optional<int64_t> ParseJavaLong(std::string_view text) { return types::ParseJavaLong(text); }

std::optional<double> ParseJavaDouble(std::string_view text) {
  // Double.parseDouble trims whitespace (anything up to ' ') and takes a
  // float/double type suffix, which CQL literals do not: strip them, then
  // parse as the CQL layer parses Java's number forms.
  auto is_space = [](char c) { return static_cast<unsigned char>(c) <= ' '; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.size() > 1 && text.find("Infinity") == std::string_view::npos) {
    const char last = text.back();
    if (last == 'f' || last == 'F' || last == 'd' || last == 'D') text.remove_suffix(1);
  }
  return types::ParseJavaDouble(text);
}

bool IsJavaNumeric(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace sibyl::schema
