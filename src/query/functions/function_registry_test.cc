#include "query/functions/function_registry.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "query/functions/function_test_util.h"

namespace sibyl::query {
namespace {

using testing::T;
using types::ConstantKind;
using types::Kind;

const FunctionRegistry& R() { return FunctionRegistry::Native(); }

FunctionName Name(std::string name, std::string keyspace = "") {
  return FunctionName{std::move(keyspace), std::move(name)};
}

FunctionArgument Column(Kind kind, std::string name = "c") {
  return FunctionArgument::Typed(T(kind), std::move(name));
}

FunctionArgument Constant(ConstantKind kind, std::string text) {
  return FunctionArgument::Literal(types::Literal::Constant(kind, std::move(text)));
}

std::string ErrorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid) << e.what();
    return e.what();
  }
  return "no error";
}

std::string ResolveError(const FunctionName& name, std::vector<FunctionArgument> args,
                         CallSite site = CallSite::kSelection, types::TypePtr receiver = nullptr) {
  return ErrorOf([&] { (void)R().Resolve(name, args, receiver, site); });
}

TEST(FunctionRegistryTest, PicksTheOverloadOfTheArgumentType) {
  FunctionPtr f = R().Resolve(Name("todate"), std::vector{Column(Kind::kTimestamp)}, nullptr,
                              CallSite::kSelection);
  EXPECT_EQ(f->ToString(), "system.todate : (timestamp) -> date");
  f = R().Resolve(Name("todate"), std::vector{Column(Kind::kTimeuuid)}, nullptr,
                  CallSite::kSelection);
  EXPECT_EQ(f->ToString(), "system.todate : (timeuuid) -> date");
  EXPECT_EQ(f->QualifiedName(), "system.todate");
  EXPECT_EQ(f->ColumnName(std::vector<std::string>{"t"}), "system.todate(t)");
}

TEST(FunctionRegistryTest, SystemQualifiedNamesFindNatives) {
  FunctionPtr f = R().Resolve(Name("now", "system"), {}, nullptr, CallSite::kSelection);
  EXPECT_EQ(f->return_type()->kind(), Kind::kTimeuuid);
  EXPECT_FALSE(f->is_pure());
}

TEST(FunctionRegistryTest, UnknownFunctions) {
  EXPECT_EQ(ResolveError(Name("foo"), {}), "Unknown function 'foo'");
  EXPECT_EQ(ResolveError(Name("foo"), {}, CallSite::kTerm), "Unknown function foo called");
  // Names are case-sensitive: the parser lower-cases unquoted ones.
  EXPECT_EQ(ResolveError(Name("toDate"), {Column(Kind::kTimestamp)}), "Unknown function 'toDate'");
  // Natives are not found through another keyspace.
  EXPECT_EQ(ResolveError(Name("now", "ks"), {}), "Unknown function 'ks.now'");
}

TEST(FunctionRegistryTest, WrongArgumentCountWithOneCandidate) {
  EXPECT_EQ(ResolveError(Name("now"), {Column(Kind::kInt)}),
            "Invalid number of arguments in call to function system.now: 0 required but 1 "
            "provided");
  EXPECT_EQ(ResolveError(Name("dateof"), {}),
            "Invalid number of arguments in call to function system.dateof: 1 required but 0 "
            "provided");
}

TEST(FunctionRegistryTest, WrongArgumentTypeWithOneCandidate) {
  EXPECT_EQ(ResolveError(Name("dateof"), {Constant(ConstantKind::kString, "a")}),
            "Type error: 'a' cannot be passed as argument 0 of function system.dateof of type "
            "timeuuid");
  EXPECT_EQ(ResolveError(Name("intasblob"), {Column(Kind::kText, "name")}),
            "Type error: name cannot be passed as argument 0 of function system.intasblob of "
            "type int");
}

