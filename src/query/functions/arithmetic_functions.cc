// Cassandra 4.1's OperationFcts: the functions behind the arithmetic
// operators of selectors and terms. `a + b` is a call of `_add(a, b)`, and
// likewise `_substract` (Cassandra's spelling), `_multiply`, `_divide`,
// `_modulo`; `-a` is `_negate(a)`.
//
// One overload exists for every pair of numeric types (tinyint, smallint,
// int, bigint, float, double, decimal, varint, counter). The result type is
// floating point when either operand is, of the wider operand's width
// (counter counts as bigint, decimal and varint as unbounded): int + bigint
// is bigint, int + float is float, bigint + float is double, float + varint
// is decimal, tinyint + varint is varint. Values follow Java's arithmetic:
// fixed-width integers wrap around, integer division truncates and fails on
// zero ("/ by zero"), floating point follows IEEE 754 (x / 0 is infinite),
// varint division fails with "BigInteger divide by zero". A null or empty
// operand gives null.
//
// Decimal results (decimal_arithmetic.h): a varint operand converts exactly
// and any other one through its double value as BigDecimal.valueOf does
// (NumberType.toBigDecimal), so int 1 is 1.0 and 1 * 8.5 is 8.50; NaN and
// infinities fail ("A NaN cannot be converted into a decimal").
//
// timestamp and date +- duration (TemporalType.addDuration): Duration.addTo
// on the value in milliseconds. Without months, the days and the
// milliseconds of the duration are added (timestamps wrap as Java's long
// does); with months, java.util.Calendar in UTC adds the months (the day of
// month clamped to the month's length), then the days, then the
// milliseconds narrowed to an int as Cassandra narrows them. A timestamp
// takes only durations of whole milliseconds and a date only durations of
// whole days; a date must stay within the date range.
//
// Failures are function failures named after the operation:
//   the operation 'int / int' failed: / by zero
//   the operation 'decimal / tinyint' failed: BigInteger divide by zero
//   the operation 'timestamp - duration' failed: The duration must have a
//     millisecond precision. Was: 10us
//   the operation 'date - duration' failed: The duration must have a day
//     precision. Was: 10m
//
// Deliberate difference: Calendar switches to the Julian calendar before
// 1582-10-15; Sibyl adds months in the proleptic Gregorian calendar, as
// floor() does.

#include <cmath>
#include <limits>

#include "common/error.h"
#include "query/functions/decimal_arithmetic.h"
#include "query/functions/function_big_number.h"
#include "query/functions/function_integer.h"
#include "query/functions/function_registry.h"
#include "query/functions/function_value_text.h"
#include "types/civil_date.h"
#include "types/date_time_literal.h"
#include "types/duration_literal.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using function_internal::ReadInteger;
using function_internal::WriteInteger;

using function_internal::BigDecimal;
using function_internal::BigInt;
using types::CqlType;
using types::Kind;

struct Operation {
  char symbol;
  const char* function_name;
};

constexpr Operation kOperations[] = {
    {'+', "_add"}, {'-', "_substract"}, {'*', "_multiply"}, {'/', "_divide"}, {'%', "_modulo"}};

constexpr Kind kNumericKinds[] = {Kind::kTinyint, Kind::kSmallint, Kind::kInt,
                                  Kind::kBigint,  Kind::kFloat,    Kind::kDouble,
                                  Kind::kDecimal, Kind::kVarint,   Kind::kCounter};

// Bytes of a fixed-width value; 0 for unbounded (decimal, varint).
int Width(Kind kind) {
  switch (kind) {
    case Kind::kTinyint:
      return 1;
    case Kind::kSmallint:
      return 2;
    case Kind::kInt:
    case Kind::kFloat:
      return 4;
    case Kind::kBigint:
    case Kind::kDouble:
    case Kind::kCounter:
      return 8;
    default:
      return 0;
  }
}

bool IsFloatingPoint(Kind kind) {
  return kind == Kind::kFloat || kind == Kind::kDouble || kind == Kind::kDecimal;
}

