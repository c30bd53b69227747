// Selection: every selector kind with Cassandra 4.1's column names, types,
// values and messages, evaluated over rows in the source layout.

#include "query/selection/selection.h"

#include <gtest/gtest.h>

#include "cql/parser.h"
#include "query/restrictions/restrictions_test_util.h"
#include "schema/table_builder.h"
#include "types/big_number.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::TableBuilder;
using testing::ErrorOf;
using types::CqlType;
using types::Kind;

class SelectionTest : public ::testing::Test {
 protected:
  SelectionTest() {
    schema::TableMetadata table = *TableBuilder("ks", "t")
                                       .PartitionKey("k", "int")
                                       .Clustering("c", "int")
                                       .Column("v", "int")
                                       .Column("b", "bigint")
                                       .Column("f", "float")
                                       .Column("t", "text")
                                       .Column("m", "map<text, int>")
                                       .Column("s", "set<int>")
                                       .Column("l", "list<int>")
                                       .Column("fm", "frozen<map<text, int>>")
                                       .Column("vi", "varint")
                                       .Column("u", "int")
                                       .Build();
    // u: a frozen user type addr (x int, y text).
    const int u = table.ColumnIndex("u");
    table.columns[static_cast<size_t>(u)].type =
        CqlType::Udt("ks", "addr", {"x", "y"},
                     {CqlType::Native(Kind::kInt), CqlType::Native(Kind::kText)}, true);
    table_ = std::move(table);
  }

  size_t Index(std::string_view name) const {
    return static_cast<size_t>(table_.ColumnIndex(name));
  }

  // A row with k, c, v, b, t set and the rest null (plus `extra` cell metadata).
  schema::Row MakeRow(int32_t k, int32_t c, std::optional<int32_t> v, int64_t b,
                      std::string t = "x", size_t extra = 0) const {
    schema::Row row(table_.columns.size() + extra);
    row[Index("k")] = types::EncodeInt(k);
    row[Index("c")] = types::EncodeInt(c);
    if (v) row[Index("v")] = types::EncodeInt(*v);
    row[Index("b")] = types::EncodeBigint(b);
    row[Index("t")] = types::EncodeText(t);
    return row;
  }

  void Prepare(std::string_view query) {
    cql::ParsedStatement parsed = cql::ParseStatement(query);
    const auto& select = std::get<cql::SelectStatement>(parsed.statement);
    BindSpecCollector binds(table_.keyspace, table_.name, parsed.bind_marker_count);
    selection_ = std::make_unique<Selection>(Selection::Prepare(table_, select, binds));
    specs_ = binds.Take();
  }

  std::string PrepareError(std::string_view query) {
    return ErrorOf([&] { Prepare(query); });
  }

  // Binds `values` and makes the request's selectors.
  Selection::Selectors NewSelectors(std::vector<Value> values = {}) {
    params_.values = std::move(values);
    bound_ = std::make_unique<BoundValues>(specs_, params_);
    return selection_->NewSelectors(*bound_, context_);
  }

  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& c : *selection_->result_columns()) names.push_back(c.name);
    return names;
  }
  std::vector<std::string> Types() const {
    std::vector<std::string> out;
    for (const auto& c : *selection_->result_columns()) out.push_back(c.type->ToCql());
    return out;
  }

  // The one result row of a non-aggregate selection over `row`.
  schema::Row One(const schema::Row& row) {
    auto selectors = NewSelectors();
    selectors.AddRow(row);
    return selectors.Output();
  }

  schema::TableMetadata table_;
  std::unique_ptr<Selection> selection_;
  std::vector<protocol::ColumnSpec> specs_;
  protocol::QueryParameters params_;
  std::unique_ptr<BoundValues> bound_;
  ManualClock clock_{1'700'000'000'123'000};
  FunctionContext context_{&clock_, 4};
};

TEST_F(SelectionTest, WildcardSelectsEveryColumnInOrder) {
  Prepare("SELECT * FROM t");
  EXPECT_EQ(Names().size(), table_.columns.size());
  EXPECT_EQ(Names()[0], "k");
  EXPECT_TRUE(selection_->is_wildcard());
  EXPECT_FALSE(selection_->is_aggregate());
  EXPECT_EQ(selection_->columns_read().size(), table_.columns.size());
  const schema::Row row = MakeRow(1, 2, 3, 4);
  EXPECT_EQ(One(row), row);
}