TEST(FunctionRegistryTest, NoSignatureMatches) {
  EXPECT_EQ(ResolveError(Name("todate"), {Column(Kind::kText)}),
            "Invalid call to function todate, none of its type signatures match (known type "
            "signatures: system.todate : (timeuuid) -> date, system.todate : (timestamp) -> "
            "date)");
  EXPECT_EQ(ResolveError(Name("todate", "system"), {Column(Kind::kText), Column(Kind::kText)}),
            "Invalid call to function system.todate, none of its type signatures match (known "
            "type signatures: system.todate : (timeuuid) -> date, system.todate : (timestamp) -> "
            "date)");
}

TEST(FunctionRegistryTest, AmbiguousCalls) {
  EXPECT_EQ(ResolveError(Name("todate"), {FunctionArgument::BindMarker()}),
            "Ambiguous call to function todate (can be matched by following signatures: "
            "system.todate : (timeuuid) -> date, system.todate : (timestamp) -> date): use type "
            "casts to disambiguate");
  // NULL fits every overload too.
  EXPECT_NE(
      ResolveError(Name("tounixtimestamp"), {FunctionArgument::Literal(types::Literal::Null())})
          .find("Ambiguous call to function tounixtimestamp"),
      std::string::npos);
}

TEST(FunctionRegistryTest, ExactMatchWinsOverWeaklyAssignable) {
  // 42 prefers int: sum(int), though tinyint..varint all accept it.
  FunctionPtr f = R().Resolve(Name("sum"), std::vector{Constant(ConstantKind::kInteger, "42")},
                              nullptr, CallSite::kSelection);
  EXPECT_EQ(f->ToString(), "system.sum : (int) -> int");
  EXPECT_TRUE(f->is_aggregate());
  // A column of type timestamp picks max(timestamp) exactly.
  f = R().Resolve(Name("max"), std::vector{Column(Kind::kTimestamp)}, nullptr,
                  CallSite::kSelection);
  EXPECT_EQ(f->return_type()->kind(), Kind::kTimestamp);
}

TEST(FunctionRegistryTest, WeaklyAssignableArgumentIsAccepted) {
  // No tounixtimestamp(bigint), but timestamp accepts bigint values.
  FunctionPtr f = R().Resolve(Name("tounixtimestamp"), std::vector{Column(Kind::kBigint)}, nullptr,
                              CallSite::kSelection);
  EXPECT_EQ(f->ToString(), "system.tounixtimestamp : (timestamp) -> bigint");
}

TEST(FunctionRegistryTest, ReceiverFiltersCandidatesByReturnType) {
  // castAsText(?) is ambiguous among its sources; not so with a receiver
  // only when return types differ, which they do not here.
  EXPECT_NE(ResolveError(Name("castAsText", "system"), {FunctionArgument::BindMarker()},
                         CallSite::kTerm, T(Kind::kText))
                .find("Ambiguous call to function system.castAsText"),
            std::string::npos);
  // Receiver of type int: no todate overload returns something an int takes.
  EXPECT_NE(ResolveError(Name("todate"), {FunctionArgument::BindMarker()}, CallSite::kTerm,
                         T(Kind::kBoolean))
                .find("none of its type signatures match"),
            std::string::npos);
}

TEST(FunctionRegistryTest, BindMarkersTakeTheParameterType) {
  FunctionPtr f = R().Resolve(Name("intasblob"), std::vector{FunctionArgument::BindMarker()},
                              nullptr, CallSite::kTerm);
  EXPECT_EQ(ArgumentSpecName(*f, 0), "arg0(system.intasblob)");
  EXPECT_EQ(f->arg_types()[0]->kind(), Kind::kInt);
}

TEST(FunctionRegistryTest, ResultAssignability) {
  FunctionPtr now = R().Resolve(Name("now"), {}, nullptr, CallSite::kTerm);
  CheckResultAssignable(*now, "t", *T(Kind::kTimeuuid));
  CheckResultAssignable(*now, "u", *T(Kind::kUuid));  // uuid takes timeuuid values
  EXPECT_EQ(ErrorOf([&] { CheckResultAssignable(*now, "k", *T(Kind::kInt)); }),
            "Type error: cannot assign result of function system.now (type timeuuid) to k "
            "(type int)");
}

