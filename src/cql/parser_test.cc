#include "cql/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"

namespace sibyl::cql {
namespace {

using SK = Selector::Kind;
using TK = Term::Kind;
using Op = Relation::Op;
using Lhs = Relation::Lhs;

SelectStatement Select(std::string_view query) {
  ParsedStatement parsed = ParseStatement(query);
  const auto* select = std::get_if<SelectStatement>(&parsed.statement);
  EXPECT_NE(select, nullptr) << query;
  return select ? *select : SelectStatement{};
}

// The SyntaxException message for `query`, or "parsed" when it parses.
std::string ParseErrorOf(std::string_view query) {
  try {
    static_cast<void>(ParseStatement(query));
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kSyntaxError);
    return e.what();
  }
  return "parsed";
}

std::string KindOf(std::string_view query) {
  return std::string(StatementKindName(ParseStatement(query).statement));
}

TEST(ParserTest, DriverSystemQueries) {
  SelectStatement local = Select("SELECT * FROM system.local WHERE key='local'");
  EXPECT_TRUE(local.select_star);
  EXPECT_EQ(local.table.keyspace, "system");
  EXPECT_EQ(local.table.name, "local");
  ASSERT_EQ(local.where.size(), 1u);
  EXPECT_EQ(local.where[0].columns, std::vector<std::string>{"key"});
  EXPECT_EQ(local.where[0].op, Op::kEq);
  EXPECT_EQ(local.where[0].terms[0].kind, TK::kString);
  EXPECT_EQ(local.where[0].terms[0].text, "local");

  SelectStatement peers = Select("SELECT peer, rpc_address, schema_version FROM system.peers");
  ASSERT_EQ(peers.selectors.size(), 3u);
  EXPECT_EQ(peers.selectors[2].kind, SK::kColumn);
  EXPECT_EQ(peers.selectors[2].name, "schema_version");

  SelectStatement tables =
      Select("SELECT * FROM system_schema.tables WHERE keyspace_name = 'ks' AND table_name = 't'");
  ASSERT_EQ(tables.where.size(), 2u);
  EXPECT_EQ(tables.where[1].columns[0], "table_name");

  SelectStatement functions = Select(
      "SELECT * FROM system_schema.functions WHERE keyspace_name = 'ks' AND function_name = 'f' "
      "AND argument_types = ['int']");
  ASSERT_EQ(functions.where.size(), 3u);
  const Term& list = functions.where[2].terms[0];
  EXPECT_EQ(list.kind, TK::kList);
  ASSERT_EQ(list.elements.size(), 1u);
  EXPECT_EQ(list.elements[0].text, "int");

  SelectStatement version = Select("select release_version from system.local");
  EXPECT_EQ(version.selectors[0].name, "release_version");
  EXPECT_TRUE(version.where.empty());

  for (const char* query :
       {"SELECT * FROM system.peers_v2", "SELECT schema_version FROM system.local",
        "SELECT * FROM system_schema.keyspaces", "SELECT * FROM system_virtual_schema.tables",
        "SELECT * FROM system_schema.columns WHERE keyspace_name = 'ks' AND table_name = 't'",
        "SELECT * FROM system_schema.views WHERE keyspace_name = 'ks' AND view_name = 'v'",
        "SELECT * FROM system_schema.aggregates WHERE keyspace_name = 'ks' AND aggregate_name = "
        "'a' AND argument_types = ['int', 'frozen<list<text>>']",
        "SELECT * FROM system_schema.types WHERE keyspace_name = 'ks' AND type_name = 'u'"}) {
    EXPECT_EQ(ParseErrorOf(query), "parsed") << query;
  }
}

TEST(ParserTest, IdentifierCaseRules) {
  SelectStatement select =
      Select("SELECT MyCol, \"MyCol\", \"with \"\"quote\"\"\" FROM \"MyKs\".MyTable");
  EXPECT_EQ(select.selectors[0].name, "mycol");
  EXPECT_EQ(select.selectors[1].name, "MyCol");
  EXPECT_EQ(select.selectors[2].name, "with \"quote\"");
  EXPECT_EQ(select.table.keyspace, "MyKs");
  EXPECT_EQ(select.table.name, "mytable");
  // Unreserved keywords are names (lower-cased); reserved ones need quotes.
  SelectStatement keywords = Select("SELECT KEY, Ttl, \"SELECT\" FROM Values WHERE TYPE = 1");
  EXPECT_EQ(keywords.selectors[0].name, "key");
  EXPECT_EQ(keywords.selectors[1].name, "ttl");
  EXPECT_EQ(keywords.selectors[2].name, "SELECT");
  EXPECT_EQ(keywords.table.name, "values");
  EXPECT_EQ(keywords.where[0].columns[0], "type");
  EXPECT_EQ(ParseErrorOf("SELECT select FROM t"),
            "line 1:7 no viable alternative at input 'select' (SELECT [select]...)");
  EXPECT_EQ(ParseErrorOf("SELECT a FROM table"),
            "line 1:14 no viable alternative at input 'table' (SELECT a FROM [table])");
}

TEST(ParserTest, SelectClauses) {
  SelectStatement select = Select(
      "SELECT DISTINCT a, b AS bee FROM t WHERE a = 1 GROUP BY a, b ORDER BY b DESC, c ASC "
      "PER PARTITION LIMIT 2 LIMIT 10 ALLOW FILTERING;");
  EXPECT_TRUE(select.distinct);
  EXPECT_FALSE(select.json);
  ASSERT_EQ(select.selectors.size(), 2u);
  EXPECT_EQ(select.selectors[1].alias, "bee");
  EXPECT_EQ(select.group_by, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(select.order_by.size(), 2u);
  EXPECT_TRUE(select.order_by[0].descending);
  EXPECT_FALSE(select.order_by[1].descending);
  EXPECT_EQ(select.per_partition_limit->text, "2");
  EXPECT_EQ(select.limit->text, "10");
  EXPECT_TRUE(select.allow_filtering);

  SelectStatement json = Select("SELECT JSON * FROM t");
  EXPECT_TRUE(json.json);
  EXPECT_TRUE(json.select_star);
  // json and distinct are column names when no select clause follows them.
  SelectStatement json_column = Select("SELECT json FROM t");
  EXPECT_FALSE(json_column.json);
  EXPECT_EQ(json_column.selectors[0].name, "json");
  SelectStatement distinct_column = Select("SELECT distinct, json FROM t");
  EXPECT_FALSE(distinct_column.distinct);
  EXPECT_EQ(distinct_column.selectors[0].name, "distinct");
  SelectStatement json_distinct = Select("SELECT JSON DISTINCT a FROM t");
  EXPECT_TRUE(json_distinct.json);
  EXPECT_TRUE(json_distinct.distinct);

  SelectStatement semicolons = Select("SELECT * FROM t;;;");
  EXPECT_EQ(semicolons.table.name, "t");
}

TEST(ParserTest, SelectorForms) {
  SelectStatement select = Select(
      "SELECT count(*), COUNT(1), count(a), writetime(a), TTL(b), maxwritetime(c), "
      "token(k1, k2), CAST(a AS text), a.b.c, m['k'], s[1..3], s[..'z'], s['a'..], "
      "ks.fn(a, 2), now(), 'lit', 42, -a, a + b * c, (int) ?, :named, [a, 1], {a: 1}, "
      "{1, 2}, {}, (a, b), (a), NULL, \"Fn\"(x) FROM t");
  const auto& s = select.selectors;
  ASSERT_EQ(s.size(), 29u);
  EXPECT_EQ(s[0].kind, SK::kCountStar);
  EXPECT_EQ(s[1].kind, SK::kCountStar);
  EXPECT_EQ(s[1].terms[0].text, "1");
  EXPECT_EQ(s[2].kind, SK::kFunction);
  EXPECT_EQ(s[2].name, "count");
  EXPECT_EQ(s[3].kind, SK::kFunction);
  EXPECT_EQ(s[3].name, "writetime");
  EXPECT_EQ(s[3].args[0].name, "a");
  EXPECT_EQ(s[4].name, "ttl");
  EXPECT_EQ(s[5].name, "maxwritetime");
  EXPECT_EQ(s[6].name, "token");
  EXPECT_EQ(s[6].args.size(), 2u);
  EXPECT_EQ(s[7].kind, SK::kCast);
  EXPECT_EQ(s[7].text, "text");
  EXPECT_EQ(s[8].kind, SK::kFieldAccess);
  EXPECT_EQ(s[8].name, "c");
  EXPECT_EQ(s[8].args[0].kind, SK::kFieldAccess);
  EXPECT_EQ(s[8].args[0].name, "b");
  EXPECT_EQ(s[8].args[0].args[0].name, "a");
  EXPECT_EQ(s[9].kind, SK::kElement);
  EXPECT_EQ(s[9].terms[0].text, "k");
  EXPECT_EQ(s[10].kind, SK::kSlice);
  EXPECT_EQ(s[10].slice_from->text, "1");
  EXPECT_EQ(s[10].slice_to->text, "3");
  EXPECT_FALSE(s[11].slice_from);
  EXPECT_EQ(s[11].slice_to->text, "z");
  EXPECT_FALSE(s[12].slice_to);
  EXPECT_EQ(s[13].kind, SK::kFunction);
  EXPECT_EQ(s[13].keyspace, "ks");
  EXPECT_EQ(s[13].name, "fn");
  EXPECT_EQ(s[14].name, "now");
  EXPECT_TRUE(s[14].args.empty());
  EXPECT_EQ(s[15].kind, SK::kTerm);
  EXPECT_EQ(s[15].terms[0].kind, TK::kString);
  EXPECT_EQ(s[16].terms[0].kind, TK::kInteger);
  EXPECT_EQ(s[17].kind, SK::kNegation);
  EXPECT_EQ(s[18].kind, SK::kArithmetic);
  EXPECT_EQ(s[18].text, "+");
  EXPECT_EQ(s[18].args[1].text, "*");
  EXPECT_EQ(s[19].kind, SK::kTypeHint);
  EXPECT_EQ(s[19].text, "int");
  EXPECT_EQ(s[19].args[0].terms[0].kind, TK::kBindMarker);
  EXPECT_EQ(s[20].terms[0].bind_name, "named");
  EXPECT_EQ(s[21].kind, SK::kList);
  EXPECT_EQ(s[22].kind, SK::kMapOrUdt);
  EXPECT_EQ(s[23].kind, SK::kSet);
  EXPECT_EQ(s[24].kind, SK::kSet);
  EXPECT_TRUE(s[24].args.empty());
  EXPECT_EQ(s[25].kind, SK::kTuple);
  EXPECT_EQ(s[26].kind, SK::kColumn);  // (a) is just a
  EXPECT_EQ(s[27].terms[0].kind, TK::kNull);
  EXPECT_EQ(s[28].name, "Fn");
}

TEST(ParserTest, Relations) {
  SelectStatement select = Select(
      "SELECT * FROM t WHERE a = 1 AND b != 2 AND c < 3 AND d <= 4 AND e > 5 AND f >= 6 "
      "AND g IN (1, 2) AND h IN ? AND i CONTAINS 'x' AND j CONTAINS KEY 'y' AND k LIKE 'z%' "
      "AND l IS NOT NULL AND (m, n) > (1, 2) AND (m, n) IN ((1, 2), (3, 4)) AND (m, n) IN ? "
      "AND (m, n) IN (?, :p) AND (m, n) < ? AND token(a, b) > ? AND o['k'] = 'v' "
      "AND ((p = 1)) AND q IN () AND (m, n) IN () AND expr(my_index, 'query')");
  const auto& w = select.where;
  ASSERT_EQ(w.size(), 23u);
  Op ops[] = {Op::kEq, Op::kNeq, Op::kLt, Op::kLte, Op::kGt, Op::kGte};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(w[i].op, ops[i]);
  EXPECT_EQ(w[6].op, Op::kIn);
  EXPECT_EQ(w[6].terms.size(), 2u);
  EXPECT_FALSE(w[6].in_marker);
  EXPECT_EQ(w[7].op, Op::kIn);
  EXPECT_TRUE(w[7].in_marker);
  EXPECT_EQ(w[8].op, Op::kContains);
  EXPECT_EQ(w[9].op, Op::kContainsKey);
  EXPECT_EQ(w[10].op, Op::kLike);
  EXPECT_EQ(w[11].op, Op::kIsNotNull);
  EXPECT_TRUE(w[11].terms.empty());
  EXPECT_EQ(w[12].lhs, Lhs::kColumnTuple);
  EXPECT_EQ(w[12].columns, (std::vector<std::string>{"m", "n"}));
  EXPECT_EQ(w[12].terms[0].kind, TK::kTuple);
  EXPECT_EQ(w[13].terms.size(), 2u);
  EXPECT_EQ(w[13].terms[1].elements[1].text, "4");
  EXPECT_TRUE(w[14].in_marker);
  EXPECT_EQ(w[15].terms.size(), 2u);
  EXPECT_EQ(w[15].terms[1].bind_name, "p");
  EXPECT_EQ(w[16].terms[0].kind, TK::kBindMarker);
  EXPECT_EQ(w[17].lhs, Lhs::kToken);
  EXPECT_EQ(w[17].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(w[18].lhs, Lhs::kMapElement);
  EXPECT_EQ(w[18].map_key->text, "k");
  EXPECT_EQ(w[19].columns[0], "p");
  EXPECT_TRUE(w[20].terms.empty());
  EXPECT_TRUE(w[21].terms.empty());
  EXPECT_EQ(w[22].lhs, Lhs::kCustomIndexExpression);
  EXPECT_EQ(w[22].columns[0], "my_index");
}

TEST(ParserTest, Terms) {
  SelectStatement select = Select(
      "SELECT * FROM t WHERE a = 'x' AND a = $$y$$ AND a = -12 AND a = 1.5e3 AND a = NaN "
      "AND a = -Infinity AND a = TRUE AND a = 550e8400-e29b-41d4-a716-446655440000 "
      "AND a = 0xCAFE AND a = 1h30m AND a = NULL AND a = [1, 2] AND a = {1, 2} "
      "AND a = {'k': 1} AND a = {street: 'x', \"Zip\": 1} AND a = (1, 'b') AND a = now() "
      "AND a = system.uuid() AND a = (int) ? AND a = (frozen<map<text, ks.\"Addr\">>) :v "
      "AND a = 1 + 2 * 3 AND a = - 5 AND a = CAST(b() AS bigint) AND a = {}");
  const auto& w = select.where;
  ASSERT_EQ(w.size(), 24u);
  auto term = [&](size_t i) -> const Term& { return w[i].terms[0]; };
  EXPECT_EQ(term(0).kind, TK::kString);
  EXPECT_EQ(term(1).text, "y");
  EXPECT_EQ(term(2).kind, TK::kInteger);
  EXPECT_EQ(term(2).text, "-12");
  EXPECT_EQ(term(3).kind, TK::kFloat);
  EXPECT_EQ(term(4).text, "NaN");
  EXPECT_EQ(term(5).text, "-Infinity");
  EXPECT_EQ(term(6).kind, TK::kBoolean);
  EXPECT_EQ(term(6).text, "true");
  EXPECT_EQ(term(7).kind, TK::kUuid);
  EXPECT_EQ(term(8).kind, TK::kBlob);
  EXPECT_EQ(term(8).text, "0xCAFE");
  EXPECT_EQ(term(9).kind, TK::kDuration);
  EXPECT_EQ(term(10).kind, TK::kNull);
  EXPECT_EQ(term(11).kind, TK::kList);
  EXPECT_EQ(term(12).kind, TK::kSet);
  EXPECT_EQ(term(13).kind, TK::kMap);
  EXPECT_EQ(term(13).elements.size(), 2u);
  EXPECT_EQ(term(14).kind, TK::kUdt);
  EXPECT_EQ(term(14).field_names, (std::vector<std::string>{"street", "Zip"}));
  EXPECT_EQ(term(15).kind, TK::kTuple);
  EXPECT_EQ(term(16).kind, TK::kFunctionCall);
  EXPECT_EQ(term(16).text, "now");
  EXPECT_EQ(term(17).keyspace, "system");
  EXPECT_EQ(term(18).kind, TK::kTypeHint);
  EXPECT_EQ(term(18).text, "int");
  EXPECT_EQ(term(18).elements[0].kind, TK::kBindMarker);
  EXPECT_EQ(term(19).text, "frozen<map<text, ks.\"Addr\">>");
  EXPECT_EQ(term(20).kind, TK::kArithmetic);
  EXPECT_EQ(term(20).text, "+");
  EXPECT_EQ(term(20).elements[1].text, "*");
  EXPECT_EQ(term(21).kind, TK::kNegation);
  EXPECT_EQ(term(22).kind, TK::kCast);
  EXPECT_EQ(term(22).text, "bigint");
  EXPECT_EQ(term(23).kind, TK::kSet);
  EXPECT_TRUE(term(23).elements.empty());
}

TEST(ParserTest, BindMarkersAreNumberedInOrder) {
  ParsedStatement parsed = ParseStatement(
      "SELECT ?, :Sel FROM t WHERE a = ? AND b IN :list AND c = :\"Quoted\" AND d IN (?, ?) "
      "LIMIT ?");
  EXPECT_EQ(parsed.bind_marker_count, 8);
  EXPECT_EQ(parsed.bind_marker_names,
            (std::vector<std::string>{"", "sel", "", "list", "Quoted", "", "", ""}));
  const auto& select = std::get<SelectStatement>(parsed.statement);
  EXPECT_EQ(select.selectors[0].terms[0].bind_index, 0);
  EXPECT_EQ(select.where[0].terms[0].bind_index, 2);
  EXPECT_EQ(select.where[3].terms[1].bind_index, 6);
  EXPECT_EQ(select.limit->bind_index, 7);
  // Markers inside a JSON/DISTINCT predicate or a type-hint trial are counted once.
  EXPECT_EQ(ParseStatement("SELECT JSON DISTINCT (int) ?, ? FROM t").bind_marker_count, 2);
}

TEST(ParserTest, Use) {
  ParsedStatement parsed = ParseStatement("USE MyKs;");
  EXPECT_EQ(std::get<UseStatement>(parsed.statement).keyspace, "myks");
  EXPECT_EQ(std::get<UseStatement>(ParseStatement("use \"MyKs\"").statement).keyspace, "MyKs");
  EXPECT_EQ(ParseErrorOf("USE ?"), "Bind variables cannot be used for keyspace names");
  EXPECT_EQ(ParseErrorOf("USE ks extra"),
            "line 1:7 mismatched input 'extra' expecting EOF (USE ks [extra])");
}

TEST(ParserTest, StatementKinds) {
  EXPECT_EQ(KindOf("INSERT INTO t (a) VALUES (1)"), "INSERT");
  EXPECT_EQ(KindOf("update t set a = 1 where k = 2"), "UPDATE");
  EXPECT_EQ(KindOf("DELETE FROM t WHERE k = 1"), "DELETE");
  EXPECT_EQ(KindOf("BEGIN UNLOGGED BATCH INSERT INTO t (a) VALUES (1); APPLY BATCH"), "BATCH");
  EXPECT_EQ(KindOf("TRUNCATE TABLE t"), "TRUNCATE");
  EXPECT_EQ(KindOf("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}"),
            "CREATE KEYSPACE");
  EXPECT_EQ(KindOf("CREATE TABLE t (a int PRIMARY KEY)"), "CREATE TABLE");
  EXPECT_EQ(KindOf("CREATE COLUMNFAMILY t (a int PRIMARY KEY)"), "CREATE TABLE");
  EXPECT_EQ(KindOf("CREATE INDEX ON t (a)"), "CREATE INDEX");
  EXPECT_EQ(KindOf("CREATE CUSTOM INDEX i ON t (a) USING 'SAI'"), "CREATE INDEX");
  EXPECT_EQ(KindOf("CREATE TYPE u (a int)"), "CREATE TYPE");
  EXPECT_EQ(KindOf("CREATE OR REPLACE FUNCTION f () RETURNS NULL ON NULL INPUT RETURNS int "
                   "LANGUAGE java AS 'return 1;'"),
            "CREATE FUNCTION");
  EXPECT_EQ(KindOf("CREATE OR REPLACE AGGREGATE a (int) SFUNC f STYPE int"), "CREATE AGGREGATE");
  EXPECT_EQ(KindOf("CREATE TRIGGER tr ON t USING 'x'"), "CREATE TRIGGER");
  EXPECT_EQ(KindOf("CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL "
                   "PRIMARY KEY (a)"),
            "CREATE MATERIALIZED VIEW");
  EXPECT_EQ(KindOf("CREATE ROLE r WITH LOGIN = true"), "CREATE ROLE");
  EXPECT_EQ(KindOf("CREATE USER u WITH PASSWORD 'p'"), "CREATE USER");
  EXPECT_EQ(KindOf("ALTER KEYSPACE ks WITH durable_writes = false"), "ALTER KEYSPACE");
  EXPECT_EQ(KindOf("ALTER TABLE t ADD b int"), "ALTER TABLE");
  EXPECT_EQ(KindOf("ALTER TYPE u ADD b int"), "ALTER TYPE");
  EXPECT_EQ(KindOf("ALTER MATERIALIZED VIEW v WITH comment = 'x'"), "ALTER MATERIALIZED VIEW");
  EXPECT_EQ(KindOf("ALTER ROLE r WITH LOGIN = false"), "ALTER ROLE");
  EXPECT_EQ(KindOf("ALTER USER u NOSUPERUSER"), "ALTER USER");
  for (const char* what : {"KEYSPACE", "TABLE", "INDEX", "TYPE", "FUNCTION", "AGGREGATE", "ROLE",
                           "USER", "MATERIALIZED VIEW"}) {
    EXPECT_EQ(KindOf(std::string("DROP ") + what + " x"), std::string("DROP ") + what);
  }
  EXPECT_EQ(KindOf("DROP TRIGGER x ON t"), "DROP TRIGGER");
  EXPECT_EQ(KindOf("GRANT SELECT ON ALL KEYSPACES TO r"), "GRANT PERMISSION");
  EXPECT_EQ(KindOf("GRANT ALL PERMISSIONS ON KEYSPACE ks TO r"), "GRANT PERMISSION");
  EXPECT_EQ(KindOf("GRANT ALL ON KEYSPACE ks TO r"), "GRANT PERMISSION");
  EXPECT_EQ(KindOf("GRANT all TO r"), "GRANT ROLE");
  EXPECT_EQ(KindOf("GRANT r1 TO r2"), "GRANT ROLE");
  EXPECT_EQ(KindOf("REVOKE MODIFY ON t FROM r"), "REVOKE PERMISSION");
  EXPECT_EQ(KindOf("REVOKE r1 FROM r2"), "REVOKE ROLE");
  EXPECT_EQ(KindOf("LIST ROLES"), "LIST ROLES");
  EXPECT_EQ(KindOf("LIST USERS"), "LIST USERS");
  EXPECT_EQ(KindOf("LIST ALL PERMISSIONS OF r"), "LIST PERMISSIONS");
  EXPECT_EQ(KindOf("LIST SELECT ON t"), "LIST PERMISSIONS");
  EXPECT_EQ(KindOf("DESCRIBE KEYSPACES"), "DESCRIBE");
  EXPECT_EQ(KindOf("USE ks"), "USE");
  EXPECT_EQ(KindOf("SELECT * FROM t"), "SELECT");
  EXPECT_EQ(KindOf("DESC TABLE ks.t"), "DESCRIBE");
}

TEST(ParserTest, BindMarkersInEveryStatement) {
  ParsedStatement insert = ParseStatement(
      "INSERT INTO t (a, b, c, d) VALUES (?, :b, {'k': :v, :k2: 1}, {f: 'x', g: :g}) "
      "USING TTL :ttl");
  EXPECT_EQ(insert.bind_marker_names, (std::vector<std::string>{"", "b", "v", "k2", "g", "ttl"}));
  ParsedStatement batch = ParseStatement(
      "BEGIN BATCH INSERT INTO t (a) VALUES (?); UPDATE t SET a = :a WHERE k = ?; APPLY BATCH");
  EXPECT_EQ(batch.bind_marker_count, 3);
  EXPECT_EQ(ParseStatement("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                           "'replication_factor': 1}")
                .bind_marker_count,
            0);
}

TEST(ParserTest, LexerErrorsAnywhere) {
  EXPECT_EQ(ParseErrorOf("INSERT INTO t (a) VALUES ('unterminated)"),
            "line 1:40 mismatched character '<EOF>' expecting '''");
  EXPECT_EQ(ParseErrorOf("CREATE TABLE t (a int PRIMARY KEY) WITH comment = 'x' @"),
            "line 1:54 no viable alternative at character '@'");
}

TEST(ParserTest, StatementStartErrors) {
  EXPECT_EQ(ParseErrorOf(""), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf("   \n\t"), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf("-- just a comment\n"),
            "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf("/* block */"), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf(";"), "line 1:0 no viable alternative at input ';' ([;])");
  EXPECT_EQ(ParseErrorOf("FOO BAR"), "line 1:0 no viable alternative at input 'FOO' ([FOO]...)");
  EXPECT_EQ(ParseErrorOf("CREATE FOO"),
            "line 1:7 no viable alternative at input 'FOO' ([CREATE] FOO)");
  EXPECT_EQ(ParseErrorOf("drop eomployee_info;"),
            "line 1:5 no viable alternative at input 'eomployee_info' ([drop] eomployee_info...)");
  EXPECT_EQ(ParseErrorOf("CREATE"), "line 0:-1 no viable alternative at input '<EOF>'");
  // SCHEMA lexes as K_SCHEMA, which CREATE does not take (only DESCRIBE does).
  EXPECT_EQ(ParseErrorOf("CREATE SCHEMA ks WITH x = 1"),
            "line 1:7 no viable alternative at input 'SCHEMA' ([CREATE] SCHEMA...)");
  EXPECT_EQ(ParseErrorOf("CREATE OR FOO"),
            "line 1:10 no viable alternative at input 'FOO' ([CREATE] OR...)");
  EXPECT_EQ(ParseErrorOf("INSERT t (a) VALUES (1)"),
            "line 1:7 mismatched input 't' expecting K_INTO (INSERT [t]...)");
  EXPECT_EQ(ParseErrorOf("BEGIN INSERT"),
            "line 1:6 mismatched input 'INSERT' expecting K_BATCH (BEGIN [INSERT])");
  EXPECT_EQ(ParseErrorOf("CREATE MATERIALIZED v"),
            "line 1:20 mismatched input 'v' expecting K_VIEW (CREATE MATERIALIZED [v])");
}

TEST(ParserTest, SelectErrors) {
  // Cassandra 4.1 answers these exactly so.
  EXPECT_EQ(ParseErrorOf("SELECT * FRM t"),
            "line 1:9 mismatched input 'FRM' expecting K_FROM (SELECT * [FRM]...)");
  EXPECT_EQ(ParseErrorOf("SELECT * zeppelin.albums;"),
            "line 1:9 mismatched input 'zeppelin' expecting K_FROM (SELECT * [zeppelin]...)");
  EXPECT_EQ(ParseErrorOf("select*\n;"),
            "line 2:0 mismatched input ';' expecting K_FROM (select*[;])");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t LIMIT 10 OFFSET 10"),
            "line 1:25 mismatched input 'OFFSET' expecting EOF (...* FROM t LIMIT 10 [OFFSET]...)");
  EXPECT_EQ(ParseErrorOf("select a, b from ks.t AND token(a) >= ?"),
            "line 1:22 mismatched input 'AND' expecting EOF (..., b from ks.t [AND]...)");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM"), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf("SELECT FROM t"),
            "line 1:7 no viable alternative at input 'FROM' (SELECT [FROM]...)");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE"),
            "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE a b"),
            "line 1:24 no viable alternative at input 'b' (SELECT * FROM t WHERE [a] b)");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE a IN 1"),
            "line 1:27 no viable alternative at input '1' (SELECT * FROM t WHERE [a] IN...)");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE a = 1 AND"),
            "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t ORDER a"),
            "line 1:22 mismatched input 'a' expecting K_BY (SELECT * FROM t ORDER [a])");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t LIMIT 'x'"),
            "line 1:22 no viable alternative at input 'x' (SELECT * FROM t LIMIT [']...)");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t ALLOW"),
            "line 0:-1 mismatched input '<EOF>' expecting "
            "K_FILTERING");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM ?"), "Bind variables cannot be used for table names");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM ?.t"), "Bind variables cannot be used for keyspace names");
  EXPECT_EQ(ParseErrorOf("SELECT (frozen<int>) ? FROM t"),
            "frozen<> is only allowed on collections, tuples, and user-defined types (got int)");
  EXPECT_EQ(ParseErrorOf("SELECT count(*) FROM t WHERE a = (byte) ?"),
            "Invalid (reserved) user type name byte");
  // The first error wins: a lexer error after the parser's failure point is
  // not reached, one before it is reported first.
  EXPECT_EQ(ParseErrorOf("SELECT * FRM t @"),
            "line 1:9 mismatched input 'FRM' expecting K_FROM (SELECT * [FRM]...)");
  EXPECT_EQ(ParseErrorOf("SELECT * @ FRM t"), "line 1:9 no viable alternative at character '@'");
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE a = 1 -- no newline"),
            "line 1:41 mismatched character '<EOF>' expecting set null");
}

