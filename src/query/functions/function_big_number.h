#pragma once
// Java's BigInteger and BigDecimal arithmetic, as far as the native
// functions need it (casts, sum and avg of varint and decimal, toJson and
// CAST AS text of decimals). Internal to the function library.

#include <cstdint>
#include <optional>
#include <string>

#include "common/bytes.h"
#include "types/big_number.h"

namespace sibyl::query::function_internal {

using BigInt = types::BigInteger;

// unscaled * 10^-scale.
struct BigDecimal {
  BigInt unscaled;
  int32_t scale = 0;
};

// Varints: types::VarintValue / types::VarintBytes (types/big_number.h).
// REQUIRES: at least 4 bytes.
[[nodiscard]] BigDecimal DecodeDecimal(BytesView v);
[[nodiscard]] Bytes EncodeDecimal(const BigDecimal& v);

// BigDecimal.toString: plain when the scale is not negative and the
// adjusted exponent is at least -6, else scientific: 1.5E+3, 1E-7.
[[nodiscard]] std::string JavaDecimalString(const BigDecimal& v);

// Correctly rounded, as BigDecimal/BigInteger.doubleValue and floatValue.
[[nodiscard]] double ToDouble(const BigDecimal& v);
[[nodiscard]] float ToFloat(const BigDecimal& v);
// BigInteger.longValue: the low 64 bits.
[[nodiscard]] int64_t LowInt64(const BigInt& v);
// BigDecimal.longValue / toBigInteger: the integer part, truncated toward zero.
[[nodiscard]] BigInt IntegerPart(const BigDecimal& v);

// BigDecimal.valueOf(double) (= new BigDecimal(Double.toString(d))) and
// new BigDecimal(Float.toString(f)); nullopt for NaN and infinities, which
// Java refuses with a NumberFormatException.
[[nodiscard]] std::optional<BigDecimal> DecimalFromDouble(double d);
[[nodiscard]] std::optional<BigDecimal> DecimalFromFloat(float f);

// BigDecimal.add: the result's scale is the larger of the two.
[[nodiscard]] BigDecimal Add(const BigDecimal& a, const BigDecimal& b);
[[nodiscard]] BigDecimal Subtract(const BigDecimal& a, const BigDecimal& b);
// a.divide(BigDecimal.valueOf(divisor), RoundingMode.HALF_EVEN): the
// result keeps a's scale. REQUIRES: divisor > 0.
[[nodiscard]] BigDecimal DivideHalfEven(const BigDecimal& a, int64_t divisor);

}  // namespace sibyl::query::function_internal