TEST(FunctionRegistryTest, JsonFunctionsDependOnTheCallSite) {
  EXPECT_EQ(ResolveError(Name("tojson"), {Column(Kind::kInt)}, CallSite::kTerm, T(Kind::kText)),
            "toJson() may only be used within the selection clause of SELECT statements");
  EXPECT_EQ(ResolveError(Name("tojson"), {Column(Kind::kInt), Column(Kind::kInt)}),
            "toJson() only accepts one argument (got 2)");
  EXPECT_EQ(ResolveError(Name("tojson"), {Constant(ConstantKind::kInteger, "1")}),
            "Cannot infer type for term 1 in selection clause (try using a cast to force a type)");
  EXPECT_EQ(ResolveError(Name("fromjson"), {Constant(ConstantKind::kString, "1")}),
            "fromJson() cannot be used in the selection clause of a SELECT statement");
  FunctionPtr to =
      R().Resolve(Name("tojson"), std::vector{Column(Kind::kInt)}, nullptr, CallSite::kSelection);
  EXPECT_EQ(to->ToString(), "system.tojson : (int) -> text");
  FunctionPtr from =
      R().Resolve(Name("fromjson"), std::vector{Constant(ConstantKind::kString, "1")},
                  T(Kind::kBigint), CallSite::kTerm);
  EXPECT_EQ(from->ToString(), "system.fromjson : (text) -> bigint");
  EXPECT_EQ(ResolveError(Name("fromjson"), {}, CallSite::kTerm, T(Kind::kInt)),
            "Incorrect number of arguments specified for function system.fromjson : (text) -> int "
            "(expected 1, found 0)");
}

TEST(FunctionRegistryTest, CountRowsAndItsColumnName) {
  FunctionPtr f = R().CountRows();
  EXPECT_EQ(f->ToString(), "system.\"countRows\" : () -> bigint");
  EXPECT_EQ(f->ColumnName({}), "count");
}

TEST(FunctionRegistryTest, Casts) {
  EXPECT_EQ(CastFunctionName(*T(Kind::kBigint)), "castAsBigint");
  EXPECT_EQ(R().ResolveCast(Column(Kind::kInt), T(Kind::kInt)), nullptr);
  FunctionPtr f = R().ResolveCast(Column(Kind::kInt, "v"), T(Kind::kBigint));
  EXPECT_EQ(f->ToString(), "system.\"castAsBigint\" : (int) -> bigint");
  EXPECT_EQ(f->ColumnName(std::vector<std::string>{"v"}), "cast(v as bigint)");
  EXPECT_EQ(ErrorOf([] { (void)R().ResolveCast(Column(Kind::kInt, "v"), T(Kind::kBlob)); }),
            "v cannot be cast to blob");
  EXPECT_NE(ErrorOf([] { (void)R().ResolveCast(Column(Kind::kUuid, "v"), T(Kind::kInt)); })
                .find("Invalid call to function system.castAsInt, none of its type signatures "
                      "match (known type signatures: system.\"castAsInt\" : (tinyint) -> int, "),
            std::string::npos);
}

TEST(FunctionRegistryTest, CatalogCounts) {
  // Every native but blob has an <type>asblob, text twice (textasblob, varcharasblob).
  EXPECT_EQ(R().Overloads("textasblob").size(), 1u);
  EXPECT_EQ(R().Overloads("varcharasblob").size(), 1u);
  EXPECT_TRUE(R().Overloads("blobasblob").empty());
  EXPECT_EQ(R().Overloads("blobascounter").size(), 1u);
  EXPECT_EQ(R().Overloads("sum").size(), 9u);
  EXPECT_EQ(R().Overloads("avg").size(), 9u);
  EXPECT_EQ(R().Overloads("count").size(), 20u);
  EXPECT_EQ(R().Overloads("min").size(), 20u);
  EXPECT_EQ(R().Overloads("todate").size(), 2u);
  EXPECT_EQ(R().Overloads("tounixtimestamp").size(), 3u);
  EXPECT_TRUE(R().Overloads("token").empty());
}

}  // namespace
}  // namespace sibyl::query
