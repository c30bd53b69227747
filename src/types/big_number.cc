#include "types/big_number.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <cassert>

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

cpp_int ToCppInt(BytesView v) {
  cpp_int value;
  const auto* begin = reinterpret_cast<const uint8_t*>(v.data());
  import_bits(value, begin, begin + v.size(), 8, true);
  if (!v.empty() && (static_cast<uint8_t>(v[0]) & 0x80)) {
    value -= cpp_int(1) << (8 * v.size());
  }
  return value;
}

int Sign(const cpp_int& v) { return v.sign(); }

}  // namespace

int CompareVarint(BytesView a, BytesView b) {
  assert(!a.empty() && !b.empty());
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
  assert(a.size() >= 4 && b.size() >= 4);
  const auto scale_a = static_cast<int32_t>(LoadBE32(a.data()));
  const auto scale_b = static_cast<int32_t>(LoadBE32(b.data()));
  cpp_int unscaled_a = a.size() > 4 ? ToCppInt(a.substr(4)) : cpp_int(0);
  cpp_int unscaled_b = b.size() > 4 ? ToCppInt(b.substr(4)) : cpp_int(0);
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
  assert(!v.empty());
  return ToCppInt(v).str();
}

std::string DecimalToString(BytesView v) {
  assert(v.size() >= 4);
  const auto scale = static_cast<int32_t>(LoadBE32(v.data()));
  const cpp_int unscaled = v.size() > 4 ? ToCppInt(v.substr(4)) : cpp_int(0);
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

Bytes EncodeVarintFromInt64(int64_t v) {
  Bytes out;
  AppendBE64(out, static_cast<uint64_t>(v));
  return Bytes(StripSignExtension(out));
}

}  // namespace sibyl::types
