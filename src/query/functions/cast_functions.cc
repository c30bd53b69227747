// Cassandra 4.1's CastFcts: the functions behind CAST(x AS type), named
// castAs<Type> (castAsInt, castAsText, ...). Numbers convert between each
// other with Java's Number conversions (narrowing keeps the low bits,
// floating point saturates, decimal and varint go through BigDecimal and
// BigInteger); casts to ascii and text write the value as Java does;
// timeuuid, timestamp and date convert with the toDate/toTimestamp
// functions. Every cast returns null for null.

#include <cmath>
#include <limits>

#include "common/error.h"
#include "query/functions/function_big_number.h"
#include "query/functions/function_registry.h"
#include "query/functions/function_value_text.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using function_internal::BigDecimal;
using function_internal::BigInt;
using types::CqlType;
using types::Kind;

// A number as Java's Number subclasses hold it.
struct JavaNumber {
  enum class Form { kLong, kFloat, kDouble, kDecimal, kVarint } form = Form::kLong;
  int64_t integer = 0;  // kLong (byte, short, int, long, counter)
  double floating = 0;  // kFloat, kDouble
  BigDecimal decimal;   // kDecimal
  BigInt varint;        // kVarint

  static JavaNumber Read(Kind kind, BytesView v) {
    JavaNumber n;
    switch (kind) {
      case Kind::kTinyint:
        n.integer = types::DecodeTinyint(v);
        break;
      case Kind::kSmallint:
        n.integer = types::DecodeSmallint(v);
        break;
      case Kind::kInt:
        n.integer = types::DecodeInt(v);
        break;
      case Kind::kFloat:
        n.form = Form::kFloat;
        n.floating = types::DecodeFloat(v);
        break;
      case Kind::kDouble:
        n.form = Form::kDouble;
        n.floating = types::DecodeDouble(v);
        break;
      case Kind::kDecimal:
        n.form = Form::kDecimal;
        n.decimal = function_internal::DecodeDecimal(v);
        break;
      case Kind::kVarint:
        n.form = Form::kVarint;
        n.varint = types::VarintValue(v);
        break;
      default:  // bigint, counter
        n.integer = types::DecodeBigint(v);
        break;
    }
    return n;
  }

  bool floating_point() const { return form == Form::kFloat || form == Form::kDouble; }

  // Java's (long) d / (int) d: NaN is 0, out of range saturates.
  template <typename I>
  static I SaturatingCast(double d) {
    if (d != d) return 0;
    if (d >= static_cast<double>(std::numeric_limits<I>::max())) {
      return std::numeric_limits<I>::max();
    }
    if (d <= static_cast<double>(std::numeric_limits<I>::min())) {
      return std::numeric_limits<I>::min();
    }
    return static_cast<I>(d);
  }

  // longValue(); intValue() and narrower keep the low bits of it, except
  // from floating point, where intValue() saturates first.
  int64_t LongValue() const {
    switch (form) {
      case Form::kLong:
        return integer;
      case Form::kFloat:
      case Form::kDouble:
        return SaturatingCast<int64_t>(floating);
      case Form::kDecimal:
        return function_internal::LowInt64(function_internal::IntegerPart(decimal));
      case Form::kVarint:
        return function_internal::LowInt64(varint);
    }
    return 0;
  }
  int32_t IntValue() const {
    if (floating_point()) return SaturatingCast<int32_t>(floating);
    return static_cast<int32_t>(static_cast<uint64_t>(LongValue()));
  }
  double DoubleValue() const {
    switch (form) {
      case Form::kLong:
        return static_cast<double>(integer);
      case Form::kFloat:
      case Form::kDouble:
        return floating;
      case Form::kDecimal:
        return function_internal::ToDouble(decimal);
      case Form::kVarint:
        return function_internal::ToDouble(BigDecimal{varint, 0});
    }
    return 0;
  }
  float FloatValue() const {
    switch (form) {
      case Form::kLong:
        return static_cast<float>(integer);
      case Form::kFloat:
      case Form::kDouble:
        return static_cast<float>(floating);
      case Form::kDecimal:
        return function_internal::ToFloat(decimal);
      case Form::kVarint:
        return function_internal::ToFloat(BigDecimal{varint, 0});
    }
    return 0;
  }
};

// CastFcts.getDecimalConversionFunction (4.1.3+).
Bytes ToDecimal(Kind from, const JavaNumber& n) {
  std::optional<BigDecimal> d;
  switch (from) {
    case Kind::kFloat:
      d = function_internal::DecimalFromFloat(static_cast<float>(n.floating));
      break;
    case Kind::kDouble:
      d = function_internal::DecimalFromDouble(n.floating);
      break;
    case Kind::kVarint:
      d = BigDecimal{n.varint, 0};
      break;
    default:
      d = BigDecimal{BigInt(n.LongValue()), 0};
      break;
  }
  if (!d) {
    ThrowFunctionFailureCause(
        "castAsDecimal", {CqlType::Native(from)->ToCql()},
        "java.lang.NumberFormatException: Character " +
            std::string(n.floating != n.floating ? "N" : "I") +
            " is neither a decimal digit number, decimal point, nor \"e\" notation exponential "
            "mark.");
  }
  return function_internal::EncodeDecimal(*d);
}