TEST_F(SelectionTest, ColumnsAliasesAndColumnsRead) {
  Prepare("SELECT v AS value, k, v FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"value", "k", "v"}));
  EXPECT_EQ(selection_->columns_read(), (std::vector<size_t>{Index("k"), Index("v")}));
  const schema::Row out = One(MakeRow(1, 2, 3, 4));
  EXPECT_EQ(out, (schema::Row{types::EncodeInt(3), types::EncodeInt(1), types::EncodeInt(3)}));
  EXPECT_EQ(PrepareError("SELECT nope FROM t"), "Undefined column name nope in table ks.t");
}

TEST_F(SelectionTest, WritetimeAndTtlReadCellMetadata) {
  Prepare("SELECT writetime(v), ttl(b) FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"writetime(v)", "ttl(b)"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"bigint", "int"}));
  ASSERT_EQ(selection_->cell_metadata().size(), 2u);
  EXPECT_EQ(selection_->cell_metadata()[1].kind, CellMetadata::Kind::kTtl);
  EXPECT_EQ(selection_->cell_metadata()[1].column, Index("b"));
  schema::Row row = MakeRow(1, 2, 3, 4, "x", 2);
  row[table_.columns.size()] = types::EncodeBigint(99);
  row[table_.columns.size() + 1] = types::EncodeInt(7);
  EXPECT_EQ(One(row), (schema::Row{types::EncodeBigint(99), types::EncodeInt(7)}));
  EXPECT_EQ(PrepareError("SELECT writetime(k) FROM t"),
            "Cannot use selection function writeTime on PRIMARY KEY part k");
  EXPECT_EQ(PrepareError("SELECT ttl(m) FROM t"),
            "Cannot use selection function ttl on collections");
}

TEST_F(SelectionTest, ScalarFunctionsNestedAndNow) {
  Prepare("SELECT intAsBlob(v), toUnixTimestamp(now()), system.blobAsInt(intAsBlob(k)) FROM t");
  EXPECT_EQ(Names(),
            (std::vector<std::string>{"system.intasblob(v)", "system.tounixtimestamp(system.now())",
                                      "system.blobasint(system.intasblob(k))"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"blob", "bigint", "int"}));
  const schema::Row out = One(MakeRow(7, 2, 3, 4));
  EXPECT_EQ(out[0], types::EncodeInt(3));
  EXPECT_EQ(out[1], types::EncodeBigint(1'700'000'000'123));  // the context's clock
  EXPECT_EQ(out[2], types::EncodeInt(7));
  EXPECT_EQ(PrepareError("SELECT foo(v) FROM t"), "Unknown function 'foo'");
  EXPECT_EQ(
      PrepareError("SELECT intAsBlob(t) FROM t"),
      "Type error: t cannot be passed as argument 0 of function system.intasblob of type int");
}

TEST_F(SelectionTest, CastNamesAndIdentity) {
  Prepare("SELECT CAST(v AS text), CAST(v AS int), CAST(b AS int) FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"cast(v as text)", "v", "cast(b as int)"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"text", "int", "int"}));
  const schema::Row out = One(MakeRow(1, 2, 42, 5));
  EXPECT_EQ(out[0], Bytes("42"));
  EXPECT_EQ(out[2], types::EncodeInt(5));
}

TEST_F(SelectionTest, AggregatesOverRowsWithPlainColumnsFromTheFirstRow) {
  Prepare("SELECT count(*), COUNT(1), count(v), max(v), min(b), sum(v), avg(b), t FROM t");
  EXPECT_EQ(Names(),
            (std::vector<std::string>{"count", "count", "system.count(v)", "system.max(v)",
                                      "system.min(b)", "system.sum(v)", "system.avg(b)", "t"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"bigint", "bigint", "bigint", "int", "bigint", "int",
                                               "bigint", "text"}));
  EXPECT_TRUE(selection_->is_aggregate());
  auto selectors = NewSelectors();
  selectors.AddRow(MakeRow(1, 1, 5, 10, "first"));
  selectors.AddRow(MakeRow(1, 2, std::nullopt, 20, "second"));
  selectors.AddRow(MakeRow(1, 3, 9, 30, "third"));
  const schema::Row group = selectors.Output();
  EXPECT_EQ(group,
            (schema::Row{types::EncodeBigint(3), types::EncodeBigint(3), types::EncodeBigint(2),
                         types::EncodeInt(9), types::EncodeBigint(10), types::EncodeInt(14),
                         types::EncodeBigint(20), Bytes("first")}));
  // The next group starts empty: counts 0, sums 0, the rest null.
  const schema::Row empty = selectors.Output();
  EXPECT_EQ(empty, (schema::Row{types::EncodeBigint(0), types::EncodeBigint(0),
                                types::EncodeBigint(0), std::nullopt, std::nullopt,
                                types::EncodeInt(0), types::EncodeBigint(0), std::nullopt}));
}

TEST_F(SelectionTest, AggregatesNestedInScalarsAndScalarsInAggregates) {
  Prepare("SELECT intAsBlob(max(v)), max(blobAsInt(intAsBlob(v))) FROM t");
  EXPECT_EQ(Names(),
            (std::vector<std::string>{"system.intasblob(system.max(v))",
                                      "system.max(system.blobasint(system.intasblob(v)))"}));
  EXPECT_TRUE(selection_->is_aggregate());
  auto selectors = NewSelectors();
  selectors.AddRow(MakeRow(1, 1, 4, 0));
  selectors.AddRow(MakeRow(1, 2, 8, 0));
  EXPECT_EQ(selectors.Output(), (schema::Row{types::EncodeInt(8), types::EncodeInt(8)}));
  EXPECT_EQ(PrepareError("SELECT count(max(v)) FROM t"),
            "aggregate functions cannot be used as arguments of aggregate functions");
}

TEST_F(SelectionTest, ArithmeticTypesNamesAndValues) {
  Prepare("SELECT v + b, v * 2, -v, v - 1, f / 2, k % 2, v + vi FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"v + b", "v * 2", "-v", "v - 1", "f / 2", "k % 2",
                                               "v + vi"}));
  EXPECT_EQ(Types(),
            (std::vector<std::string>{"bigint", "int", "int", "int", "float", "int", "varint"}));
  schema::Row row = MakeRow(7, 1, 5, 10);
  row[Index("f")] = types::EncodeFloat(3.0f);
  row[Index("vi")] = types::VarintBytes(types::BigInteger("100000000000000000000"));
  const schema::Row out = One(row);
  EXPECT_EQ(out[0], types::EncodeBigint(15));
  EXPECT_EQ(out[1], types::EncodeInt(10));
  EXPECT_EQ(out[2], types::EncodeInt(-5));
  EXPECT_EQ(out[3], types::EncodeInt(4));
  EXPECT_EQ(out[4], types::EncodeFloat(1.5f));
  EXPECT_EQ(out[5], types::EncodeInt(1));
  EXPECT_EQ(out[6], types::VarintBytes(types::BigInteger("100000000000000000005")));
}

TEST_F(SelectionTest, ArithmeticFailuresAndNulls) {
  Prepare("SELECT v / 0, f / 0, v + 1 FROM t");
  schema::Row row = MakeRow(1, 1, 5, 0);
  row[Index("f")] = types::EncodeFloat(1.0f);
  try {
    (void)One(row);
    ADD_FAILURE() << "expected a division by zero";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kFunctionFailure);
    EXPECT_STREQ(e.what(), "the operation 'int / int' failed: / by zero");
  }
  Prepare("SELECT f / 0, v + 1 FROM t");
  const schema::Row out = One(row);
  EXPECT_EQ(types::DecodeFloat(*out[0]), std::numeric_limits<float>::infinity());
  EXPECT_EQ(out[1], types::EncodeInt(6));
  EXPECT_EQ(One(MakeRow(1, 1, std::nullopt, 0))[1], std::nullopt);  // null operand

  EXPECT_EQ(PrepareError("SELECT v + 'a' FROM t"),
            "the '+' operation is not supported between v and 'a'");
  EXPECT_EQ(PrepareError("SELECT v + ? FROM t"),
            "Ambiguous '+' operation: use type casts to disambiguate");
  EXPECT_EQ(PrepareError("SELECT v + m FROM t"),
            "the '+' operation is not supported between v and m");
}