// OperationFcts.returnType.
Kind ResultKind(Kind left, Kind right) {
  const int lw = Width(left);
  const int rw = Width(right);
  const int width = (lw == 0 || rw == 0) ? 0 : std::max(lw, rw);
  if (IsFloatingPoint(left) || IsFloatingPoint(right)) {
    return width == 4 ? Kind::kFloat : width == 8 ? Kind::kDouble : Kind::kDecimal;
  }
  switch (width) {
    case 1:
      return Kind::kTinyint;
    case 2:
      return Kind::kSmallint;
    case 4:
      return Kind::kInt;
    case 8:
      return Kind::kBigint;
    default:
      return Kind::kVarint;
  }
}

// Java's Number.doubleValue of an integer or floating operand.
double ReadDouble(Kind kind, BytesView v) {
  if (kind == Kind::kFloat) return types::DecodeFloat(v);
  if (kind == Kind::kDouble) return types::DecodeDouble(v);
  return static_cast<double>(ReadInteger(kind, v));
}

BigInt ReadBigInt(Kind kind, BytesView v) {
  if (kind == Kind::kVarint) return types::VarintValue(v);
  return BigInt(ReadInteger(kind, v));
}

[[noreturn]] void Fail(char symbol, const char* function_name, Kind left, Kind right,
                       std::string_view cause) {
  const std::string l = CqlType::Native(left)->ToCql();
  const std::string r = CqlType::Native(right)->ToCql();
  ThrowFunctionFailureCause(
      function_name, {l, r},
      "the operation '" + l + " " + symbol + " " + r + "' failed: " + std::string(cause));
}

// NumberType.toBigDecimal: decimals and varints exactly, every other type
// through its double value (a float widened) as BigDecimal.valueOf(double).
// nullopt with Java's message for NaN and infinities.
std::optional<BigDecimal> ReadDecimal(Kind kind, BytesView v, std::string& error) {
  if (kind == Kind::kDecimal) return function_internal::DecodeDecimal(v);
  if (kind == Kind::kVarint) return BigDecimal{types::VarintValue(v), 0};
  const double d = ReadDouble(kind, v);
  if (std::isnan(d)) {
    error = "A NaN cannot be converted into a decimal";
  } else if (std::isinf(d)) {
    error = "An infinite number cannot be converted into a decimal";
  }
  return function_internal::DecimalFromDouble(d);
}

Bytes DecimalResult(const Operation& op, Kind left, Kind right, BytesView a, BytesView b) {
  std::string error;
  const auto x = ReadDecimal(left, a, error);
  if (!x) Fail(op.symbol, op.function_name, left, right, error);
  const auto y = ReadDecimal(right, b, error);
  if (!y) Fail(op.symbol, op.function_name, left, right, error);
  try {
    return function_internal::EncodeDecimal(function_internal::DecimalOperation(op.symbol, *x, *y));
  } catch (const function_internal::DecimalArithmeticError& e) {
    Fail(op.symbol, op.function_name, left, right, e.what());
  }
}

// 64-bit arithmetic that wraps as Java's long does.
int64_t Wrap(uint64_t v) { return static_cast<int64_t>(v); }

std::optional<int64_t> IntegerOperation(char symbol, int64_t a, int64_t b) {
  switch (symbol) {
    case '+':
      return Wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    case '-':
      return Wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    case '*':
      return Wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    case '/':
      if (b == 0) return std::nullopt;
      if (b == -1) return Wrap(0 - static_cast<uint64_t>(a));  // MIN / -1 == MIN in Java
      return a / b;
    default:  // '%'
      if (b == 0) return std::nullopt;
      if (b == -1) return 0;
      return a % b;
  }
}

