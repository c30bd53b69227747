// Function calls in terms (INSERT values, SET, WHERE): resolved against the
// receiver, evaluated when the request binds its values.

#include <gtest/gtest.h>

#include "cql/parser.h"
#include "query/restrictions/restrictions_test_util.h"
#include "query/terms/term.h"
#include "types/big_number.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::ErrorOf;
using types::CqlType;
using types::Kind;

// The first value term of `INSERT INTO t (a) VALUES (<term>)`.
cql::Term ParseTerm(const std::string& text, int& markers) {
  cql::ParsedStatement parsed = cql::ParseStatement("INSERT INTO t (a) VALUES (" + text + ")");
  markers = parsed.bind_marker_count;
  return std::get<cql::InsertStatement>(parsed.statement).values.at(0);
}

class TermFunctionTest : public ::testing::Test {
 protected:
  PreparedTerm Prepare(const std::string& text, Kind receiver_kind) {
    int markers = 0;
    const cql::Term term = ParseTerm(text, markers);
    BindSpecCollector binds("ks", "t", markers);
    PreparedTerm prepared = PrepareTerm(term, "a", CqlType::Native(receiver_kind), binds);
    specs_ = binds.Take();
    return prepared;
  }
  std::string PrepareError(const std::string& text, Kind receiver_kind) {
    return ErrorOf([&] { (void)Prepare(text, receiver_kind); });
  }
  const BoundValues& Bind(std::vector<Value> values = {}) {
    params_.values = std::move(values);
    bound_ = std::make_unique<BoundValues>(specs_, params_);
    bound_->set_function_context(&context_);
    return *bound_;
  }

  std::vector<protocol::ColumnSpec> specs_;
  protocol::QueryParameters params_;
  std::unique_ptr<BoundValues> bound_;
  ManualClock clock_{1'700'000'000'123'000};
  FunctionContext context_{&clock_, 4};
};

TEST_F(TermFunctionTest, NowAndNestedCallsUseTheContextClock) {
  PreparedTerm timestamp = Prepare("toTimestamp(now())", Kind::kTimestamp);
  EXPECT_EQ(timestamp.kind, PreparedTerm::Kind::kFunction);
  const Value v = timestamp.Bind(Bind());
  ASSERT_EQ(v.kind, Value::Kind::kBytes);
  EXPECT_EQ(types::DecodeBigint(v.bytes), 1'700'000'000'123);

  PreparedTerm uuid = Prepare("now()", Kind::kTimeuuid);
  const BoundValues& values = Bind();
  const Value first = uuid.Bind(values);
  const Value second = uuid.Bind(values);
  ASSERT_EQ(first.bytes.size(), 16u);
  EXPECT_NE(Bytes(first.bytes), Bytes(second.bytes));  // both kept alive, distinct
}

TEST_F(TermFunctionTest, DefaultContextWorksWithoutOne) {
  PreparedTerm uuid = Prepare("uuid()", Kind::kUuid);
  params_.values.clear();
  BoundValues values(specs_, params_);
  EXPECT_EQ(uuid.Bind(values).bytes.size(), 16u);
}

TEST_F(TermFunctionTest, MarkersInCallsAreNamedAfterTheParameter) {
  PreparedTerm blob = Prepare("intAsBlob(?)", Kind::kBlob);
  ASSERT_EQ(specs_.size(), 1u);
  EXPECT_EQ(specs_[0].name, "arg0(system.intasblob)");
  EXPECT_EQ(specs_[0].type->ToCql(), "int");
  const Bytes five = types::EncodeInt(5);
  EXPECT_EQ(Bytes(blob.Bind(Bind({Value::Of(five)})).bytes), five);
  EXPECT_TRUE(blob.Bind(Bind({Value::Null()})).is_null());
  EXPECT_EQ(ErrorOf([&] { (void)blob.Bind(Bind({Value::Unset()})); }),
            "Invalid unset value for argument in call to function intasblob");
}

TEST_F(TermFunctionTest, ArithmeticInTerms) {
  PreparedTerm sum = Prepare("2 * 3 + 1", Kind::kInt);
  EXPECT_EQ(types::DecodeInt(sum.Bind(Bind()).bytes), 7);
  PreparedTerm negated = Prepare("-(bigint)?", Kind::kBigint);
  const Bytes four = types::EncodeBigint(4);
  EXPECT_EQ(types::DecodeBigint(negated.Bind(Bind({Value::Of(four)})).bytes), -4);
  EXPECT_EQ(PrepareError("1 + ?", Kind::kInt),
            "Ambiguous '+' operation: use type casts to disambiguate");
}

TEST_F(TermFunctionTest, TemporalAndDecimalArithmeticInTerms) {
  // WHERE time > '2016-09-27 16:10:00+0000' - 10m: the receiver picks timestamp - duration.
  PreparedTerm earlier = Prepare("'2016-09-27 16:10:00+0000' - 10m", Kind::kTimestamp);
  EXPECT_EQ(types::DecodeBigint(earlier.Bind(Bind()).bytes), 1474992000000);
  PreparedTerm day = Prepare("? - 5d", Kind::kDate);
  ASSERT_EQ(specs_.size(), 1u);
  EXPECT_EQ(specs_[0].type->ToCql(), "date");
  EXPECT_EQ(types::DecodeDate(day.Bind(Bind({Value::Of(types::EncodeDate(17078))})).bytes), 17073);
  // The int 1 converts as the double 1.0.
  PreparedTerm sum = Prepare("(decimal)1.5 + 1", Kind::kDecimal);
  EXPECT_EQ(Bytes(sum.Bind(Bind()).bytes), *types::ParseDecimal("2.5"));
}

TEST_F(TermFunctionTest, ResultMustFitTheReceiver) {
  EXPECT_EQ(PrepareError("now()", Kind::kInt),
            "Type error: cannot assign result of function system.now (type timeuuid) to a (type "
            "int)");
  EXPECT_EQ(PrepareError("foo()", Kind::kInt), "Unknown function foo called");
  EXPECT_EQ(PrepareError("max(1)", Kind::kInt),
            "Aggregation function are not supported in the where clause");
  EXPECT_EQ(PrepareError("toJson(1)", Kind::kText),
            "toJson() may only be used within the selection clause of SELECT statements");
}

TEST_F(TermFunctionTest, TypeHints) {
  PreparedTerm hinted = Prepare("(int)?", Kind::kInt);
  EXPECT_EQ(specs_.at(0).name, "a");
  (void)hinted;
  EXPECT_EQ(PrepareError("(int)'a'", Kind::kInt), "Cannot cast value 'a' to type int");
  EXPECT_EQ(PrepareError("(int)1", Kind::kText), "Cannot assign value (int)1 to a of type text");
}

}  // namespace
}  // namespace sibyl::query
