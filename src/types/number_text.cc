#include "types/number_text.h"

#include <locale.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <system_error>

namespace sibyl::types {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// strtod and strtof follow the process locale's decimal point; Java does not.
locale_t CLocale() {
  static const locale_t locale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
  return locale;
}

// The text without sign, special value or suffix handling, when it is a
// plain decimal number Java's FloatingDecimal accepts; else empty.
std::string NormalizedDecimal(std::string_view text) {
  size_t i = 0;
  std::string out;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    if (text[i] == '-') out.push_back('-');
    ++i;
  }
  size_t digits = 0;
  const size_t mantissa_start = i;
  while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return {};
  out.append(text.substr(mantissa_start, i - mantissa_start));
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    const size_t exponent_start = i++;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const size_t exponent_digits = i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    if (i == exponent_digits) return {};
    out.append(text.substr(exponent_start, i - exponent_start));
  }
  if (i < text.size() && (text[i] == 'f' || text[i] == 'F' || text[i] == 'd' || text[i] == 'D')) {
    ++i;
  }
  if (i != text.size()) return {};
  return out;
}

// NaN, Infinity, +Infinity, -Infinity (Java spells them exactly so).
std::optional<double> SpecialValue(std::string_view text) {
  bool negative = false;
  std::string_view body = text;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (body == "Infinity") {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  return std::nullopt;
}

// Shortest round-trip digits of a finite non-zero value and its decimal
// exponent: value = 0.d1d2d3... * 10^(exponent + 1).
template <typename Float>
void ScientificDigits(std::string_view text, std::string& digits, int& exponent) {
  const size_t e = text.find('e');
  digits.clear();
  for (char c : text.substr(0, e)) {
    if (IsDigit(c)) digits.push_back(c);
  }
  exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
}

template <typename Float>
void ShortestDigits(Float value, std::string& digits, int& exponent) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  ScientificDigits<Float>(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)),
                          digits, exponent);
  if (digits.size() != 1) return;
  // Java always shows two significant digits (d.dE..), and picks the pair
  // closest to the exact value: Double.MIN_VALUE is 4.9E-324, not 5.0E-324.
  result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific, 1);
  const std::string_view two(buffer, static_cast<size_t>(result.ptr - buffer));
  Float back{};
  std::from_chars(two.data(), two.data() + two.size(), back);
  if (back != value) return;
  ScientificDigits<Float>(two, digits, exponent);
  if (digits.size() == 2 && digits[1] == '0') digits.pop_back();
}

// Java's FloatingDecimal layout: plain between 10^-3 and 10^7, else
// computerized scientific notation, always with a digit after the point.
template <typename Float>
std::string JavaToString(Float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  std::string out = std::signbit(value) ? "-" : "";
  std::string digits;
  int exponent = 0;
  ShortestDigits(std::fabs(value), digits, exponent);
  const Float magnitude = std::fabs(value);
  if (magnitude >= static_cast<Float>(1e-3) && magnitude < static_cast<Float>(1e7)) {
    if (exponent >= 0) {
      const auto integer_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integer_digits) {
        out.append(digits).append(integer_digits - digits.size(), '0').append(".0");
      } else {
        out.append(digits, 0, integer_digits).append(".").append(digits, integer_digits);
      }
    } else {
      out.append("0.").append(static_cast<size_t>(-exponent - 1), '0').append(digits);
    }
    return out;
  }
  out.push_back(digits[0]);
  out.push_back('.');
  out.append(digits.size() > 1 ? digits.substr(1) : "0");
  out.append("E").append(std::to_string(exponent));
  return out;
}

}  // namespace

std::optional<int64_t> ParseJavaInteger(std::string_view text, int64_t min, int64_t max) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  if (i == text.size()) return std::nullopt;
  // Accumulate negatively so that INT64_MIN fits.
  int64_t value = 0;
  for (; i < text.size(); ++i) {
    if (!IsDigit(text[i])) return std::nullopt;
    const int digit = text[i] - '0';
    if (value < (INT64_MIN + digit) / 10) return std::nullopt;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == INT64_MIN) return std::nullopt;
    value = -value;
  }
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> ParseJavaDouble(std::string_view text) {
  if (const auto special = SpecialValue(text)) return special;
  const std::string normalized = NormalizedDecimal(text);
  if (normalized.empty()) return std::nullopt;
  return strtod_l(normalized.c_str(), nullptr, CLocale());
}

std::optional<float> ParseJavaFloat(std::string_view text) {
  if (const auto special = SpecialValue(text)) return static_cast<float>(*special);
  const std::string normalized = NormalizedDecimal(text);
  if (normalized.empty()) return std::nullopt;
  // Straight to float: rounding through double could round twice.
  return strtof_l(normalized.c_str(), nullptr, CLocale());
}

std::string JavaDoubleToString(double value) { return JavaToString(value); }

std::string JavaFloatToString(float value) { return JavaToString(value); }

}  // namespace sibyl::types
