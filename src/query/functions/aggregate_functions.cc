// Cassandra 4.1's AggregateFcts: countRows (count(*)), count, min and max of
// every native type, and sum and avg of the numeric types, with Java's
// arithmetic:
//   - sum of tinyint, smallint, int, bigint and counter wraps around in the
//     argument's width (sum of int returns int);
//   - avg of those is exact (a long sum that falls back to BigInteger on
//     overflow) divided by the count truncating toward zero, then narrowed;
//   - sum and avg of float and double use Kahan summation in double (avg
//     falls back to BigDecimal when the sum overflows);
//   - sum of varint and decimal is exact; avg of varint truncates; avg of
//     decimal is the running mean avg += (x - avg) / n rounded half-even at
//     the scale of (x - avg).
// Nulls are skipped (and so are empty values, which Cassandra cannot add
// either); with no input count, sum and avg are 0 and min and max null.

#include <cmath>

#include "query/functions/function_big_number.h"
#include "query/functions/function_integer.h"
#include "query/functions/function_registry.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using function_internal::ReadInteger;
using function_internal::WriteInteger;

using function_internal::BigDecimal;
using function_internal::BigInt;
using types::CqlType;
using types::Kind;

bool Absent(FunctionArgs args) { return !args[0] || args[0]->empty(); }

double ReadFloating(Kind kind, BytesView v) {
  return kind == Kind::kFloat ? types::DecodeFloat(v) : types::DecodeDouble(v);
}

Bytes WriteFloating(Kind kind, double value) {
  return kind == Kind::kFloat ? types::EncodeFloat(static_cast<float>(value))
                              : types::EncodeDouble(value);
}

class CountRows final : public AggregateState {
 public:
  void Reset() override { count_ = 0; }
  void Add(FunctionArgs) override { ++count_; }
  OptBytes Compute() const override { return types::EncodeBigint(count_); }

 private:
  int64_t count_ = 0;
};

class Count final : public AggregateState {
 public:
  void Reset() override { count_ = 0; }
  void Add(FunctionArgs args) override { count_ += args[0].has_value(); }
  OptBytes Compute() const override { return types::EncodeBigint(count_); }

 private:
  int64_t count_ = 0;
};

// min (sign -1) and max (sign 1) in the type's order (types::Compare).
class Extreme final : public AggregateState {
 public:
  Extreme(types::TypePtr type, int sign) : type_(std::move(type)), sign_(sign) {}
  void Reset() override { best_.reset(); }
  void Add(FunctionArgs args) override {
    if (!args[0]) return;
    if (!best_ || types::Compare(*type_, *args[0], *best_) * sign_ > 0) best_ = Bytes(*args[0]);
  }
  OptBytes Compute() const override { return best_; }

 private:
  types::TypePtr type_;
  int sign_;
  OptBytes best_;
};

// sum of an integer type: wraps in the type's width, as Java's += does.
class IntegerSum final : public AggregateState {
 public:
  explicit IntegerSum(Kind kind) : kind_(kind) {}
  void Reset() override { sum_ = 0; }
  void Add(FunctionArgs args) override {
    if (Absent(args)) return;
    sum_ += static_cast<uint64_t>(ReadInteger(kind_, *args[0]));
  }
  OptBytes Compute() const override { return WriteInteger(kind_, static_cast<int64_t>(sum_)); }

 private:
  Kind kind_;
  uint64_t sum_ = 0;  // unsigned: wrapping is defined; narrowed on output
};

// AvgAggregate: the exact mean truncated toward zero. A 128-bit sum cannot
// overflow before the int count does.
class IntegerAvg final : public AggregateState {
 public:
  explicit IntegerAvg(Kind kind) : kind_(kind) {}
  void Reset() override {
    sum_ = 0;
    count_ = 0;
  }
  void Add(FunctionArgs args) override {
    if (Absent(args)) return;
    ++count_;
    sum_ += ReadInteger(kind_, *args[0]);
  }
  OptBytes Compute() const override {
    return WriteInteger(kind_, count_ == 0 ? 0 : static_cast<int64_t>(sum_ / count_));
  }

 private:
  Kind kind_;
  __int128 sum_ = 0;
  int64_t count_ = 0;
};

// Kahan summation as FloatSumAggregate / FloatAvgAggregate do it.
struct KahanSum {
  double sum = 0, compensation = 0, simple_sum = 0;
  void Add(double number) {
    simple_sum += number;
    const double tmp = number - compensation;
    const double rounded = sum + tmp;
    compensation = (rounded - sum) - tmp;
    sum = rounded;
  }
  // Same-signed infinities make the compensated sum NaN; the plain sum is right.
  double Result() const {
    const double tmp = sum + compensation;
    return std::isnan(tmp) && std::isinf(simple_sum) ? simple_sum : tmp;
  }
};

class FloatingSum final : public AggregateState {
 public:
  explicit FloatingSum(Kind kind) : kind_(kind) {}
  void Reset() override { kahan_ = {}; }
  void Add(FunctionArgs args) override {
    if (!Absent(args)) kahan_.Add(ReadFloating(kind_, *args[0]));
  }
  OptBytes Compute() const override { return WriteFloating(kind_, kahan_.Result()); }

 private:
  Kind kind_;
  KahanSum kahan_;
};

