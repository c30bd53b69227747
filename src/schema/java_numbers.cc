#include "schema/java_numbers.h"

#include <cstdlib>
#include <limits>

namespace sibyl::schema {
namespace {

template <typename Int>
std::optional<Int> ParseJavaInteger(std::string_view text) {
  if (text.empty()) return std::nullopt;
  bool negative = false;
  size_t i = 0;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return std::nullopt;
  // Accumulate negatively so that the minimum value parses.
  Int value = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    const Int digit = c - '0';
    if (value < (std::numeric_limits<Int>::min() + digit) / 10) return std::nullopt;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == std::numeric_limits<Int>::min()) return std::nullopt;
    value = -value;
  }
  return value;
}

}  // namespace

std::optional<int32_t> ParseJavaInt(std::string_view text) {
  return ParseJavaInteger<int32_t>(text);
}

std::optional<int64_t> ParseJavaLong(std::string_view text) {
  return ParseJavaInteger<int64_t>(text);
}

std::optional<double> ParseJavaDouble(std::string_view text) {
  auto is_space = [](char c) { return static_cast<unsigned char>(c) <= ' '; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  std::string_view body = text;
  bool negative = false;
  if (body[0] == '+' || body[0] == '-') {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (body == "Infinity") {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  const char last = body.empty() ? '\0' : body.back();
  if (last == 'f' || last == 'F' || last == 'd' || last == 'D') body.remove_suffix(1);
  // Java accepts digits with an optional fraction and exponent; hexadecimal
  // floating literals are left out (no one writes them in DDL).
  size_t i = 0;
  size_t mantissa_digits = 0;
  while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++mantissa_digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++exponent_digits;
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  const std::string copy(body);
  const double magnitude = std::strtod(copy.c_str(), nullptr);
  return negative ? -magnitude : magnitude;
}

bool IsJavaNumeric(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace sibyl::schema