Bytes ConvertNumber(Kind from, Kind to, BytesView v) {
  const JavaNumber n = JavaNumber::Read(from, v);
  switch (to) {
    case Kind::kTinyint:
      return types::EncodeTinyint(static_cast<int8_t>(n.IntValue()));
    case Kind::kSmallint:
      return types::EncodeSmallint(static_cast<int16_t>(n.IntValue()));
    case Kind::kInt:
      return types::EncodeInt(n.IntValue());
    case Kind::kBigint:
      return types::EncodeBigint(n.LongValue());
    case Kind::kFloat:
      return types::EncodeFloat(n.FloatValue());
    case Kind::kDouble:
      return types::EncodeDouble(n.DoubleValue());
    case Kind::kDecimal:
      return ToDecimal(from, n);
    default:  // varint: BigInteger.valueOf(longValue())
      return types::VarintBytes(BigInt(n.LongValue()));
  }
}

class CastAdder {
 public:
  explicit CastAdder(FunctionRegistry& r) : r_(r) {}

  void Add(Kind from, Kind to, Function::ScalarBody body) {
    const types::TypePtr target = CqlType::Native(to);
    auto f = Function::Scalar(CastFunctionName(*target), target, {CqlType::Native(from)},
                              std::move(body));
    f->set_column_name_format("cast(%s as " + target->ToCql() + ")");
    r_.Add(std::move(f));
  }

  void AddNumeric(Kind from, Kind to) {
    if (from == to) return;
    Add(from, to, [from, to](FunctionArgs a, FunctionContext&) -> OptBytes {
      if (!a[0] || a[0]->empty()) return std::nullopt;
      return ConvertNumber(from, to, *a[0]);
    });
  }

  void AddAsText(Kind from, Kind to) {
    Add(from, to, [from](FunctionArgs a, FunctionContext&) -> OptBytes {
      if (!a[0]) return std::nullopt;
      if (a[0]->empty()) return Bytes("null");  // toCQLLiteral of an empty value
      return CastText(*CqlType::Native(from), *a[0]);
    });
  }

  // CassandraFunctionWrapper: the cast runs an existing conversion function.
  void AddDelegate(Kind from, Kind to, const std::string& delegate_name) {
    FunctionPtr delegate;
    for (const FunctionPtr& f : r_.Overloads(delegate_name)) {
      if (f->arg_types()[0]->kind() == from) delegate = f;
    }
    Add(from, to, [delegate](FunctionArgs a, FunctionContext& context) -> OptBytes {
      return delegate->Execute(a, context);
    });
  }

 private:
  FunctionRegistry& r_;
};

}  // namespace

void AddCastFunctions(FunctionRegistry& r) {
  CastAdder add(r);
  static constexpr Kind kNumeric[] = {Kind::kTinyint, Kind::kSmallint, Kind::kInt,
                                      Kind::kBigint,  Kind::kFloat,    Kind::kDouble,
                                      Kind::kDecimal, Kind::kCounter,  Kind::kVarint};
  static constexpr Kind kNumericTargets[] = {Kind::kTinyint, Kind::kSmallint, Kind::kInt,
                                             Kind::kBigint,  Kind::kFloat,    Kind::kDouble,
                                             Kind::kDecimal, Kind::kVarint};
  for (Kind from : kNumeric) {
    for (Kind to : kNumericTargets) add.AddNumeric(from, to);
    add.AddAsText(from, Kind::kAscii);
    add.AddAsText(from, Kind::kText);
  }
  add.Add(Kind::kAscii, Kind::kText, [](FunctionArgs a, FunctionContext&) -> OptBytes {
    if (!a[0]) return std::nullopt;
    return Bytes(*a[0]);
  });
  for (Kind from : {Kind::kInet, Kind::kBoolean}) {
    add.AddAsText(from, Kind::kAscii);
    add.AddAsText(from, Kind::kText);
  }
  add.AddDelegate(Kind::kTimeuuid, Kind::kDate, "todate");
  add.AddDelegate(Kind::kTimeuuid, Kind::kTimestamp, "totimestamp");
  add.AddAsText(Kind::kTimeuuid, Kind::kAscii);
  add.AddAsText(Kind::kTimeuuid, Kind::kText);
  add.AddDelegate(Kind::kTimestamp, Kind::kDate, "todate");
  add.AddAsText(Kind::kTimestamp, Kind::kAscii);
  add.AddAsText(Kind::kTimestamp, Kind::kText);
  add.AddDelegate(Kind::kDate, Kind::kTimestamp, "totimestamp");
  add.AddAsText(Kind::kDate, Kind::kAscii);
  add.AddAsText(Kind::kDate, Kind::kText);
  add.AddAsText(Kind::kTime, Kind::kAscii);
  add.AddAsText(Kind::kTime, Kind::kText);
  add.AddAsText(Kind::kUuid, Kind::kAscii);
  add.AddAsText(Kind::kUuid, Kind::kText);
}

}  // namespace sibyl::query
