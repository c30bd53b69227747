// count, min, max, sum and avg with Java's arithmetic.

#include <gtest/gtest.h>

#include <cfloat>
#include <limits>

#include "query/functions/function_test_util.h"
#include "types/big_number.h"

namespace sibyl::query {
namespace {

using testing::Overload;
using testing::T;
using types::Kind;

using testing::Decimal;

// Runs `name`(kind) over `inputs` as one group.
OptBytes Aggregate(const std::string& name, Kind kind,
                   const std::vector<std::optional<Bytes>>& inputs) {
  FunctionPtr f =
      name == "countRows" ? FunctionRegistry::Native().CountRows() : Overload(name, {T(kind)});
  std::unique_ptr<AggregateState> state = f->NewAggregate();
  for (const auto& input : inputs) {
    std::optional<BytesView> arg = input ? std::optional<BytesView>(*input) : std::nullopt;
    state->Add(std::span<const std::optional<BytesView>>(&arg, name == "countRows" ? 0 : 1));
  }
  return state->Compute();
}

std::vector<std::optional<Bytes>> Ints(std::initializer_list<std::optional<int32_t>> values) {
  std::vector<std::optional<Bytes>> out;
  for (const auto& v : values)
    out.push_back(v ? std::optional<Bytes>(types::EncodeInt(*v)) : std::nullopt);
  return out;
}

constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();

TEST(AggregateFunctionsTest, Counts) {
  EXPECT_EQ(Aggregate("countRows", Kind::kInt, Ints({1, std::nullopt, 3})), types::EncodeBigint(3));
  EXPECT_EQ(Aggregate("count", Kind::kInt, Ints({1, std::nullopt, 3})), types::EncodeBigint(2));
  EXPECT_EQ(Aggregate("count", Kind::kInt, {}), types::EncodeBigint(0));
  EXPECT_EQ(Aggregate("countRows", Kind::kInt, {}), types::EncodeBigint(0));
}

TEST(AggregateFunctionsTest, EmptyInput) {
  EXPECT_EQ(Aggregate("sum", Kind::kInt, {}), types::EncodeInt(0));
  EXPECT_EQ(Aggregate("avg", Kind::kInt, {}), types::EncodeInt(0));
  EXPECT_EQ(Aggregate("sum", Kind::kDouble, {}), types::EncodeDouble(0));
  EXPECT_EQ(Aggregate("avg", Kind::kFloat, {}), types::EncodeFloat(0));
  EXPECT_EQ(Aggregate("sum", Kind::kDecimal, {}), Decimal("0"));
  EXPECT_EQ(Aggregate("avg", Kind::kVarint, {}), *types::ParseVarint("0"));
  EXPECT_EQ(Aggregate("min", Kind::kInt, {}), std::nullopt);
  EXPECT_EQ(Aggregate("max", Kind::kText, {}), std::nullopt);
  // Only nulls: the same as nothing.
  EXPECT_EQ(Aggregate("sum", Kind::kInt, Ints({std::nullopt})), types::EncodeInt(0));
  EXPECT_EQ(Aggregate("max", Kind::kInt, Ints({std::nullopt})), std::nullopt);
}

TEST(AggregateFunctionsTest, IntegerSumsWrapAsJava) {
  EXPECT_EQ(Aggregate("sum", Kind::kInt, Ints({1, 2, std::nullopt, 3})), types::EncodeInt(6));
  EXPECT_EQ(Aggregate("sum", Kind::kInt, Ints({kIntMax, 1})), types::EncodeInt(kIntMin));
  EXPECT_EQ(Aggregate("sum", Kind::kTinyint, {types::EncodeTinyint(127), types::EncodeTinyint(1)}),
            types::EncodeTinyint(-128));
  EXPECT_EQ(
      Aggregate("sum", Kind::kBigint,
                {types::EncodeBigint(std::numeric_limits<int64_t>::max()), types::EncodeBigint(2)}),
      types::EncodeBigint(std::numeric_limits<int64_t>::min() + 1));
  EXPECT_EQ(Aggregate("sum", Kind::kCounter, {types::EncodeBigint(5), types::EncodeBigint(-7)}),
            types::EncodeBigint(-2));
}

TEST(AggregateFunctionsTest, IntegerAveragesAreExactAndTruncated) {
  EXPECT_EQ(Aggregate("avg", Kind::kInt, Ints({1, 2})), types::EncodeInt(1));
  EXPECT_EQ(Aggregate("avg", Kind::kInt, Ints({-1, -2})), types::EncodeInt(-1));
  EXPECT_EQ(Aggregate("avg", Kind::kInt, Ints({kIntMax, kIntMax, kIntMax})),
            types::EncodeInt(kIntMax));
  EXPECT_EQ(Aggregate("avg", Kind::kInt, Ints({1, std::nullopt, 4})), types::EncodeInt(2));
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(
      Aggregate("avg", Kind::kBigint, {types::EncodeBigint(big), types::EncodeBigint(big - 2)}),
      types::EncodeBigint(big - 1));
  EXPECT_EQ(Aggregate("avg", Kind::kSmallint,
                      {types::EncodeSmallint(32767), types::EncodeSmallint(32767)}),
            types::EncodeSmallint(32767));
}

TEST(AggregateFunctionsTest, FloatingPoint) {
  std::vector<std::optional<Bytes>> tenths(10, types::EncodeDouble(0.1));
  // Kahan summation: exactly 1.0 where a plain loop gives 0.9999999999999999.
  EXPECT_EQ(Aggregate("sum", Kind::kDouble, tenths), types::EncodeDouble(1.0));
  EXPECT_EQ(Aggregate("avg", Kind::kDouble, tenths), types::EncodeDouble(0.1));
  EXPECT_EQ(Aggregate("sum", Kind::kFloat, {types::EncodeFloat(0.5f), types::EncodeFloat(0.25f)}),
            types::EncodeFloat(0.75f));
  // Same-signed infinities: infinite, not NaN.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Aggregate("sum", Kind::kDouble, {types::EncodeDouble(inf), types::EncodeDouble(inf)}),
            types::EncodeDouble(inf));
  // An overflowing sum switches the average to BigDecimal.
  EXPECT_EQ(
      Aggregate("avg", Kind::kDouble, {types::EncodeDouble(DBL_MAX), types::EncodeDouble(DBL_MAX)}),
      types::EncodeDouble(DBL_MAX));
  EXPECT_EQ(
      Aggregate("sum", Kind::kDouble, {types::EncodeDouble(DBL_MAX), types::EncodeDouble(DBL_MAX)}),
      types::EncodeDouble(inf));
}

TEST(AggregateFunctionsTest, DecimalsAndVarints) {
  EXPECT_EQ(Aggregate("sum", Kind::kDecimal, {Decimal("1.5"), Decimal("2.25")}), Decimal("3.75"));
  // The running mean rounds half-even at the inputs' scale: avg(1, 2) is 1.
  EXPECT_EQ(Aggregate("avg", Kind::kDecimal, {Decimal("1"), Decimal("2")}), Decimal("1"));
  EXPECT_EQ(Aggregate("avg", Kind::kDecimal, {Decimal("1.0"), Decimal("2.0")}), Decimal("1.5"));
  EXPECT_EQ(Aggregate("avg", Kind::kDecimal, {Decimal("1.0"), Decimal("2.0"), Decimal("4.0")}),
            Decimal("2.3"));
  const Bytes huge = *types::ParseVarint("100000000000000000000");
  EXPECT_EQ(Aggregate("sum", Kind::kVarint, {huge, huge}),
            *types::ParseVarint("200000000000000000000"));
  EXPECT_EQ(Aggregate("avg", Kind::kVarint, {*types::ParseVarint("-7"), *types::ParseVarint("0")}),
            *types::ParseVarint("-3"));
}

TEST(AggregateFunctionsTest, MinAndMaxInTheTypesOrder) {
  EXPECT_EQ(Aggregate("min", Kind::kInt, Ints({3, -5, std::nullopt, 7})), types::EncodeInt(-5));
  EXPECT_EQ(Aggregate("max", Kind::kInt, Ints({3, -5, std::nullopt, 7})), types::EncodeInt(7));
  EXPECT_EQ(Aggregate("max", Kind::kText, {Bytes("apple"), Bytes("pear"), Bytes("fig")}),
            Bytes("pear"));
  EXPECT_EQ(Aggregate("min", Kind::kDecimal, {Decimal("1.50"), Decimal("-2"), Decimal("1.4")}),
            Decimal("-2"));
  EXPECT_EQ(Aggregate("max", Kind::kCounter, {types::EncodeBigint(-1), types::EncodeBigint(-9)}),
            types::EncodeBigint(-1));
}

TEST(AggregateFunctionsTest, ResetStartsAGroupAfresh) {
  FunctionPtr sum = Overload("sum", {T(Kind::kInt)});
  auto state = sum->NewAggregate();
  const Bytes five = types::EncodeInt(5);
  const std::optional<BytesView> arg = BytesView(five);
  state->Add(std::span(&arg, 1));
  EXPECT_EQ(state->Compute(), types::EncodeInt(5));
  state->Reset();
  EXPECT_EQ(state->Compute(), types::EncodeInt(0));
  EXPECT_EQ(sum->return_type()->kind(), Kind::kInt);
  EXPECT_EQ(Overload("avg", {T(Kind::kFloat)})->return_type()->kind(), Kind::kFloat);
  EXPECT_EQ(Overload("count", {T(Kind::kText)})->return_type()->kind(), Kind::kBigint);
}

}  // namespace
}  // namespace sibyl::query
