// Bind markers inside collection, tuple and UDT literals, end to end: what
// PREPARE says of them, what EXECUTE writes and reads, and Cassandra 4.1's
// refusals (markers inside list, set and map literals; unset tuple fields).

#include <gtest/gtest.h>

#include "query/read/engine_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::WithValues;

class LiteralMarkersTest : public testing::StorageQueryTest<storage::ReferenceEngine> {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run("CREATE TYPE ks.pair (a int, b text)");
    (void)Run(
        "CREATE TABLE ks.t (id int PRIMARY KEY, tup tuple<int, text, boolean>, l list<int>, "
        "s set<int>, m map<text, int>, p frozen<pair>, np pair, "
        "lt list<frozen<tuple<int, int>>>, nested tuple<int, frozen<list<int>>>)");
    (void)Run("CREATE TABLE ks.k (k frozen<tuple<int, int>>, c int, v int, PRIMARY KEY (k, c))");
  }

  protocol::PreparedResult Prepare(std::string_view query) {
    return processor_.Prepare(query, client_, std::nullopt);
  }
  std::string PrepareError(std::string_view query) {
    try {
      (void)Prepare(query);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << query;
      return e.what();
    }
    return "no error";
  }
  // Executes the statement prepared as `query` with `values` (null: NULL).
  Result Execute(std::string_view query, const std::vector<std::optional<Bytes>>& values,
                 const std::vector<bool>& unset = {}) {
    const protocol::PreparedResult prepared = Prepare(query);
    kept_ = values;
    std::vector<Value> bound;
    for (size_t i = 0; i < kept_.size(); ++i) {
      if (i < unset.size() && unset[i]) {
        bound.push_back(Value::Unset());
      } else {
        bound.push_back(kept_[i] ? Value::Of(*kept_[i]) : Value::Null());
      }
    }
    return processor_.Execute(prepared.id, WithValues(std::move(bound)), client_);
  }
  std::string ExecuteError(std::string_view query, const std::vector<std::optional<Bytes>>& values,
                           const std::vector<bool>& unset = {}) {
    try {
      (void)Execute(query, values, unset);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << query;
      return e.what();
    }
    return "no error";
  }
  OptBytes Cell(std::string_view column, int id) {
    RowsResult rows =
        Rows("SELECT " + std::string(column) + " FROM ks.t WHERE id = " + std::to_string(id));
    if (rows.rows.size() != 1) {
      ADD_FAILURE() << column << " of " << id << ": " << rows.rows.size() << " rows";
      return std::nullopt;
    }
    return rows.rows[0].at(0);
  }

  static Bytes Int(int32_t v) { return types::EncodeInt(v); }
  static Bytes Tuple(const std::vector<std::optional<Bytes>>& components) {
    std::vector<std::optional<BytesView>> views;
    for (const auto& c : components)
      views.push_back(c ? std::optional<BytesView>(*c) : std::nullopt);
    return types::EncodeTuple(views);
  }

  std::vector<std::optional<Bytes>> kept_;
};

std::vector<std::string> Names(const protocol::PreparedResult& prepared) {
  std::vector<std::string> names;
  for (const auto& spec : prepared.bind_variables) names.push_back(spec.name);
  return names;
}

std::vector<std::string> TypeNames(const protocol::PreparedResult& prepared) {
  std::vector<std::string> types;
  for (const auto& spec : prepared.bind_variables) types.push_back(spec.type->ToCql());
  return types;
}

TEST_F(LiteralMarkersTest, EachMarkerIsNamedAfterItsComponentOrField) {
  const protocol::PreparedResult tuple =
      Prepare("INSERT INTO ks.t (id, tup) VALUES (?, (?, ?, ?))");
  EXPECT_EQ(Names(tuple), (std::vector<std::string>{"id", "tup[0]", "tup[1]", "tup[2]"}));
  EXPECT_EQ(TypeNames(tuple), (std::vector<std::string>{"int", "int", "text", "boolean"}));
  EXPECT_EQ(tuple.bind_variables[1].keyspace, "ks");
  EXPECT_EQ(tuple.bind_variables[1].table, "t");
  EXPECT_EQ(tuple.partition_key_indexes, std::vector<uint16_t>{0});

  const protocol::PreparedResult udt = Prepare("UPDATE ks.t SET p = {b: ?, a: ?} WHERE id = ?");
  EXPECT_EQ(Names(udt), (std::vector<std::string>{"p.b", "p.a", "id"}));
  EXPECT_EQ(TypeNames(udt), (std::vector<std::string>{"text", "int", "int"}));

  // A named marker keeps its name; nested literals name their components in turn.
  EXPECT_EQ(Names(Prepare("INSERT INTO ks.t (id, tup) VALUES (:id, (:first, ?, true))")),
            (std::vector<std::string>{"id", "first", "tup[1]"}));
  EXPECT_EQ(Names(Prepare("INSERT INTO ks.k (k, c, v) VALUES ((?, 1), ?, ?)")),
            (std::vector<std::string>{"k[0]", "c", "v"}));
}

