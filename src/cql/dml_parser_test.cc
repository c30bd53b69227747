// INSERT, UPDATE, DELETE, BATCH and TRUNCATE parse into their typed
// statements; the checks Cassandra makes while parsing them fail as there.

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "cql/parser.h"
#include "cql/parser_test_util.h"

namespace sibyl::cql {
namespace {

using TK = Term::Kind;
using OpKind = UpdateOperation::Kind;

using testing::ErrorOf;
using testing::Parse;

TEST(DmlParserTest, Insert) {
  auto insert = Parse<InsertStatement>(
      "INSERT INTO ks.\"Users\" (id, \"Name\", tags) VALUES (1, 'bob', {'a', 'b'}) "
      "IF NOT EXISTS USING TTL 86400 AND TIMESTAMP 123");
  EXPECT_EQ(insert.table.keyspace, "ks");
  EXPECT_EQ(insert.table.name, "Users");
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"id", "Name", "tags"}));
  ASSERT_EQ(insert.values.size(), 3u);
  EXPECT_EQ(insert.values[0].kind, TK::kInteger);
  EXPECT_EQ(insert.values[1].text, "bob");
  EXPECT_EQ(insert.values[2].kind, TK::kSet);
  EXPECT_TRUE(insert.if_not_exists);
  ASSERT_TRUE(insert.attributes.ttl);
  EXPECT_EQ(insert.attributes.ttl->text, "86400");
  EXPECT_EQ(insert.attributes.timestamp->text, "123");
  EXPECT_FALSE(insert.json);

  // The counts may differ: Cassandra reports that when preparing.
  auto unmatched = Parse<InsertStatement>("INSERT INTO t (a, b) VALUES (1)");
  EXPECT_EQ(unmatched.values.size(), 1u);
  // The last USING objective of a kind wins.
  auto twice = Parse<InsertStatement>("INSERT INTO t (a) VALUES (1) USING TTL 1 AND TTL 2");
  EXPECT_EQ(twice.attributes.ttl->text, "2");
}

TEST(DmlParserTest, InsertJson) {
  auto json = Parse<InsertStatement>(
      "INSERT INTO t JSON '{\"id\": 1}' DEFAULT UNSET IF NOT EXISTS USING TTL ?");
  EXPECT_TRUE(json.json);
  ASSERT_TRUE(json.json_value);
  EXPECT_EQ(json.json_value->kind, TK::kString);
  EXPECT_EQ(json.json_value->text, "{\"id\": 1}");
  EXPECT_TRUE(json.default_unset);
  EXPECT_TRUE(json.if_not_exists);
  EXPECT_EQ(json.attributes.ttl->kind, TK::kBindMarker);

  auto marker = Parse<InsertStatement>("INSERT INTO t JSON :doc DEFAULT NULL");
  EXPECT_EQ(marker.json_value->kind, TK::kBindMarker);
  EXPECT_EQ(marker.json_value->bind_name, "doc");
  EXPECT_FALSE(marker.default_unset);

  EXPECT_EQ(ErrorOf("INSERT INTO t JSON 1"),
            "syntax: line 1:19 no viable alternative at input '1' (INSERT INTO t JSON [1])");
  EXPECT_EQ(
      ErrorOf("INSERT INTO t JSON '{}' DEFAULT 1"),
      "syntax: line 1:32 no viable alternative at input '1' (...INTO t JSON '{}' DEFAULT [1])");
}

TEST(DmlParserTest, UpdateOperations) {
  auto update = Parse<UpdateStatement>(
      "UPDATE t USING TIMESTAMP 5 SET a = 1, l = [0] + l, l2 = l2 + [1], s = s - {'x'}, "
      "c = c -3, m['k'] = 'v', l3[2] = ?, u.street = 'Main', n += 2, o -= :d, "
      "p = p + ? WHERE k = 1");
  EXPECT_EQ(update.attributes.timestamp->text, "5");
  ASSERT_EQ(update.operations.size(), 11u);
  const auto& ops = update.operations;
  EXPECT_EQ(ops[0].kind, OpKind::kSet);
  EXPECT_EQ(ops[1].kind, OpKind::kPrepend);
  EXPECT_EQ(ops[1].value.kind, TK::kList);
  EXPECT_EQ(ops[2].kind, OpKind::kAdd);
  EXPECT_EQ(ops[3].kind, OpKind::kSubtract);
  EXPECT_EQ(ops[3].value.kind, TK::kSet);
  // c = c -3 lexes as c, c, -3: an addition of -3, as in Cassandra.
  EXPECT_EQ(ops[4].kind, OpKind::kAdd);
  EXPECT_EQ(ops[4].value.text, "-3");
  EXPECT_EQ(ops[5].kind, OpKind::kSetElement);
  EXPECT_EQ(ops[5].element->text, "k");
  EXPECT_EQ(ops[5].value.text, "v");
  EXPECT_EQ(ops[6].kind, OpKind::kSetElement);
  EXPECT_EQ(ops[6].value.kind, TK::kBindMarker);
  EXPECT_EQ(ops[7].kind, OpKind::kSetField);
  EXPECT_EQ(ops[7].field, "street");
  EXPECT_EQ(ops[8].kind, OpKind::kAdd);
  EXPECT_EQ(ops[9].kind, OpKind::kSubtract);
  EXPECT_EQ(ops[9].value.bind_name, "d");
  EXPECT_EQ(ops[10].kind, OpKind::kAdd);
  ASSERT_EQ(update.where.size(), 1u);

  // A function call after '+' stays in the term.
  auto call = Parse<UpdateStatement>("UPDATE t SET a = 1 + f(2) WHERE k = 1");
  EXPECT_EQ(call.operations[0].kind, OpKind::kSet);
  EXPECT_EQ(call.operations[0].value.kind, TK::kArithmetic);
  // Column names keep Cassandra's case rules on both sides.
  auto quoted = Parse<UpdateStatement>("UPDATE t SET \"Tags\" = \"Tags\" + {'a'} WHERE k = 1");
  EXPECT_EQ(quoted.operations[0].column, "Tags");
  EXPECT_EQ(quoted.operations[0].kind, OpKind::kAdd);
}