OptBytes Execute(const Operation& op, Kind result, Kind left, Kind right, FunctionArgs args) {
  if (!args[0] || !args[1] || args[0]->empty() || args[1]->empty()) return std::nullopt;
  const BytesView a = *args[0];
  const BytesView b = *args[1];
  switch (result) {
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint: {
      // Java computes byte, short and int operations in int and narrows the
      // result; in 64 bits the narrowed result is the same.
      const auto v = IntegerOperation(op.symbol, ReadInteger(left, a), ReadInteger(right, b));
      if (!v) Fail(op.symbol, op.function_name, left, right, "/ by zero");
      return WriteInteger(result, *v);
    }
    case Kind::kFloat: {
      const float x = static_cast<float>(ReadDouble(left, a));
      const float y = static_cast<float>(ReadDouble(right, b));
      switch (op.symbol) {
        case '+':
          return types::EncodeFloat(x + y);
        case '-':
          return types::EncodeFloat(x - y);
        case '*':
          return types::EncodeFloat(x * y);
        case '/':
          return types::EncodeFloat(x / y);
        default:
          return types::EncodeFloat(std::fmod(x, y));
      }
    }
    case Kind::kDouble: {
      const double x = ReadDouble(left, a);
      const double y = ReadDouble(right, b);
      switch (op.symbol) {
        case '+':
          return types::EncodeDouble(x + y);
        case '-':
          return types::EncodeDouble(x - y);
        case '*':
          return types::EncodeDouble(x * y);
        case '/':
          return types::EncodeDouble(x / y);
        default:
          return types::EncodeDouble(std::fmod(x, y));
      }
    }
    case Kind::kVarint: {
      const BigInt x = ReadBigInt(left, a);
      const BigInt y = ReadBigInt(right, b);
      if ((op.symbol == '/' || op.symbol == '%') && y == 0) {
        Fail(op.symbol, op.function_name, left, right, "BigInteger divide by zero");
      }
      switch (op.symbol) {
        case '+':
          return types::VarintBytes(x + y);
        case '-':
          return types::VarintBytes(x - y);
        case '*':
          return types::VarintBytes(x * y);
        case '/':
          return types::VarintBytes(x / y);  // truncates, as BigInteger.divide
        default:
          return types::VarintBytes(x % y);  // sign of the dividend, as remainder
      }
    }
    default:  // decimal
      return DecimalResult(op, left, right, a, b);
  }
}

OptBytes Negate(Kind kind, FunctionArgs args) {
  if (!args[0] || args[0]->empty()) return std::nullopt;
  const BytesView v = *args[0];
  switch (kind) {
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kCounter:
      return WriteInteger(kind, Wrap(0 - static_cast<uint64_t>(ReadInteger(kind, v))));
    case Kind::kFloat:
      return types::EncodeFloat(-types::DecodeFloat(v));
    case Kind::kDouble:
      return types::EncodeDouble(-types::DecodeDouble(v));
    case Kind::kVarint:
      return types::VarintBytes(-types::VarintValue(v));
    default: {  // decimal: the unscaled value negated, the scale kept
      function_internal::BigDecimal d = function_internal::DecodeDecimal(v);
      d.unscaled = -d.unscaled;
      return function_internal::EncodeDecimal(d);
    }
  }
}

// Java's long arithmetic, which wraps.
int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// Duration.add: months, days and nanoseconds of one sign (negated by the
// caller for a subtraction).
int64_t AddDuration(int64_t millis, int64_t months, int64_t days, int64_t nanoseconds) {
  constexpr int64_t kNanosPerMilli = 1'000'000;
  if (months == 0) {
    return WrappingAdd(millis,
                       WrappingAdd(days * types::kMillisPerDay, nanoseconds / kNanosPerMilli));
  }
  const int64_t moved =
      WrappingAdd(types::AddCalendarMonths(millis, months), days * types::kMillisPerDay);
  // Calendar.add(MILLISECOND, (int) (nanoseconds / NANOS_PER_MILLI)).
  const auto narrowed = static_cast<int32_t>(
      static_cast<uint32_t>(static_cast<uint64_t>(nanoseconds / kNanosPerMilli)));
  return moved + narrowed;
}

// SimpleDateSerializer.timeInMillisToDay, its range check on the
// milliseconds, then Duration.ofMillis(ms).toDays().
std::optional<int32_t> DaysOfMillis(int64_t millis, std::string& error) {
  constexpr int64_t kMin = int64_t{std::numeric_limits<int32_t>::min()} * types::kMillisPerDay;
  constexpr int64_t kMax = int64_t{std::numeric_limits<int32_t>::max()} * types::kMillisPerDay;
  if (millis < kMin || millis > kMax) {
    const bool low = millis < kMin;
    error = "Input date " +
            types::JavaLocalDateString(types::FloorDiv(millis, types::kMillisPerDay)) + " is " +
            (low ? "less than min" : "greater than max") + " supported date " +
            types::JavaLocalDateString(low ? std::numeric_limits<int32_t>::min()
                                           : std::numeric_limits<int32_t>::max()) +
            "T00:00Z";
    return std::nullopt;
  }
  return static_cast<int32_t>(types::FloorDiv(millis, 1000) / types::kSecondsPerDay);
}

