#include "query/functions/function_big_number.h"

#include "types/big_number.h"
#include "types/number_text.h"

namespace sibyl::query::function_internal {

BigDecimal DecodeDecimal(BytesView v) {
  BigDecimal d;
  d.scale = static_cast<int32_t>(LoadBE32(v.data()));
  d.unscaled = v.size() > 4 ? types::VarintValue(v.substr(4)) : BigInt(0);
  return d;
}

Bytes EncodeDecimal(const BigDecimal& v) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(v.scale));
  out += types::VarintBytes(v.unscaled);
  return out;
}

std::string JavaDecimalString(const BigDecimal& v) {
  const bool negative = v.unscaled.sign() < 0;
  const std::string digits = BigInt(abs(v.unscaled)).str();
  const int64_t length = static_cast<int64_t>(digits.size());
  const int64_t adjusted = -static_cast<int64_t>(v.scale) + (length - 1);
  std::string out = negative ? "-" : "";
  if (v.scale == 0) return out + digits;
  if (v.scale > 0 && adjusted >= -6) {
    if (length > v.scale) {
      out += digits.substr(0, static_cast<size_t>(length - v.scale));
      out += '.';
      out += digits.substr(static_cast<size_t>(length - v.scale));
    } else {
      out += "0.";
      out.append(static_cast<size_t>(v.scale - length), '0');
      out += digits;
    }
    return out;
  }
  out += digits[0];
  if (length > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += 'E';
  if (adjusted >= 0) out += '+';
  return out + std::to_string(adjusted);
}

namespace {
// "digitsE-scale": text Java's (and our) double parser rounds correctly.
std::string ScientificText(const BigDecimal& v) {
  return v.unscaled.str() + "E" + std::to_string(-static_cast<int64_t>(v.scale));
}
}  // namespace

double ToDouble(const BigDecimal& v) {
  return types::ParseJavaDouble(ScientificText(v)).value_or(0.0);
}

float ToFloat(const BigDecimal& v) {
  return types::ParseJavaFloat(ScientificText(v)).value_or(0.0f);
}

int64_t LowInt64(const BigInt& v) {
  const BigInt modulus = BigInt(1) << 64;
  BigInt low = v % modulus;  // takes the sign of v
  if (low.sign() < 0) low += modulus;
  return static_cast<int64_t>(static_cast<uint64_t>(low));
}

BigInt IntegerPart(const BigDecimal& v) {
  if (v.scale <= 0) return v.unscaled * pow(BigInt(10), static_cast<unsigned>(-v.scale));
  return v.unscaled / pow(BigInt(10), static_cast<unsigned>(v.scale));  // truncates toward zero
}

namespace {
std::optional<BigDecimal> ParseJavaDecimalText(const std::string& text) {
  // [-]digits[.digits][E[-]digits]
  BigDecimal d;
  size_t pos = 0;
  const bool negative = text[0] == '-';
  if (negative) ++pos;
  std::string digits;
  int64_t fraction = 0;
  bool in_fraction = false;
  for (; pos < text.size() && text[pos] != 'E'; ++pos) {
    if (text[pos] == '.') {
      in_fraction = true;
    } else {
      digits += text[pos];
      if (in_fraction) ++fraction;
    }
  }
  int64_t exponent = 0;
  if (pos < text.size()) exponent = std::stoll(text.substr(pos + 1));
  const size_t first = digits.find_first_not_of('0');
  d.unscaled = first == std::string::npos ? BigInt(0) : BigInt(digits.substr(first));
  if (negative) d.unscaled = -d.unscaled;
  d.scale = static_cast<int32_t>(fraction - exponent);
  return d;
}
}  // namespace

std::optional<BigDecimal> DecimalFromDouble(double d) {
  if (d != d || d - d != 0) return std::nullopt;  // NaN or infinite
  return ParseJavaDecimalText(types::JavaDoubleToString(d));
}

std::optional<BigDecimal> DecimalFromFloat(float f) {
  if (f != f || f - f != 0) return std::nullopt;
  return ParseJavaDecimalText(types::JavaFloatToString(f));
}

namespace {
BigInt Rescaled(const BigDecimal& v, int32_t scale) {
  return v.unscaled * pow(BigInt(10), static_cast<unsigned>(scale - v.scale));
}
}  // namespace

BigDecimal Add(const BigDecimal& a, const BigDecimal& b) {
  const int32_t scale = std::max(a.scale, b.scale);
  return {Rescaled(a, scale) + Rescaled(b, scale), scale};
}

BigDecimal Subtract(const BigDecimal& a, const BigDecimal& b) {
  const int32_t scale = std::max(a.scale, b.scale);
  return {Rescaled(a, scale) - Rescaled(b, scale), scale};
}

BigDecimal DivideHalfEven(const BigDecimal& a, int64_t divisor) {
  const BigInt d(divisor);
  BigInt quotient = a.unscaled / d;  // truncated
  const BigInt remainder = a.unscaled - quotient * d;
  if (!remainder.is_zero()) {
    const BigInt twice = abs(remainder) * 2;
    const bool away = twice > d || (twice == d && (quotient & 1) != 0);
    if (away) quotient += a.unscaled.sign() < 0 ? -1 : 1;
  }
  return {quotient, a.scale};
}

}  // namespace sibyl::query::function_internal