TEST(DmlParserTest, UpdateOperationChecks) {
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b + 1 WHERE k = 1"),
            "syntax: Only expressions of the form X = X +<value> are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b - 1 WHERE k = 1"),
            "syntax: Only expressions of the form X = X -<value> are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b -1 WHERE k = 1"),
            "syntax: Only expressions of the form X = X - <value> are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = [1] + b WHERE k = 1"),
            "syntax: Only expressions of the form X = <value> + X are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1, a = 2 WHERE k = 1"),
            "syntax: Multiple incompatible setting of column a");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = a + [1], a = [2] WHERE k = 1"),
            "syntax: Multiple incompatible setting of column a");
  EXPECT_EQ(ErrorOf("UPDATE t SET u.f = 1, u.f = 2 WHERE k = 1"),
            "syntax: Multiple incompatible setting of column u");
  // Compatible: several elements, fields or additions of one column.
  EXPECT_EQ(ErrorOf("UPDATE t SET m['a'] = 1, m['b'] = 2, u.f = 1, u.g = 2, l = l + [1], "
                    "l = l - [2] WHERE k = 1"),
            "parsed");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1"),
            "syntax: line 0:-1 mismatched input '<EOF>' expecting K_WHERE");
  EXPECT_EQ(ErrorOf("UPDATE t SET a WHERE k = 1"),
            "syntax: line 1:15 no viable alternative at input 'WHERE' (UPDATE t SET a [WHERE]...)");
}

TEST(DmlParserTest, Conditions) {
  auto update = Parse<UpdateStatement>(
      "UPDATE t SET a = 1 WHERE k = 1 IF a = 2 AND b != null AND c IN (1, 2) AND d IN ? "
      "AND m['x'] > 3 AND l[0] IN (4) AND u.f <= 'z'");
  ASSERT_EQ(update.conditions.size(), 7u);
  const auto& c = update.conditions;
  EXPECT_EQ(c[0].lhs, Condition::Lhs::kColumn);
  EXPECT_EQ(c[0].op, Relation::Op::kEq);
  EXPECT_EQ(c[1].op, Relation::Op::kNeq);
  EXPECT_EQ(c[1].values[0].kind, TK::kNull);
  EXPECT_EQ(c[2].op, Relation::Op::kIn);
  EXPECT_EQ(c[2].values.size(), 2u);
  EXPECT_TRUE(c[3].in_marker);
  EXPECT_EQ(c[4].lhs, Condition::Lhs::kElement);
  EXPECT_EQ(c[4].element->text, "x");
  EXPECT_EQ(c[4].op, Relation::Op::kGt);
  EXPECT_EQ(c[5].op, Relation::Op::kIn);
  EXPECT_EQ(c[6].lhs, Condition::Lhs::kField);
  EXPECT_EQ(c[6].field, "f");
  EXPECT_FALSE(update.if_exists);

  EXPECT_TRUE(Parse<UpdateStatement>("UPDATE t SET a = 1 WHERE k = 1 IF EXISTS").if_exists);
  // `exists` is also a column name.
  auto column = Parse<UpdateStatement>("UPDATE t SET a = 1 WHERE k = 1 IF exists = true");
  EXPECT_FALSE(column.if_exists);
  ASSERT_EQ(column.conditions.size(), 1u);
  EXPECT_EQ(column.conditions[0].column, "exists");
  // CONTAINS in conditions is Cassandra 5.0's; 4.1 refuses it.
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1 WHERE k = 1 IF s CONTAINS 1").substr(0, 7), "syntax:");
}