TEST_F(SelectionTest, TermsNeedATypeFromAHintOrAParameter) {
  EXPECT_EQ(PrepareError("SELECT 1 FROM t"),
            "Cannot infer type for term 1 in selection clause (try using a cast to force a type)");
  EXPECT_EQ(PrepareError("SELECT ? FROM t"),
            "Cannot infer type for term ? in selection clause (try using a cast to force a type)");
  Prepare("SELECT (int)1, (bigint)?, intAsBlob(?) FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"(int)1", "(bigint)?", "system.intasblob(?)"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"int", "bigint", "blob"}));
  ASSERT_EQ(specs_.size(), 2u);
  EXPECT_EQ(specs_[0].name, "[selection]");
  EXPECT_EQ(specs_[0].type->ToCql(), "bigint");
  EXPECT_EQ(specs_[1].name, "[selection]");
  EXPECT_EQ(specs_[1].type->ToCql(), "int");
  const Bytes big = types::EncodeBigint(77);
  const Bytes small = types::EncodeInt(5);
  auto selectors = NewSelectors({Value::Of(big), Value::Of(small)});
  selectors.AddRow(MakeRow(1, 1, 1, 1));
  EXPECT_EQ(selectors.Output(), (schema::Row{types::EncodeInt(1), big, small}));
  EXPECT_EQ(PrepareError("SELECT (int)'a' FROM t"),
            "Cannot assign value (int)'a' to (int)'a' of type int");
  EXPECT_EQ(PrepareError("SELECT intAsBlob('a') FROM t"),
            "Type error: 'a' cannot be passed as argument 0 of function system.intasblob of type "
            "int");
}

TEST_F(SelectionTest, UnsetFunctionArgumentIsRefused) {
  Prepare("SELECT intAsBlob(?) FROM t");
  auto selectors = NewSelectors({Value::Unset()});
  selectors.AddRow(MakeRow(1, 1, 1, 1));
  EXPECT_EQ(ErrorOf([&] { (void)selectors.Output(); }),
            "Invalid unset value for argument in call to function intasblob");
}

TEST_F(SelectionTest, ElementAndSliceSelection) {
  Prepare("SELECT m['b'], s[3], m['a'..'b'], fm[..'a'], m['z'..], s[?] FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"m['b']", "s[3]", "m['a'..'b']", "fm[..'a']",
                                               "m['z'..]", "s[?]"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"int", "int", "map<text, int>",
                                               "frozen<map<text, int>>", "map<text, int>", "int"}));
  EXPECT_EQ(specs_.at(0).name, "value(s)");
  schema::Row row = MakeRow(1, 1, 1, 1);
  const Bytes map = types::EncodeMap(
      {{"a", types::EncodeInt(1)}, {"b", types::EncodeInt(2)}, {"c", types::EncodeInt(3)}});
  row[Index("m")] = map;
  row[Index("fm")] = map;
  row[Index("s")] = types::EncodeList({types::EncodeInt(3), types::EncodeInt(4)});
  const Bytes four = types::EncodeInt(4);
  auto selectors = NewSelectors({Value::Of(four)});
  selectors.AddRow(row);
  const schema::Row out = selectors.Output();
  EXPECT_EQ(out[0], types::EncodeInt(2));
  EXPECT_EQ(out[1], types::EncodeInt(3));
  EXPECT_EQ(out[2], types::EncodeMap({{"a", types::EncodeInt(1)}, {"b", types::EncodeInt(2)}}));
  EXPECT_EQ(out[3], types::EncodeMap({{"a", types::EncodeInt(1)}}));
  EXPECT_EQ(out[4], std::nullopt);  // nothing in a non-frozen map's slice
  EXPECT_EQ(out[5], four);

  EXPECT_EQ(PrepareError("SELECT l[0] FROM t"),
            "Element selection is only allowed on sets and maps, but l is a list");
  EXPECT_EQ(PrepareError("SELECT l[0..1] FROM t"),
            "Slice selection is only allowed on sets and maps, but l is a list");
  EXPECT_EQ(PrepareError("SELECT v['a'] FROM t"),
            "Invalid element selection: v is of type int is not a collection");
  EXPECT_EQ(PrepareError("SELECT v['a'..] FROM t"),
            "Invalid slice selection: v of type int is not a collection");
  Prepare("SELECT m[?] FROM t");
  EXPECT_EQ(specs_.at(0).name, "key(m)");
  EXPECT_EQ(ErrorOf([&] { (void)NewSelectors({Value::Null()}); }),
            "Invalid null value for element selection on m");
}

