#pragma once
// The decimal operators of Cassandra 4.1 (DecimalType's add, substract,
// multiply, divide and mod since CASSANDRA-15232), on Java's BigDecimal
// semantics. Internal to the function library (arithmetic_functions.cc).
//
//   + - *  the exact result, rounded HALF_UP to at most 10000 significant
//          digits (MathContext(10000)); the scale is BigDecimal's: the
//          larger scale for + and -, the sum of the scales for *.
//   /      a.divide(b, scale, HALF_UP).stripTrailingZeros(), where scale is
//          32 minus the estimated position of the quotient's first digit,
//          at least either operand's scale and 32, at most 1000:
//          8.5 / 3.0 = 2.83333333333333333333333333333333, 8.5 / 8.5 = 1.
//   %      a.remainder(b): a - trunc(a / b) * b, exact, with the scale
//          BigDecimal gives it (8.5 % 1.0 = 0.5, 7 % 8.5 = 7).
//
// Failures are Java's ArithmeticException messages, thrown as
// DecimalArithmeticError for the caller to wrap:
//   x / 0   "BigInteger divide by zero", or "/ by zero" when Java's long
//           fast path meets the zero (a small dividend whose scale is close
//           to the quotient's)
//   x % 0   "Division by zero";  0 % 0  "Division undefined"
//   a scale past an int   "Underflow" (too small) or "Overflow"

#include <stdexcept>
#include <string>

#include "query/functions/function_big_number.h"

namespace sibyl::query::function_internal {

class DecimalArithmeticError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One of '+', '-', '*', '/', '%'. Throws DecimalArithmeticError.
[[nodiscard]] BigDecimal DecimalOperation(char symbol, const BigDecimal& a, const BigDecimal& b);

// BigDecimal.precision: the number of digits of the unscaled value (1 for 0).
[[nodiscard]] int64_t DecimalPrecision(const BigInt& unscaled);

}  // namespace sibyl::query::function_internal