TEST(DmlParserTest, Delete) {
  auto whole = Parse<DeleteStatement>("DELETE FROM ks.t USING TIMESTAMP ? WHERE k = 1 IF EXISTS");
  EXPECT_TRUE(whole.deletions.empty());
  EXPECT_EQ(whole.table.keyspace, "ks");
  EXPECT_EQ(whole.attributes.timestamp->kind, TK::kBindMarker);
  EXPECT_TRUE(whole.if_exists);

  auto parts = Parse<DeleteStatement>(
      "DELETE a, m['k'], l[?], u.street FROM t WHERE k IN (1, 2) AND c > 3 IF a = 1");
  ASSERT_EQ(parts.deletions.size(), 4u);
  EXPECT_EQ(parts.deletions[0].kind, Deletion::Kind::kColumn);
  EXPECT_EQ(parts.deletions[1].kind, Deletion::Kind::kElement);
  EXPECT_EQ(parts.deletions[1].element->text, "k");
  EXPECT_EQ(parts.deletions[2].element->kind, TK::kBindMarker);
  EXPECT_EQ(parts.deletions[3].kind, Deletion::Kind::kField);
  EXPECT_EQ(parts.deletions[3].field, "street");
  EXPECT_EQ(parts.where.size(), 2u);
  EXPECT_EQ(parts.conditions.size(), 1u);

  // DELETE takes only a timestamp.
  EXPECT_EQ(ErrorOf("DELETE FROM t USING TTL 1 WHERE k = 1"),
            "syntax: line 1:20 mismatched input 'TTL' expecting K_TIMESTAMP "
            "(DELETE FROM t USING [TTL]...)");
  EXPECT_EQ(ErrorOf("DELETE FROM t"),
            "syntax: line 0:-1 mismatched input '<EOF>' expecting K_WHERE");
}

TEST(DmlParserTest, Batch) {
  auto batch = Parse<BatchStatement>(
      "BEGIN UNLOGGED BATCH USING TIMESTAMP 42 "
      "INSERT INTO t (k, v) VALUES (?, ?) "
      "UPDATE t SET v = ? WHERE k = ?; "
      "DELETE FROM t WHERE k = :k; "
      "APPLY BATCH");
  EXPECT_EQ(batch.type, BatchStatement::Type::kUnlogged);
  EXPECT_EQ(batch.attributes.timestamp->text, "42");
  ASSERT_EQ(batch.statements.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<InsertStatement>(batch.statements[0]));
  EXPECT_TRUE(std::holds_alternative<UpdateStatement>(batch.statements[1]));
  const auto& del = std::get<DeleteStatement>(batch.statements[2]);
  EXPECT_EQ(del.where[0].terms[0].bind_index, 4);

  EXPECT_EQ(Parse<BatchStatement>("BEGIN COUNTER BATCH UPDATE t SET c = c + 1 WHERE k = 1; "
                                  "APPLY BATCH")
                .type,
            BatchStatement::Type::kCounter);
  EXPECT_TRUE(Parse<BatchStatement>("BEGIN BATCH APPLY BATCH").statements.empty());
  EXPECT_EQ(ErrorOf("BEGIN BATCH SELECT * FROM t; APPLY BATCH"),
            "syntax: line 1:12 mismatched input 'SELECT' expecting K_APPLY "
            "(BEGIN BATCH [SELECT]...)");
  EXPECT_EQ(ErrorOf("BEGIN BATCH INSERT INTO t (k) VALUES (1)"),
            "syntax: line 0:-1 mismatched input '<EOF>' expecting K_APPLY");
}

TEST(DmlParserTest, Truncate) {
  EXPECT_EQ(Parse<TruncateStatement>("TRUNCATE ks.t").table.keyspace, "ks");
  EXPECT_EQ(Parse<TruncateStatement>("TRUNCATE TABLE \"T\"").table.name, "T");
  EXPECT_EQ(Parse<TruncateStatement>("truncate columnfamily t").table.name, "t");
}

TEST(DmlParserTest, BindMarkers) {
  ParsedStatement insert = ParseStatement(
      "INSERT INTO t (a, b, c) VALUES (?, :b, [?, ?]) USING TTL ? AND TIMESTAMP :ts");
  EXPECT_EQ(insert.bind_marker_names, (std::vector<std::string>{"", "b", "", "", "", "ts"}));
  const auto& statement = std::get<InsertStatement>(insert.statement);
  EXPECT_EQ(statement.values[2].elements[1].bind_index, 3);
  EXPECT_EQ(statement.attributes.ttl->bind_index, 4);

  ParsedStatement update = ParseStatement(
      "UPDATE t USING TTL ? SET m[?] = ?, l = l + ? WHERE k = ? IF v IN ? AND m[?] = ?");
  EXPECT_EQ(update.bind_marker_count, 8);
  EXPECT_EQ(ParseStatement("SELECT * FROM t WHERE k = ? LIMIT ?").bind_marker_count, 2);
  EXPECT_EQ(ParseStatement("SELECT * FROM t PER PARTITION LIMIT :p LIMIT :l").bind_marker_names,
            (std::vector<std::string>{"p", "l"}));
  // USING values are integers or markers, nothing else.
  EXPECT_EQ(
      ErrorOf("INSERT INTO t (a) VALUES (1) USING TTL 'x'"),
      "syntax: line 1:39 no viable alternative at input 'x' (...VALUES (1) USING TTL [']...)");
}

}  // namespace
}  // namespace sibyl::cql