TEST_F(SelectionTest, UserTypeFieldSelection) {
  Prepare("SELECT u.y, u.x FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"u.y", "u.x"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"text", "int"}));
  schema::Row row = MakeRow(1, 1, 1, 1);
  const Bytes x = types::EncodeInt(9);
  row[Index("u")] = types::EncodeTuple({BytesView(x)});  // y not written
  const schema::Row out = One(row);
  EXPECT_EQ(out[0], std::nullopt);
  EXPECT_EQ(out[1], x);
  EXPECT_EQ(PrepareError("SELECT u.z FROM t"), "u of type frozen<addr> has no field z");
  EXPECT_EQ(PrepareError("SELECT v.z FROM t"),
            "Invalid field selection: v of type int is not a user type");
}

TEST_F(SelectionTest, TokenOfThePartitionKey) {
  Prepare("SELECT token(k) FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"system.token(k)"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"bigint"}));
  // Murmur3 token of int 1 (a vector from Cassandra).
  EXPECT_EQ(One(MakeRow(1, 1, 1, 1))[0], types::EncodeBigint(-4069959284402364209));
  EXPECT_EQ(PrepareError("SELECT token(k, c) FROM t"),
            "Invalid number of arguments in call to function system.token: 1 required but 2 "
            "provided");
  EXPECT_EQ(PrepareError("SELECT token(t) FROM t"),
            "Type error: t cannot be passed as argument 0 of function system.token of type int");
}

TEST_F(SelectionTest, SelectJsonAndToJson) {
  Prepare("SELECT JSON k, v AS \"Val\", t, b AS \"a b\" FROM t");
  EXPECT_TRUE(selection_->is_json());
  EXPECT_EQ(Names(), (std::vector<std::string>{"[json]"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"text"}));
  EXPECT_EQ(One(MakeRow(1, 1, std::nullopt, 3, "q\"x")),
            (schema::Row{Bytes(R"({"k": 1, "\"Val\"": null, "t": "q\"x", "a b": 3})")}));
  Prepare("SELECT toJson(m), toJson(t) FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"system.tojson(m)", "system.tojson(t)"}));
  EXPECT_EQ(PrepareError("SELECT toJson(1) FROM t"),
            "Cannot infer type for term 1 in selection clause (try using a cast to force a type)");
}

TEST_F(SelectionTest, NotYetSupportedSelectorsSayNotSupported) {
  EXPECT_EQ(PrepareError("SELECT [v, k] FROM t"),
            "Collection, tuple and user type literals in the selection clause are not supported "
            "by Sibyl yet");
}

TEST_F(SelectionTest, ArithmeticWithDecimalResults) {
  Prepare("SELECT v + (decimal)1, f * vi, v / (decimal)3 FROM t");
  EXPECT_EQ(Names(), (std::vector<std::string>{"v + (decimal)1", "f * vi", "v / (decimal)3"}));
  EXPECT_EQ(Types(), (std::vector<std::string>{"decimal", "decimal", "decimal"}));
  schema::Row row = MakeRow(7, 1, 5, 10);
  row[Index("f")] = types::EncodeFloat(3.0f);
  row[Index("vi")] = types::VarintBytes(types::BigInteger("100000000000000000000"));
  const schema::Row out = One(row);
  EXPECT_EQ(out[0], types::ParseDecimal("6.0"));  // int 5 converts as the double 5.0
  EXPECT_EQ(out[1], types::ParseDecimal("300000000000000000000.0"));
  EXPECT_EQ(out[2], types::ParseDecimal("1.66666666666666666666666666666667"));
}

}  // namespace
}  // namespace sibyl::query