TEST_F(LiteralMarkersTest, TuplesAndUdtsAreBuiltFromTheBoundValues) {
  (void)Execute("INSERT INTO ks.t (id, tup) VALUES (?, (?, ?, ?))",
                {Int(1), Int(7), Bytes("seven"), types::EncodeBoolean(true)});
  EXPECT_EQ(Cell("tup", 1), Tuple({Int(7), Bytes("seven"), types::EncodeBoolean(true)}));

  // A null component is a null in the tuple.
  (void)Execute("UPDATE ks.t SET tup = (?, ?, false) WHERE id = ?", {Int(2), std::nullopt, Int(1)});
  EXPECT_EQ(Cell("tup", 1), Tuple({Int(2), std::nullopt, types::EncodeBoolean(false)}));

  // UDT fields in the type's order, those not written null.
  (void)Execute("INSERT INTO ks.t (id, p) VALUES (?, {b: ?})", {Int(2), Bytes("one")});
  EXPECT_EQ(Cell("p", 2), Tuple({std::nullopt, Bytes("one")}));
  (void)Execute("UPDATE ks.t SET p = {a: ?, b: ?} WHERE id = ?", {Int(5), Bytes("x"), Int(2)});
  EXPECT_EQ(Cell("p", 2), Tuple({Int(5), Bytes("x")}));
  (void)Execute("UPDATE ks.t SET np = {a: ?, b: ?} WHERE id = ?", {Int(6), Bytes("y"), Int(2)});
  EXPECT_EQ(Cell("np", 2), Tuple({Int(6), Bytes("y")}));

  // Calls inside literals are evaluated when the request binds.
  (void)Execute("INSERT INTO ks.t (id, tup) VALUES (3, ((int)? + 1, 'a', true))", {Int(41)});
  EXPECT_EQ(Cell("tup", 3), Tuple({Int(42), Bytes("a"), types::EncodeBoolean(true)}));
  (void)Run("INSERT INTO ks.t (id, l, s) VALUES (4, [1 + 1, 3], {2 * 3 - 1, 1})");
  EXPECT_EQ(Cell("l", 4), types::EncodeList({Int(2), Int(3)}));
  EXPECT_EQ(Cell("s", 4), types::EncodeList({Int(1), Int(5)}));
}

TEST_F(LiteralMarkersTest, MarkersInsideLiteralsOfABatch) {
  const char* batch =
      "BEGIN BATCH INSERT INTO ks.t (id, tup) VALUES (?, (?, 'x', ?)); "
      "UPDATE ks.t SET p = {a: ?} WHERE id = ?; APPLY BATCH";
  EXPECT_EQ(Names(Prepare(batch)),
            (std::vector<std::string>{"id", "tup[0]", "tup[2]", "p.a", "id"}));
  (void)Execute(batch, {Int(7), Int(1), types::EncodeBoolean(false), Int(2), Int(7)});
  EXPECT_EQ(Cell("tup", 7), Tuple({Int(1), Bytes("x"), types::EncodeBoolean(false)}));
  EXPECT_EQ(Cell("p", 7), Tuple({Int(2), std::nullopt}));
}

TEST_F(LiteralMarkersTest, MarkersInWhereClausesAndConditions) {
  (void)Run("INSERT INTO ks.k (k, c, v) VALUES ((1, 2), 1, 10)");
  (void)Run("INSERT INTO ks.k (k, c, v) VALUES ((3, 4), 1, 30)");
  const protocol::PreparedResult eq = Prepare("SELECT v FROM ks.k WHERE k = (?, ?)");
  EXPECT_EQ(Names(eq), (std::vector<std::string>{"k[0]", "k[1]"}));
  RowsResult rows =
      std::get<RowsResult>(Execute("SELECT v FROM ks.k WHERE k = (?, ?)", {Int(3), Int(4)}));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0].at(0), Int(30));
  rows = std::get<RowsResult>(
      Execute("SELECT v FROM ks.k WHERE k IN ((?, ?), (3, 4))", {Int(1), Int(2)}));
  EXPECT_EQ(rows.rows.size(), 2u);

  (void)Run("INSERT INTO ks.t (id, tup) VALUES (1, (1, 'a', true))");
  Result applied = Execute("UPDATE ks.t SET l = [1] WHERE id = 1 IF tup = (?, ?, ?)",
                           {Int(1), Bytes("a"), types::EncodeBoolean(true)});
  rows = std::get<RowsResult>(std::move(applied));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0].at(0), types::EncodeBoolean(true));
  EXPECT_EQ(Cell("l", 1), types::EncodeList({Int(1)}));
}

