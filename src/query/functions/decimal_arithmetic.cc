#include "query/functions/decimal_arithmetic.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace sibyl::query::function_internal {
namespace {

// DecimalType's MAX_PRECISION, MIN_SCALE (= MIN_SIGNIFICANT_DIGITS), MAX_SCALE.
constexpr int64_t kMaxPrecision = 10000;
constexpr int64_t kMinScale = 32;
constexpr int64_t kMaxScale = 1000;

// Java would go on raising ten to any power a scale asks for (1E+2000000000
// / 3 has two billion digits) and exhaust the server; Sibyl stops here.
constexpr int64_t kMaxPowerOfTen = 100000;

BigInt Pow10(int64_t n) {
  if (n > kMaxPowerOfTen) {
    throw DecimalArithmeticError("Sibyl does not compute decimal results needing more than " +
                                 std::to_string(kMaxPowerOfTen) + " digits");
  }
  return pow(BigInt(10), static_cast<unsigned>(n));
}

// num / den, ties away from zero (RoundingMode.HALF_UP). REQUIRES: den != 0.
BigInt DivideHalfUp(const BigInt& num, const BigInt& den) {
  BigInt quotient;
  BigInt remainder;
  divide_qr(num, den, quotient, remainder);  // truncates toward zero
  if (!remainder.is_zero() && BigInt(abs(remainder)) * 2 >= BigInt(abs(den))) {
    quotient += (num.sign() < 0) != (den.sign() < 0) ? -1 : 1;
  }
  return quotient;
}

// BigDecimal.checkScale: a scale past an int is an error unless the value
// is zero, whose scale is clamped.
int32_t CheckedScale(int64_t scale, bool zero) {
  if (scale > std::numeric_limits<int32_t>::max()) {
    if (!zero) throw DecimalArithmeticError("Underflow");
    return std::numeric_limits<int32_t>::max();
  }
  if (scale < std::numeric_limits<int32_t>::min()) {
    if (!zero) throw DecimalArithmeticError("Overflow");
    return std::numeric_limits<int32_t>::min();
  }
  return static_cast<int32_t>(scale);
}

// An exact result rounded as MathContext(10000, HALF_UP) rounds it.
BigDecimal RoundToMaxPrecision(BigInt unscaled, int64_t scale) {
  int64_t precision = DecimalPrecision(unscaled);
  while (precision > kMaxPrecision) {  // twice at most: rounding up can add a digit
    const int64_t drop = precision - kMaxPrecision;
    unscaled = DivideHalfUp(unscaled, Pow10(drop));
    scale -= drop;
    precision = DecimalPrecision(unscaled);
  }
  const bool zero = unscaled.is_zero();
  return {std::move(unscaled), CheckedScale(scale, zero)};
}

// `v` at a scale not below its own, exactly.
BigInt Rescaled(const BigDecimal& v, int64_t scale) { return v.unscaled * Pow10(scale - v.scale); }

// BigDecimal.add(augend, MathContext(10000)).
BigDecimal AddRounded(const BigDecimal& a, const BigDecimal& b) {
  const bool a_zero = a.unscaled.is_zero();
  const bool b_zero = b.unscaled.is_zero();
  if (a_zero || b_zero) {
    // The other operand, rounded, at the larger scale where the precision
    // allows it.
    const int32_t preferred = std::max(a.scale, b.scale);
    if (a_zero && b_zero) return {BigInt(0), preferred};
    const BigDecimal& other = a_zero ? b : a;
    BigDecimal result = RoundToMaxPrecision(other.unscaled, other.scale);
    const int64_t room = kMaxPrecision - DecimalPrecision(result.unscaled);
    const int64_t wanted = int64_t{preferred} - result.scale;  // >= 0: rounding only lowers it
    const int64_t raise = std::min(room, wanted);
    result.unscaled *= Pow10(raise);
    result.scale = static_cast<int32_t>(result.scale + raise);
    return result;
  }
  BigDecimal big = a;
  BigDecimal small = b;
  if (a.scale > b.scale) std::swap(big, small);
  if (big.scale != small.scale) {
    // BigDecimal.preAlign: digits of `small` that cannot show in the rounded
    // result shrink to one sticky unit just below them, which rounds the
    // same and keeps the alignment small.
    const int64_t result_ulp_scale =
        int64_t{big.scale} - DecimalPrecision(big.unscaled) + kMaxPrecision;
    const int64_t small_high_digit = int64_t{small.scale} - DecimalPrecision(small.unscaled) + 1;
    if (small_high_digit > int64_t{big.scale} + 2 && small_high_digit > result_ulp_scale + 2) {
      const int64_t scale = std::max(int64_t{big.scale}, result_ulp_scale) + 3;
      small = {BigInt(small.unscaled.sign()), CheckedScale(scale, false)};
    }
  }
  const int64_t scale = std::max(big.scale, small.scale);
  return RoundToMaxPrecision(Rescaled(big, scale) + Rescaled(small, scale), scale);
}

// BigDecimal.multiply(multiplicand, MathContext(10000)).
BigDecimal MultiplyRounded(const BigDecimal& a, const BigDecimal& b) {
  const int32_t scale = CheckedScale(int64_t{a.scale} + b.scale, a.unscaled.is_zero());
  return RoundToMaxPrecision(a.unscaled * b.unscaled, scale);
}

// The ArithmeticException Java's divide(divisor, scale, HALF_UP) throws for
// a zero divisor: its long fast path divides by the zero itself ("/ by
// zero") when the dividend fits a long and needs raising by fewer than 19
// digits without overflow; every other path ends in BigInteger division.
const char* DivideByZeroMessage(const BigDecimal& a, int64_t scale, int32_t divisor_scale) {
  constexpr const char* kLong = "/ by zero";
  constexpr const char* kBig = "BigInteger divide by zero";
  const BigInt magnitude = abs(a.unscaled);
  if (magnitude > BigInt(std::numeric_limits<int64_t>::max())) return kBig;
  const auto dividend = static_cast<int64_t>(magnitude);
  const int64_t dividend_scale = scale + divisor_scale;
  if (dividend_scale > a.scale) {
    const int64_t raise = dividend_scale - a.scale;
    if (raise >= 19) return kBig;
    int64_t limit = std::numeric_limits<int64_t>::max();
    for (int64_t i = 0; i < raise; ++i) limit /= 10;
    return dividend <= limit ? kLong : kBig;
  }
  const int64_t raise = int64_t{a.scale} - scale - divisor_scale;  // the divisor's
  return raise < 19 ? kLong : kBig;
}

BigDecimal StripTrailingZeros(BigDecimal v) {
  if (v.unscaled.is_zero()) return {BigInt(0), 0};
  int64_t scale = v.scale;
  BigInt quotient;
  BigInt remainder;
  for (;;) {
    divide_qr(v.unscaled, BigInt(10), quotient, remainder);
    if (!remainder.is_zero() || scale == std::numeric_limits<int32_t>::min()) break;
    v.unscaled = quotient;
    --scale;
  }
  v.scale = static_cast<int32_t>(scale);
  return v;
}

// DecimalType.divide.
BigDecimal Divide(const BigDecimal& a, const BigDecimal& b) {
  const int64_t first_digit =
      (DecimalPrecision(a.unscaled) - a.scale) - (DecimalPrecision(b.unscaled) - b.scale);
  int64_t scale = kMinScale - first_digit;
  scale = std::max({scale, int64_t{a.scale}, int64_t{b.scale}, kMinScale});
  scale = std::min(scale, kMaxScale);
  if (b.unscaled.is_zero()) throw DecimalArithmeticError(DivideByZeroMessage(a, scale, b.scale));
  // a / b = (ua / ub) * 10^(sb - sa); wanted: that times 10^scale.
  const int64_t exponent = scale + b.scale - a.scale;
  BigInt quotient;
  if (exponent >= 0) {
    quotient = DivideHalfUp(a.unscaled * Pow10(exponent), b.unscaled);
  } else if (-exponent > DecimalPrecision(a.unscaled) + 1) {
    quotient = 0;  // |a / b| * 10^scale < 0.1: rounds to zero
  } else {
    quotient = DivideHalfUp(a.unscaled, b.unscaled * Pow10(-exponent));
  }
  return StripTrailingZeros({std::move(quotient), static_cast<int32_t>(scale)});
}

// Sign of |a| - |b|.
int CompareMagnitude(const BigDecimal& a, const BigDecimal& b) {
  if (a.unscaled.is_zero() || b.unscaled.is_zero()) {
    return a.unscaled.is_zero() ? (b.unscaled.is_zero() ? 0 : -1) : 1;
  }
  // The exponents of the leading digits decide unless equal, and then the
  // scales differ by no more than the precisions do.
  const int64_t a_lead = DecimalPrecision(a.unscaled) - a.scale;
  const int64_t b_lead = DecimalPrecision(b.unscaled) - b.scale;
  if (a_lead != b_lead) return a_lead < b_lead ? -1 : 1;
  const int64_t scale = std::max(a.scale, b.scale);
  const BigInt x = abs(Rescaled(a, scale));
  const BigInt y = abs(Rescaled(b, scale));
  return x < y ? -1 : x > y ? 1 : 0;
}

int64_t TrailingZeros(BigInt v) {
  int64_t zeros = 0;
  BigInt quotient;
  BigInt remainder;
  for (;;) {
    divide_qr(v, BigInt(10), quotient, remainder);
    if (!remainder.is_zero()) return zeros;
    v = quotient;
    ++zeros;
  }
}

// BigDecimal.remainder: a - q * b, where q = a.divideToIntegralValue(b) is
// trunc(a / b) with the scale Java gives it (the preferred scale sa - sb,
// but no lower than the integer's trailing zeros allow when that is
// negative), which decides the result's scale.
BigDecimal Remainder(const BigDecimal& a, const BigDecimal& b) {
  if (b.unscaled.is_zero()) {
    throw DecimalArithmeticError(a.unscaled.is_zero() ? "Division undefined" : "Division by zero");
  }
  const int64_t preferred =
      std::clamp<int64_t>(int64_t{a.scale} - b.scale, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max());
  BigInt truncated(0);
  int64_t quotient_scale = preferred;
  if (CompareMagnitude(a, b) >= 0) {
    const int64_t exponent = int64_t{b.scale} - a.scale;  // a / b = ua / ub * 10^exponent
    truncated = exponent >= 0 ? BigInt(a.unscaled * Pow10(exponent) / b.unscaled)
                              : BigInt(a.unscaled / (b.unscaled * Pow10(-exponent)));
    if (preferred < 0) quotient_scale = std::max(preferred, -TrailingZeros(truncated));
  }
  // q's unscaled value, exact: a negative scale only drops trailing zeros.
  const BigInt q_unscaled = quotient_scale >= 0 ? BigInt(truncated * Pow10(quotient_scale))
                                                : BigInt(truncated / Pow10(-quotient_scale));
  const int64_t product_scale = quotient_scale + b.scale;
  const int64_t scale = std::max(int64_t{a.scale}, product_scale);
  BigInt unscaled =
      a.unscaled * Pow10(scale - a.scale) - q_unscaled * b.unscaled * Pow10(scale - product_scale);
  const bool zero = unscaled.is_zero();
  return {std::move(unscaled), CheckedScale(scale, zero)};
}

}  // namespace

int64_t DecimalPrecision(const BigInt& unscaled) {
  const BigInt magnitude = abs(unscaled);
  if (magnitude <= BigInt(std::numeric_limits<uint64_t>::max())) {
    auto v = static_cast<uint64_t>(magnitude);
    int64_t digits = 1;
    while (v >= 10) {
      v /= 10;
      ++digits;
    }
    return digits;
  }
  return static_cast<int64_t>(magnitude.str().size());
}

BigDecimal DecimalOperation(char symbol, const BigDecimal& a, const BigDecimal& b) {
  switch (symbol) {
    case '+':
      return AddRounded(a, b);
    case '-':
      return AddRounded(a, {-b.unscaled, b.scale});
    case '*':
      return MultiplyRounded(a, b);
    case '/':
      return Divide(a, b);
    default:  // '%'
      return Remainder(a, b);
  }
}

}  // namespace sibyl::query::function_internal