TEST(ParserTest, ErrorSnippetsFollowCassandrasRules) {
  // Hidden tokens count in the ten-token window; lines are joined.
  EXPECT_EQ(ParseErrorOf("SELECT *\nFROM t\nWHERE a = 1\nLIMIT 1 2"),
            "line 4:8 mismatched input '2' expecting EOF (...a = 1LIMIT 1 [2])");
  // String tokens are measured by their unescaped text, as in Cassandra, so
  // the brackets land short of the token's end.
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE a = 'x' 'it''s'"),
            "line 1:30 mismatched input 'it's' expecting EOF (...t WHERE a = 'x' ['it']...)");
  // Columns count UTF-16 units.
  EXPECT_EQ(ParseErrorOf("SELECT * FROM t WHERE a = '\xF0\x9F\x98\x80' b"),
            "line 1:31 mismatched input 'b' expecting EOF (...t WHERE a = '\xF0\x9F\x98\x80' [b])");
}

TEST(ParserTest, DeepNestingIsRefusedNotFatal) {
  std::string deep = "SELECT * FROM t WHERE a = " + std::string(5000, '(') + "1";
  EXPECT_NE(ParseErrorOf(deep).find("nested too deeply"), std::string::npos);
  std::string chain = "SELECT * FROM t WHERE a = 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  EXPECT_NE(ParseErrorOf(chain).find("nested too deeply"), std::string::npos);
  std::string brackets = "SELECT " + std::string(5000, '[') + " FROM t";
  EXPECT_NE(ParseErrorOf(brackets).find("nested too deeply"), std::string::npos);
}

}  // namespace
}  // namespace sibyl::cql