TEST_F(LiteralMarkersTest, ListsSetsAndMapsRefuseMarkersAsCassandraDoes) {
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, l) VALUES (?, [?, ?])"),
            "Invalid list literal for l: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(PrepareError("UPDATE ks.t SET l = l + [1, ?] WHERE id = 1"),
            "Invalid list literal for l: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, s) VALUES (1, {?})"),
            "Invalid set literal for s: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, m) VALUES (1, {?: 1})"),
            "Invalid map literal for m: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, m) VALUES (1, {'k': ?})"),
            "Invalid map literal for m: bind variables are not supported inside collection "
            "literals");
  // A tuple holding a marker inside a list, a list inside a tuple.
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, lt) VALUES (1, [(1, ?)])"),
            "Invalid list literal for lt: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, nested) VALUES (1, (1, [?]))"),
            "Invalid list literal for nested[1]: bind variables are not supported inside "
            "collection literals");
  EXPECT_EQ(PrepareError("SELECT * FROM ks.t WHERE lt CONTAINS (1, ?) ALLOW FILTERING"),
            "no error");
  // The assignment test comes first, then the elements in order.
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, l) VALUES (1, [?, 'a'])"),
            "Invalid list literal for l: value 'a' is not of type int");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, l) VALUES (1, [99999999999, ?])"),
            "Unable to make int from '99999999999'");
}

TEST_F(LiteralMarkersTest, TupleAndUdtLiteralsAreCheckedWhenPrepared) {
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, tup) VALUES (1, (?, ?, ?, ?))"),
            "Invalid tuple literal for tup: too many elements. Type frozen<tuple<int, text, "
            "boolean>> expects 3 but got 4");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, tup) VALUES (1, ('a', ?))"),
            "Invalid tuple literal for tup: component 0 is not of type int");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, l) VALUES (1, (?, ?))"),
            "Invalid tuple type literal for l of type list<int>");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, p) VALUES (1, {a: ?, c: ?})"),
            "Unknown field 'c' in value of user defined type pair");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, p) VALUES (1, {a: 'x', b: ?})"),
            "Invalid user type literal for p: field a is not of type int");
  EXPECT_EQ(PrepareError("INSERT INTO ks.t (id, tup) VALUES (1, (99999999999, ?))"),
            "Unable to make int from '99999999999'");
}

TEST_F(LiteralMarkersTest, UnsetElementsAreRefusedAsCassandraRefusesThem) {
  EXPECT_EQ(ExecuteError("INSERT INTO ks.t (id, tup) VALUES (?, (?, ?, ?))",
                         {Int(1), Int(1), std::nullopt, std::nullopt}, {false, false, true, false}),
            "Invalid unset value for tuple field number 1");
  // The first unset fails the request before later values are looked at.
  EXPECT_EQ(
      ExecuteError("INSERT INTO ks.t (id, tup) VALUES (?, (?, ?, ?))",
                   {Int(1), std::nullopt, Bytes("x"), Bytes("bad")}, {false, true, false, false}),
      "Invalid unset value for tuple field number 0");
  EXPECT_EQ(ExecuteError("INSERT INTO ks.t (id, p) VALUES (?, {a: ?, b: ?})",
                         {Int(1), Int(1), std::nullopt}, {false, false, true}),
            "Invalid unset value for field 'b' of user defined type pair");
  // A bound value must fit its component's type.
  EXPECT_EQ(
      ExecuteError("INSERT INTO ks.t (id, tup) VALUES (?, (?, 'x', true))", {Int(1), Bytes("abc")}),
      "Expected 4 or 0 byte int (3)");
  // A non-frozen UDT takes the unset field as the empty value (UserTypes.Setter).
  (void)Execute("INSERT INTO ks.t (id, np) VALUES (?, {a: ?, b: ?})",
                {Int(9), Int(1), std::nullopt}, {false, false, true});
  EXPECT_EQ(Cell("np", 9), Tuple({Int(1), Bytes()}));
}

TEST_F(LiteralMarkersTest, NullsInsideCollectionsAreRefusedWhenBound) {
  // A call's null result inside a list is found when the request binds.
  EXPECT_EQ(ExecuteError("INSERT INTO ks.t (id, l) VALUES (1, [1, blobAsInt(null)])", {}),
            "null is not supported inside collections");
  EXPECT_EQ(ExecuteError("INSERT INTO ks.t (id, m) VALUES (1, {'a': blobAsInt(null)})", {}),
            "null is not supported inside collections");
  EXPECT_EQ(ExecuteError("INSERT INTO ks.t (id, l) VALUES (1, [1, blobAsInt(0x00000002)])", {}),
            "no error");
  EXPECT_EQ(Cell("l", 1), types::EncodeList({Int(1), Int(2)}));
}

}  // namespace
}  // namespace sibyl::query
