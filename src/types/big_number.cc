#include "types/big_number.h"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <iterator>

#include "common/check.h"

namespace sibyl::types {
namespace {

using boost::multiprecision::cpp_int;

// Drops leading bytes that only repeat the sign, so that equal numbers have
// equal byte strings.
BytesView StripSignExtension(BytesView v) {
  size_t start = 0;
  while (v.size() - start > 1) {
    const auto first = static_cast<uint8_t>(v[start]);
    const auto next = static_cast<uint8_t>(v[start + 1]);
    if ((first == 0x00 && next < 0x80) || (first == 0xFF && next >= 0x80)) {
      ++start;
    } else {
      break;
    }
  }
  return v.substr(start);
}

int Sign(const cpp_int& v) { return v.sign(); }

// Boost reads a leading 0 as an octal prefix: strip them first.
cpp_int FromDecimalDigits(std::string_view digits) {
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return cpp_int(0);
  return cpp_int(std::string(digits.substr(first)));
}

bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

BigInteger VarintValue(BytesView v) {
  cpp_int value;
  const auto* begin = reinterpret_cast<const uint8_t*>(v.data());
  import_bits(value, begin, begin + v.size(), 8, true);
  if (!v.empty() && (static_cast<uint8_t>(v[0]) & 0x80)) {
    value -= cpp_int(1) << (8 * v.size());
  }
  return value;
}

Bytes VarintBytes(const BigInteger& value) {
  // A negative v is the bitwise complement of -v - 1, which is not negative.
  const bool negative = value.sign() < 0;
  const cpp_int magnitude = negative ? cpp_int(-value - 1) : value;
  Bytes out;
  if (magnitude.is_zero()) {
    out.push_back('\0');
  } else {
    export_bits(magnitude, std::back_inserter(out), 8, true);
  }
  if (static_cast<uint8_t>(out[0]) & 0x80) out.insert(out.begin(), '\0');  // room for the sign
  if (negative) {
    for (char& c : out) c = static_cast<char>(~static_cast<uint8_t>(c));
  }
  return out;
}

int CompareVarint(BytesView a, BytesView b) {
  SIBYL_CHECK(!a.empty() && !b.empty());
  a = StripSignExtension(a);
  b = StripSignExtension(b);
  const bool a_negative = static_cast<uint8_t>(a[0]) & 0x80;
  const bool b_negative = static_cast<uint8_t>(b[0]) & 0x80;
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  if (a.size() != b.size()) {
    // More significant bytes: further from zero.
    const bool a_longer = a.size() > b.size();
    return (a_longer != a_negative) ? 1 : -1;
  }
  // Same sign and width: two's complement orders like unsigned bytes.
  for (size_t i = 0; i < a.size(); ++i) {
    const auto x = static_cast<uint8_t>(a[i]);
    const auto y = static_cast<uint8_t>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

int CompareDecimal(BytesView a, BytesView b) {
  SIBYL_CHECK(a.size() >= 4 && b.size() >= 4);
  const auto scale_a = static_cast<int32_t>(LoadBE32(a.data()));
  const auto scale_b = static_cast<int32_t>(LoadBE32(b.data()));
  cpp_int unscaled_a = a.size() > 4 ? VarintValue(a.substr(4)) : cpp_int(0);
  cpp_int unscaled_b = b.size() > 4 ? VarintValue(b.substr(4)) : cpp_int(0);
  const int sign_a = Sign(unscaled_a);
  const int sign_b = Sign(unscaled_b);
  if (sign_a != sign_b) return sign_a < sign_b ? -1 : 1;
  if (sign_a == 0) return 0;
  // The position of the most significant digit decides unless it ties; then
  // the scales differ by at most the digit counts, so aligning is cheap.
  const auto digits_a = static_cast<int64_t>(cpp_int(abs(unscaled_a)).str().size());
  const auto digits_b = static_cast<int64_t>(cpp_int(abs(unscaled_b)).str().size());
  const int64_t magnitude_a = digits_a - scale_a;
  const int64_t magnitude_b = digits_b - scale_b;
  int c;
  if (magnitude_a != magnitude_b) {
    c = magnitude_a < magnitude_b ? -1 : 1;
  } else {
    const int64_t shift = static_cast<int64_t>(scale_a) - scale_b;
    if (shift > 0) {
      unscaled_b *= pow(cpp_int(10), static_cast<unsigned>(shift));
    } else if (shift < 0) {
      unscaled_a *= pow(cpp_int(10), static_cast<unsigned>(-shift));
    }
    const cpp_int abs_a = abs(unscaled_a);
    const cpp_int abs_b = abs(unscaled_b);
    c = abs_a < abs_b ? -1 : (abs_a > abs_b ? 1 : 0);
  }
  return sign_a > 0 ? c : -c;
}

std::string VarintToString(BytesView v) {
  SIBYL_CHECK(!v.empty());
  return VarintValue(v).str();
}

std::string DecimalToString(BytesView v) {
  SIBYL_CHECK(v.size() >= 4);
  const auto scale = static_cast<int32_t>(LoadBE32(v.data()));
  const cpp_int unscaled = v.size() > 4 ? VarintValue(v.substr(4)) : cpp_int(0);
  const std::string digits = cpp_int(abs(unscaled)).str();
  const int64_t exponent = -static_cast<int64_t>(scale);
  const auto length = static_cast<int64_t>(digits.size());
  // Python's Decimal.__str__ (the General Decimal Arithmetic to-sci-string):
  // plain notation unless the exponent is positive or the number is tiny.
  const int64_t left_digits = exponent + length;
  const int64_t dot = (exponent <= 0 && left_digits > -6) ? left_digits : 1;
  std::string out;
  if (Sign(unscaled) < 0) out.push_back('-');
  if (dot <= 0) {
    out.append("0.").append(static_cast<size_t>(-dot), '0').append(digits);
  } else if (dot >= length) {
    out.append(digits).append(static_cast<size_t>(dot - length), '0');
  } else {
    out.append(digits, 0, static_cast<size_t>(dot)).append(".").append(digits, dot);
  }
  if (left_digits != dot) {
    const int64_t shown = left_digits - dot;
    out.append("E").append(shown >= 0 ? "+" : "").append(std::to_string(shown));
  }
  return out;
}

std::optional<Bytes> ParseVarint(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (!AllDigits(text)) return std::nullopt;
  cpp_int value = FromDecimalDigits(text);
  if (negative) value = -value;
  return VarintBytes(value);
}

std::optional<Bytes> ParseDecimal(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const size_t exponent_at = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, exponent_at);
  int64_t exponent = 0;
  if (exponent_at != std::string_view::npos) {
    std::string_view exponent_text = text.substr(exponent_at + 1);
    bool exponent_negative = false;
    if (!exponent_text.empty() && (exponent_text[0] == '+' || exponent_text[0] == '-')) {
      exponent_negative = exponent_text[0] == '-';
      exponent_text.remove_prefix(1);
    }
    // Java refuses exponents beyond an int as "Exponent overflow".
    if (!AllDigits(exponent_text)) return std::nullopt;
    const size_t significant = exponent_text.find_first_not_of('0');
    exponent_text.remove_prefix(std::min(significant, exponent_text.size()));
    if (exponent_text.size() > 10) return std::nullopt;
    exponent = exponent_text.empty() ? 0 : std::stoll(std::string(exponent_text));
    if (exponent > INT32_MAX) return std::nullopt;
    if (exponent_negative) exponent = -exponent;
  }
  const size_t point = mantissa.find('.');
  std::string digits(mantissa.substr(0, point));
  int64_t fraction_digits = 0;
  if (point != std::string_view::npos) {
    const std::string_view fraction = mantissa.substr(point + 1);
    if (!fraction.empty() && !AllDigits(fraction)) return std::nullopt;
    fraction_digits = static_cast<int64_t>(fraction.size());
    digits.append(fraction);
  }
  if (!AllDigits(digits)) return std::nullopt;
  const int64_t scale = fraction_digits - exponent;
  if (scale < INT32_MIN || scale > INT32_MAX) return std::nullopt;
  cpp_int unscaled = FromDecimalDigits(digits);
  if (negative) unscaled = -unscaled;
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(static_cast<int32_t>(scale)));
  out += VarintBytes(unscaled);
  return out;
}

Bytes EncodeVarintFromInt64(int64_t v) {
  Bytes out;
  AppendBE64(out, static_cast<uint64_t>(v));
  return Bytes(StripSignExtension(out));
}

}  // namespace sibyl::types
