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
// Failures are function failures named after the operation:
//   the operation 'int / int' failed: / by zero
//
// Registered but refused when prepared (ArithmeticSupport below): operations
// whose result is a decimal (Java's BigDecimal with MathContext.DECIMAL128
// and its division's scale rules) and timestamp/date +- duration.

#include <cmath>
#include <limits>

#include "common/error.h"
#include "query/function_big_number.h"
#include "query/function_registry.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

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

int64_t ReadInteger(Kind kind, BytesView v) {
  switch (kind) {
    case Kind::kTinyint:
      return types::DecodeTinyint(v);
    case Kind::kSmallint:
      return types::DecodeSmallint(v);
    case Kind::kInt:
      return types::DecodeInt(v);
    default:
      return types::DecodeBigint(v);  // bigint, counter
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

Bytes WriteInteger(Kind kind, int64_t v) {
  switch (kind) {
    case Kind::kTinyint:
      return types::EncodeTinyint(static_cast<int8_t>(v));
    case Kind::kSmallint:
      return types::EncodeSmallint(static_cast<int16_t>(v));
    case Kind::kInt:
      return types::EncodeInt(static_cast<int32_t>(v));
    default:
      return types::EncodeBigint(v);
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
    default:
      // Refused when prepared (IsSupportedOperation).
      throw CqlError(ErrorCode::kServerError, "unsupported arithmetic result type");
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

OptBytes RefuseTemporal(FunctionArgs, FunctionContext&) {
  throw CqlError(ErrorCode::kServerError, "temporal arithmetic is refused when prepared");
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
                                RefuseTemporal);
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

void CheckOperationSupported(const Function& function) {
  const bool operation = IsOperationFunctionName(function.name()) || function.name() == "_negate";
  if (!operation) return;
  const Kind result = function.return_type()->kind();
  if (result == Kind::kTimestamp || result == Kind::kDate) {
    ThrowInvalid("Arithmetic on " + function.return_type()->ToCql() +
                 " values is not supported by Sibyl yet");
  }
  if (result == Kind::kDecimal && function.name() != "_negate") {
    ThrowInvalid("Arithmetic with a decimal result is not supported by Sibyl yet");
  }
}

}  // namespace sibyl::query