class FloatingAvg final : public AggregateState {
 public:
  explicit FloatingAvg(Kind kind) : kind_(kind) {}
  void Reset() override {
    kahan_ = {};
    count_ = 0;
    big_sum_.reset();
  }
  void Add(FunctionArgs args) override {
    if (Absent(args)) return;
    ++count_;
    const double number = ReadFloating(kind_, *args[0]);
    if (big_sum_) {
      *big_sum_ = function_internal::Add(*big_sum_, Decimal(number));
      return;
    }
    const double previous = kahan_.sum;
    kahan_.Add(number);
    if (std::isinf(kahan_.sum) && !std::isinf(number)) {
      big_sum_ = function_internal::Add(Decimal(previous), Decimal(number));
    }
  }
  OptBytes Compute() const override {
    if (count_ == 0) return WriteFloating(kind_, 0);
    if (big_sum_) {
      return WriteFloating(
          kind_, function_internal::ToDouble(function_internal::DivideHalfEven(*big_sum_, count_)));
    }
    return WriteFloating(kind_, kahan_.Result() / static_cast<double>(count_));
  }

 private:
  // BigDecimal.valueOf(double); a NaN or infinite input never reaches here
  // (it makes the double sum NaN or infinite without overflow).
  static BigDecimal Decimal(double d) {
    return function_internal::DecimalFromDouble(d).value_or(BigDecimal{});
  }

  Kind kind_;
  KahanSum kahan_;
  int64_t count_ = 0;
  std::optional<BigDecimal> big_sum_;
};

class VarintSum final : public AggregateState {
 public:
  explicit VarintSum(bool average) : average_(average) {}
  void Reset() override {
    sum_ = 0;
    count_ = 0;
  }
  void Add(FunctionArgs args) override {
    if (Absent(args)) return;
    ++count_;
    sum_ += types::VarintValue(*args[0]);
  }
  OptBytes Compute() const override {
    if (!average_ || count_ == 0) return types::VarintBytes(average_ ? BigInt(0) : sum_);
    return types::VarintBytes(sum_ / count_);  // truncates, as BigInteger.divide
  }

 private:
  bool average_;
  BigInt sum_ = 0;
  int64_t count_ = 0;
};

class DecimalSum final : public AggregateState {
 public:
  void Reset() override { sum_ = {}; }
  void Add(FunctionArgs args) override {
    if (Absent(args)) return;
    sum_ = function_internal::Add(sum_, function_internal::DecodeDecimal(*args[0]));
  }
  OptBytes Compute() const override { return function_internal::EncodeDecimal(sum_); }

 private:
  BigDecimal sum_;
};

class DecimalAvg final : public AggregateState {
 public:
  void Reset() override {
    avg_ = {};
    count_ = 0;
  }
  void Add(FunctionArgs args) override {
    if (Absent(args)) return;
    ++count_;
    const BigDecimal number = function_internal::DecodeDecimal(*args[0]);
    avg_ = function_internal::Add(
        avg_, function_internal::DivideHalfEven(function_internal::Subtract(number, avg_), count_));
  }
  OptBytes Compute() const override { return function_internal::EncodeDecimal(avg_); }

 private:
  BigDecimal avg_;
  int64_t count_ = 0;
};

template <typename State, typename... Args>
Function::AggregateFactory Make(Args... args) {
  return [=] { return std::make_unique<State>(args...); };
}

}  // namespace

void AddAggregateFunctions(FunctionRegistry& r) {
  auto count_rows =
      Function::Aggregate("countRows", CqlType::Native(Kind::kBigint), {}, Make<CountRows>());
  count_rows->set_column_name_format("count");
  r.Add(count_rows);

  static constexpr Kind kSummable[] = {Kind::kTinyint, Kind::kSmallint, Kind::kInt,
                                       Kind::kBigint,  Kind::kFloat,    Kind::kDouble,
                                       Kind::kDecimal, Kind::kVarint,   Kind::kCounter};
  for (bool average : {false, true}) {
    for (Kind kind : kSummable) {
      Function::AggregateFactory factory;
      switch (kind) {
        case Kind::kFloat:
        case Kind::kDouble:
          factory = average ? Make<FloatingAvg>(kind) : Make<FloatingSum>(kind);
          break;
        case Kind::kDecimal:
          factory = average ? Make<DecimalAvg>() : Make<DecimalSum>();
          break;
        case Kind::kVarint:
          factory = Make<VarintSum>(average);
          break;
        default:
          factory = average ? Make<IntegerAvg>(kind) : Make<IntegerSum>(kind);
          break;
      }
      r.Add(Function::Aggregate(average ? "avg" : "sum", CqlType::Native(kind),
                                {CqlType::Native(kind)}, std::move(factory)));
    }
  }

  for (Kind kind : NativeKindsInCqlOrder()) {
    const types::TypePtr type = CqlType::Native(kind);
    r.Add(Function::Aggregate("count", CqlType::Native(Kind::kBigint), {type}, Make<Count>()));
    r.Add(Function::Aggregate("max", type, {type}, Make<Extreme>(type, 1)));
    r.Add(Function::Aggregate("min", type, {type}, Make<Extreme>(type, -1)));
  }
}

}  // namespace sibyl::query