// Java's int negation, which wraps (-Integer.MIN_VALUE is itself).
int64_t NegateInt(int32_t v) { return static_cast<int32_t>(0u - static_cast<uint32_t>(v)); }

OptBytes ExecuteTemporal(const Operation& op, Kind temporal, FunctionArgs args) {
  if (!args[0] || !args[1] || args[0]->empty() || args[1]->empty()) return std::nullopt;
  const types::DurationValue d = types::DecodeDuration(*args[1]);
  const bool is_date = temporal == Kind::kDate;
  const int64_t millis = is_date ? int64_t{types::DecodeDate(*args[0])} * types::kMillisPerDay
                                 : types::DecodeBigint(*args[0]);
  // TimestampType / SimpleDateType.validateDuration.
  if (is_date ? d.nanoseconds != 0 : d.nanoseconds % 1'000'000 != 0) {
    Fail(op.symbol, op.function_name, temporal, Kind::kDuration,
         std::string("The duration must have a ") + (is_date ? "day" : "millisecond") +
             " precision. Was: " + types::DurationToString(d));
  }
  const bool add = op.symbol == '+';
  const int64_t result =
      add ? AddDuration(millis, d.months, d.days, d.nanoseconds)
          : AddDuration(millis, NegateInt(d.months), NegateInt(d.days),
                        static_cast<int64_t>(0 - static_cast<uint64_t>(d.nanoseconds)));
  if (!is_date) return types::EncodeTimestamp(result);
  std::string error;
  const auto days = DaysOfMillis(result, error);
  if (!days) Fail(op.symbol, op.function_name, temporal, Kind::kDuration, error);
  return types::EncodeDate(*days);
}

}  // namespace

void AddOperationFunctions(FunctionRegistry& registry) {
  for (const Kind left : kNumericKinds) {
    for (const Kind right : kNumericKinds) {
      const Kind result = ResultKind(left, right);
      for (const Operation& op : kOperations) {
        auto f = Function::Scalar(op.function_name, CqlType::Native(result),
                                  {CqlType::Native(left), CqlType::Native(right)},
                                  [op, result, left, right](FunctionArgs args, FunctionContext&) {
                                    return Execute(op, result, left, right, args);
                                  });
        f->set_column_name_format(std::string("%s ") + op.symbol + " %s");
        registry.Add(std::move(f));
      }
    }
    auto negate = Function::Scalar(
        "_negate", CqlType::Native(left), {CqlType::Native(left)},
        [left](FunctionArgs args, FunctionContext&) { return Negate(left, args); });
    negate->set_column_name_format("-%s");
    registry.Add(std::move(negate));
  }
  for (const Operation& op : {kOperations[0], kOperations[1]}) {
    for (const Kind temporal : {Kind::kTimestamp, Kind::kDate}) {
      auto f = Function::Scalar(op.function_name, CqlType::Native(temporal),
                                {CqlType::Native(temporal), CqlType::Native(Kind::kDuration)},
                                [op, temporal](FunctionArgs args, FunctionContext&) {
                                  return ExecuteTemporal(op, temporal, args);
                                });
      f->set_column_name_format(std::string("%s ") + op.symbol + " %s");
      registry.Add(std::move(f));
    }
  }
}

bool IsOperationFunctionName(std::string_view name) {
  for (const Operation& op : kOperations) {
    if (name == op.function_name) return true;
  }
  return false;
}

char OperatorOfFunction(std::string_view name) {
  for (const Operation& op : kOperations) {
    if (name == op.function_name) return op.symbol;
  }
  return '?';
}

const char* OperationFunctionName(char symbol) {
  for (const Operation& op : kOperations) {
    if (op.symbol == symbol) return op.function_name;
  }
  return nullptr;
}

}  // namespace sibyl::query
