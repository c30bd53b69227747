// CREATE / ALTER / DROP MATERIALIZED VIEW through the statement layer:
// Cassandra 4.1's errors, in its order, and the views a valid CREATE makes.

#include <gtest/gtest.h>

#include <algorithm>

#include "query/query_test_util.h"

namespace sibyl::query {
namespace {

class ViewDdlTest : public testing::QueryTest {
 protected:
  void SetUp() override {
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    client_.keyspace = "ks";
    Run("CREATE TYPE ut (a int)");
    Run("CREATE TABLE t (k int, c int, v int, w int, l list<int>, fl frozen<list<int>>, "
        "m map<text, text>, d duration, u ut, PRIMARY KEY (k, c))");
    Run("CREATE TABLE st (k int, c int, v int, s int static, PRIMARY KEY (k, c))");
    Run("CREATE TABLE ct (k int PRIMARY KEY, n counter)");
    Run("CREATE TABLE g0 (k int PRIMARY KEY, v int) WITH gc_grace_seconds = 0");
    Run("CREATE TABLE user_accounts (username text PRIMARY KEY, email text, password text, "
        "country text)");
  }

  Result Run(std::string_view query) { return processor_.Process(query, {}, client_); }

  // Runs a CREATE MATERIALIZED VIEW that must create view `name` of ks,
  // then drops it again.
  void ExpectCreated(std::string_view query, std::string_view name = "v") {
    Result result = Run(query);
    ASSERT_TRUE(std::holds_alternative<SchemaChangeResult>(result)) << query;
    EXPECT_NE(FindView(name), nullptr) << query;
    Run("DROP MATERIALIZED VIEW ks." + std::string(name));
    EXPECT_EQ(FindView(name), nullptr) << query;
  }

  schema::TablePtr FindView(std::string_view name) const {
    const schema::KeyspaceMetadata* ks = store_.snapshot()->FindKeyspace("ks");
    auto it = ks->views.find(name);
    return it == ks->views.end() ? nullptr : it->second;
  }

  void ExpectError(std::string_view query, std::string_view message,
                   ErrorCode code = ErrorCode::kInvalid) {
    CqlError e = Error(query);
    EXPECT_EQ(e.code(), code) << query << ": " << e.what();
    EXPECT_EQ(std::string(e.what()), message) << query;
  }

  // The error of `query` run by a processor with `settings`.
  std::string ErrorWith(MaterializedViewSettings settings, std::string_view query) {
    QueryProcessorOptions options;
    options.materialized_views = settings;
    QueryProcessor processor(store_, tables_, node_, options);
    try {
      (void)processor.Process(query, {}, client_);
    } catch (const CqlError& e) {
      return e.what();
    }
    return "<no error>";
  }

  // CREATE MATERIALIZED VIEW v AS SELECT `select` FROM t WHERE `where`
  // PRIMARY KEY (`key`) `rest`.
  static std::string View(std::string_view select, std::string_view where, std::string_view key,
                          std::string_view rest = "", std::string_view base = "t") {
    std::string query = "CREATE MATERIALIZED VIEW v AS SELECT " + std::string(select) + " FROM " +
                        std::string(base);
    if (!where.empty()) query += " WHERE " + std::string(where);
    query += " PRIMARY KEY (" + std::string(key) + ")";
    if (!rest.empty()) query += " " + std::string(rest);
    return query;
  }

  static constexpr const char* kKeysNotNull = "k IS NOT NULL AND c IS NOT NULL";
};

TEST_F(ViewDdlTest, ValidViewsAreCreated) {
  ExpectCreated(View("*", kKeysNotNull, "c, k"));
  ExpectCreated(View("k, c, v", "k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL", "v, k, c"));
  ExpectCreated("CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT * FROM ks.t WHERE " +
                std::string(kKeysNotNull) +
                " PRIMARY KEY (c, k) WITH CLUSTERING ORDER BY "
                "(k DESC) AND comment = 'x'");
  // Filters on base key columns are allowed.
  ExpectCreated(View("*", "k IS NOT NULL AND c > 1", "c, k"));
  ExpectCreated(View("*", "k IN (1, 2) AND c = 1", "c, k"));
}

TEST_F(ViewDdlTest, GuidesViewPassesWithTheLenientDefault) {
  const std::string guides =
      "CREATE MATERIALIZED VIEW users_by_email AS SELECT email, password, country FROM "
      "user_accounts WHERE username IS NOT NULL AND email IS NOT NULL PRIMARY KEY (email, "
      "username)";
  ExpectCreated(guides, "users_by_email");
  EXPECT_EQ(ErrorWith({.enabled = true, .strict_primary_key_selection = true}, guides),
            "Unknown column 'username' referenced in PRIMARY KEY for materialized view "
            "'users_by_email'");
  // Lenient or not, an unknown key column stays unknown.
  ExpectError(View("*", kKeysNotNull, "k, c, x"),
              "Unknown column 'x' referenced in PRIMARY KEY for materialized view 'v'");
}

TEST_F(ViewDdlTest, PrepareChecks) {
  ExpectError(
      "CREATE MATERIALIZED VIEW v AS SELECT * FROM other.t WHERE k IS NOT NULL "
      "PRIMARY KEY (k)",
      "Cannot create a materialized view on a table in a different keyspace");
  // An unqualified base table is looked up in the view's keyspace.
  ExpectError(
      "CREATE MATERIALIZED VIEW other.v AS SELECT * FROM t WHERE k IS NOT NULL "
      "PRIMARY KEY (k)",
      "Base table 't' doesn't exist");
  // Before the keyspace is looked at.
  ExpectError(
      "CREATE MATERIALIZED VIEW nope.v AS SELECT * FROM nope.t WHERE k = ? AND c IS NOT "
      "NULL PRIMARY KEY (k, c)",
      "Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
  client_.keyspace.reset();
  EXPECT_EQ(Error(View("*", kKeysNotNull, "k, c")).code(), ErrorCode::kInvalid);
}

TEST_F(ViewDdlTest, DisabledComesFirst) {
  const MaterializedViewSettings disabled{.enabled = false};
  const std::string message = "Materialized views are disabled. Enable in cassandra.yaml to use.";
  EXPECT_EQ(ErrorWith(disabled, View("*", kKeysNotNull, "c, k")), message);
  EXPECT_EQ(ErrorWith(disabled,
                      "CREATE MATERIALIZED VIEW nope.v AS SELECT * FROM nope.t "
                      "PRIMARY KEY (k)"),
            message);
  // ALTER and DROP are not gated.
  EXPECT_EQ(ErrorWith(disabled, "DROP MATERIALIZED VIEW v"),
            "Materialized view 'ks.v' doesn't exist");
}

TEST_F(ViewDdlTest, KeyspaceAndTables) {
  ExpectError("CREATE MATERIALIZED VIEW nope.v AS SELECT * FROM nope.t PRIMARY KEY (k)",
              "Keyspace 'nope' doesn't exist");
  ExpectError(View("*", kKeysNotNull, "k, c", "", "missing"), "Base table 'missing' doesn't exist");
  ExpectError("CREATE MATERIALIZED VIEW ct AS SELECT * FROM t WHERE " + std::string(kKeysNotNull) +
                  " PRIMARY KEY (k, c)",
              "Cannot create materialized view 'ct' - a table with the same name already exists");
  ExpectError("CREATE MATERIALIZED VIEW IF NOT EXISTS t AS SELECT * FROM t WHERE " +
                  std::string(kKeysNotNull) + " PRIMARY KEY (k, c)",
              "Cannot create materialized view 't' - a table with the same name already exists");
  ExpectError(
      "CREATE MATERIALIZED VIEW system.v AS SELECT * FROM system.local WHERE key IS NOT "
      "NULL PRIMARY KEY (key)",
      "system keyspace is not user-modifiable.", ErrorCode::kUnauthorized);
}

TEST_F(ViewDdlTest, BaseTableKind) {
  ExpectError(View("*", "k IS NOT NULL", "k", "", "ct"),
              "Materialized views are not supported on counter tables");
  ExpectError(View("*", "k IS NOT NULL", "k", "", "g0"),
              "Cannot create materialized view 'v' for base table 'g0' with gc_grace_seconds of "
              "0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds "
              "too low might cause undelivered updates to expire before being replayed.");
  // The base's gc_grace_seconds before the SELECT clause.
  ExpectError(View("k AS x", "k IS NOT NULL", "k", "", "g0"),
              "Cannot create materialized view 'v' for base table 'g0' with gc_grace_seconds of "
              "0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds "
              "too low might cause undelivered updates to expire before being replayed.");
}

TEST_F(ViewDdlTest, SelectClause) {
  ExpectError(View("k AS kk, c", kKeysNotNull, "k, c"),
              "Cannot use aliases when defining a materialized view (got k AS kk)");
  ExpectError(View("m['abc']", kKeysNotNull + std::string(" AND m IS NOT NULL"), "c, k"),
              "Can only select columns by name when defining a materialized view (got m['abc'])");
  ExpectError(View("m['abc'..'def']", kKeysNotNull, "c, k"),
              "Can only select columns by name when defining a materialized view (got "
              "m['abc'..'def'])");
  ExpectError(View("k, ttl(v)", kKeysNotNull, "k, c"),
              "Can only select columns by name when defining a materialized view (got ttl(v))");
  ExpectError(View("k, x", kKeysNotNull, "k, c"), "Undefined column name x in table ks.t");
  // Selectors one by one: the first bad one decides.
  ExpectError(View("x, k AS kk", kKeysNotNull, "k, c"), "Undefined column name x in table ks.t");
  ExpectError(View("k, c, s", kKeysNotNull, "k, c", "", "st"),
              "Cannot include static column 's' in materialized view 'v'");
  ExpectError(View("*", kKeysNotNull, "k, c", "", "st"),
              "Cannot include static column 's' in materialized view 'v'");
  // Statics before the key.
  ExpectError(View("*", kKeysNotNull, "k, c, x", "", "st"),
              "Cannot include static column 's' in materialized view 'v'");
}

TEST_F(ViewDdlTest, PrimaryKeyColumns) {
  ExpectError(View("*", kKeysNotNull, "k, c, k"),
              "Duplicate column 'k' in PRIMARY KEY clause for materialized view 'v'");
  ExpectError(View("*", kKeysNotNull + std::string(" AND l IS NOT NULL"), "l, k, c"),
              "Invalid non-frozen collection type "
              "'org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal."
              "Int32Type)' for PRIMARY KEY column 'l'");
  const std::string udt = Error(View("*", kKeysNotNull, "u, k, c")).what();
  EXPECT_EQ(udt.rfind("Invalid non-frozen user-defined type 'org.apache.cassandra.db.marshal."
                      "UserType(",
                      0),
            0u)
      << udt;
  EXPECT_NE(udt.find("' for PRIMARY KEY column 'u'"), std::string::npos) << udt;
  ExpectError(View("*", kKeysNotNull, "d, k, c"),
              "duration type is not supported for PRIMARY KEY column 'd'");
  // A frozen collection is a valid key column.
  ExpectCreated(View("*", kKeysNotNull + std::string(" AND fl IS NOT NULL"), "fl, k, c"));
  ExpectError(View("*", kKeysNotNull + std::string(" AND v IS NOT NULL"), "k, c, v",
                   "WITH CLUSTERING ORDER BY (v DESC)"),
              "Clustering key columns must exactly match columns in CLUSTERING ORDER BY "
              "directive");
  ExpectError(View("*", kKeysNotNull + std::string(" AND v IS NOT NULL"), "k, c, v",
                   "WITH CLUSTERING ORDER BY (v DESC, c ASC)"),
              "Clustering key columns must exactly match columns in CLUSTERING ORDER BY "
              "directive");
  ExpectError(View("*", kKeysNotNull, "k"),
              "Cannot create materialized view 'v' without primary key columns c from base "
              "table 't'");
  ExpectError(View("*", "v IS NOT NULL", "v"),
              "Cannot create materialized view 'v' without primary key columns k, c from base "
              "table 't'");
  ExpectError(View("*", kKeysNotNull, "(v, w), k, c"),
              "Cannot include more than one non-primary key column in materialized view primary "
              "key (got v, w)");
  // A duplicate is found before the missing base columns.
  ExpectError(View("*", kKeysNotNull, "k, k"),
              "Duplicate column 'k' in PRIMARY KEY clause for materialized view 'v'");
  // Key checks before the WHERE clause.
  ExpectError(View("*", "token(k) > 0", "k"),
              "Cannot create materialized view 'v' without primary key columns c from base "
              "table 't'");
}

TEST_F(ViewDdlTest, WhereClause) {
  ExpectError(View("*", "token(k) > 0 AND c IS NOT NULL", "k, c"),
              "Cannot use token relation when defining a materialized view");
  ExpectError(View("*", "expr(idx, 'x') AND token(k) > 0", "k, c"),
              "Cannot use token relation when defining a materialized view");
  ExpectError(View("*", "expr(idx, 'x') AND k IS NOT NULL AND c IS NOT NULL", "k, c"),
              "WHERE clause for materialized view 'v' cannot contain custom index expressions");
  ExpectError(View("*", "", "k, c"),
              "Primary key columns k, c must be restricted with 'IS NOT NULL' or otherwise");
  ExpectError(View("*", "k IS NOT NULL", "k, c"),
              "Primary key columns c must be restricted with 'IS NOT NULL' or otherwise");
  ExpectError(View("*", kKeysNotNull, "v, k, c"),
              "Primary key columns v must be restricted with 'IS NOT NULL' or otherwise");
  ExpectError(View("*", kKeysNotNull + std::string(" AND x IS NOT NULL"), "k, c"),
              "Undefined column name x in table ks.t");
  ExpectError(View("*", kKeysNotNull + std::string(" AND v = 1"), "k, c"),
              "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: v "
              "restricted illegally)");
  // Even a column of the view's key (CASSANDRA-13798).
  ExpectError(View("*", kKeysNotNull + std::string(" AND v > 1"), "v, k, c"),
              "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: v "
              "restricted illegally)");
  ExpectError(View("*", kKeysNotNull + std::string(" AND w = 1 AND v = 1"), "k, c"),
              "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: v,w "
              "restricted illegally)");
  // Unrestricted key columns before illegal restrictions.
  ExpectError(View("*", "k IS NOT NULL AND v = 1", "k, c"),
              "Primary key columns c must be restricted with 'IS NOT NULL' or otherwise");
}

TEST_F(ViewDdlTest, Options) {
  ExpectError(View("*", kKeysNotNull, "c, k", "WITH default_time_to_live = 10"),
              "Cannot set default_time_to_live for a materialized view. Data in a materialized "
              "view always expire at the same time than the corresponding data in the parent "
              "table.");
  ExpectError(View("*", kKeysNotNull, "c, k", "WITH default_time_to_live = 0"),
              "Cannot set default_time_to_live for a materialized view. Data in a materialized "
              "view always expire at the same time than the corresponding data in the parent "
              "table.");
  EXPECT_EQ(Error(View("*", kKeysNotNull, "c, k", "WITH nonsense = 1")).code(),
            ErrorCode::kSyntaxError);
  // The WHERE clause before the options.
  ExpectError(View("*", "k IS NOT NULL", "c, k", "WITH default_time_to_live = 10"),
              "Primary key columns c must be restricted with 'IS NOT NULL' or otherwise");
}

TEST_F(ViewDdlTest, AlterAndDropFindNoView) {
  ExpectError("ALTER MATERIALIZED VIEW v WITH comment = 'x'",
              "Materialized view 'ks.v' doesn't exist");
  ExpectError("ALTER MATERIALIZED VIEW other.t WITH default_time_to_live = 10",
              "Materialized view 'other.t' doesn't exist");
  ExpectError("DROP MATERIALIZED VIEW v", "Materialized view 'ks.v' doesn't exist");
  // A table is not a view.
  ExpectError("DROP MATERIALIZED VIEW t", "Materialized view 'ks.t' doesn't exist");
  ExpectError("DROP MATERIALIZED VIEW nope.v", "Materialized view 'nope.v' doesn't exist");
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("DROP MATERIALIZED VIEW IF EXISTS v")));
  EXPECT_TRUE(std::holds_alternative<VoidResult>(
      Run("ALTER MATERIALIZED VIEW IF EXISTS v WITH comment = 'x'")));
  EXPECT_NE(store_.snapshot()->FindTable("ks", "t"), nullptr);
}

TEST_F(ViewDdlTest, CreateBuildsTheViewsMetadata) {
  client_.warnings.clear();
  Result result =
      Run("CREATE MATERIALIZED VIEW v AS SELECT k, c, v FROM t WHERE k IS NOT NULL AND c IS NOT "
          "NULL AND v IS NOT NULL PRIMARY KEY ((v, k), c) WITH CLUSTERING ORDER BY (c DESC) AND "
          "comment = 'by v'");
  ASSERT_TRUE(std::holds_alternative<SchemaChangeResult>(result));
  const protocol::SchemaChange& change = std::get<SchemaChangeResult>(result).change;
  EXPECT_EQ(change.type, protocol::SchemaChange::Type::kCreated);
  EXPECT_EQ(change.target, protocol::SchemaChange::Target::kTable);
  EXPECT_EQ(change.keyspace, "ks");
  EXPECT_EQ(change.name, "v");
  EXPECT_EQ(client_.warnings,
            (std::vector<std::string>{"Materialized views are experimental and are not recommended "
                                      "for production use."}));

  const schema::TablePtr view = FindView("v");
  ASSERT_NE(view, nullptr);
  const schema::TablePtr base = store_.snapshot()->FindTable("ks", "t");
  // Not a table: a view of its own, found by FindTable for reads.
  EXPECT_EQ(store_.snapshot()->FindKeyspace("ks")->tables.count("v"), 0u);
  EXPECT_EQ(store_.snapshot()->FindTable("ks", "v"), view);
  EXPECT_NE(view->id, base->id);
  EXPECT_EQ(view->keyspace, "ks");
  EXPECT_EQ(view->params.comment, "by v");
  ASSERT_EQ(view->columns.size(), 3u);
  EXPECT_EQ(view->columns[0].name, "v");
  EXPECT_EQ(view->columns[0].kind, schema::ColumnKind::kPartitionKey);
  EXPECT_EQ(view->columns[0].position, 0);
  EXPECT_EQ(view->columns[1].name, "k");
  EXPECT_EQ(view->columns[1].kind, schema::ColumnKind::kPartitionKey);
  EXPECT_EQ(view->columns[1].position, 1);
  EXPECT_EQ(view->columns[2].name, "c");
  EXPECT_EQ(view->columns[2].kind, schema::ColumnKind::kClustering);
  EXPECT_EQ(view->columns[2].order, schema::ClusteringOrder::kDesc);
  ASSERT_TRUE(view->view.has_value());
  EXPECT_EQ(view->view->base_table, "t");
  EXPECT_EQ(view->view->base_table_id, base->id);
  EXPECT_FALSE(view->view->include_all_columns);
  EXPECT_EQ(view->view->where_clause, "k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL");
  ASSERT_EQ(view->view->restrictions.size(), 3u);
  EXPECT_EQ(view->view->restrictions[2],
            (schema::ViewRestriction{"v", schema::ViewRestriction::Op::kIsNotNull, {}}));
}

TEST_F(ViewDdlTest, SelectStarTakesEveryColumnAndKeepsTheBaseOrder) {
  Run("CREATE TABLE d (k int, c int, v text, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c "
      "DESC)");
  Run("CREATE MATERIALIZED VIEW v AS SELECT * FROM d WHERE k IS NOT NULL AND c IS NOT NULL "
      "PRIMARY KEY (k, c)");
  const schema::TablePtr view = FindView("v");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->view->include_all_columns);
  ASSERT_EQ(view->columns.size(), 3u);
  // 4.1 keeps the base column's reversed type without CLUSTERING ORDER BY.
  EXPECT_EQ(view->columns[1].order, schema::ClusteringOrder::kDesc);
  EXPECT_EQ(view->columns[2].name, "v");
  EXPECT_EQ(view->columns[2].kind, schema::ColumnKind::kRegular);
  EXPECT_EQ(view->columns[2].type->ToCql(), "text");
}

TEST_F(ViewDdlTest, WhereClauseTextAndValues) {
  Run("CREATE TABLE s (k text, c int, \"Name\" int, v int, PRIMARY KEY (k, c, \"Name\"))");
  Run("CREATE MATERIALIZED VIEW v AS SELECT * FROM s WHERE k IN ('a', 'b') AND c > 5 AND "
      "\"Name\" IS NOT NULL AND v IS NOT NULL PRIMARY KEY (v, k, c, \"Name\")");
  const schema::TablePtr view = FindView("v");
  ASSERT_NE(view, nullptr);
  // Relation.toCQLString joined with " AND ", as system_schema.views shows it.
  EXPECT_EQ(view->view->where_clause,
            "k IN ('a', 'b') AND c > 5 AND \"Name\" IS NOT NULL AND v IS NOT NULL");
  using Op = schema::ViewRestriction::Op;
  ASSERT_EQ(view->view->restrictions.size(), 4u);
  EXPECT_EQ(
      view->view->restrictions[0],
      (schema::ViewRestriction{"k", Op::kIn, {types::EncodeText("a"), types::EncodeText("b")}}));
  EXPECT_EQ(view->view->restrictions[1],
            (schema::ViewRestriction{"c", Op::kGt, {types::EncodeInt(5)}}));
  EXPECT_EQ(view->view->restrictions[2], (schema::ViewRestriction{"Name", Op::kIsNotNull, {}}));
}

TEST_F(ViewDdlTest, WhereFormsAViewCannotHoldAreRefused) {
  ExpectError(View("*", "k IS NOT NULL AND c IS NOT NULL AND k != 1", "k, c"),
              "Unsupported \"!=\" relation: k != 1");
  ExpectError(View("*", "k IS NOT NULL AND (c) > (1)", "k, c"),
              "Multi-column relations (c) > (1) are not supported by Sibyl in a materialized "
              "view's WHERE clause");
  // On a regular column, 4.1's refusal comes first.
  ExpectError(View("*", "k IS NOT NULL AND c IS NOT NULL AND fl CONTAINS 1", "k, c"),
              "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: fl "
              "restricted illegally)");
  Run("CREATE TABLE fc (k int, c frozen<list<int>>, PRIMARY KEY (k, c))");
  ExpectError(View("*", "k IS NOT NULL AND c CONTAINS 1", "k, c", "", "fc"),
              "CONTAINS relations c CONTAINS 1 are not supported by Sibyl in a materialized "
              "view's WHERE clause");
  ExpectError(View("*", "k = null AND c IS NOT NULL", "k, c"),
              "Invalid null value in condition for column k");
  EXPECT_EQ(Error(View("*", "k = 'x' AND c IS NOT NULL", "k, c")).code(), ErrorCode::kInvalid);
  EXPECT_EQ(FindView("v"), nullptr);
}

TEST_F(ViewDdlTest, ExistingNames) {
  const std::string create = View("*", kKeysNotNull, "c, k");
  Run(create);
  CqlError e = Error(create);
  EXPECT_EQ(e.code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(std::string(e.what()), "Cannot add already existing table \"v\" to keyspace \"ks\"");
  EXPECT_TRUE(std::holds_alternative<VoidResult>(
      Run("CREATE MATERIALIZED VIEW IF NOT EXISTS v AS SELECT * FROM t WHERE " +
          std::string(kKeysNotNull) + " PRIMARY KEY (c, k)")));
  // A table may not take a view's name.
  e = Error("CREATE TABLE v (k int PRIMARY KEY)");
  EXPECT_EQ(e.code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(std::string(e.what()), "Cannot add already existing table \"v\" to keyspace \"ks\"");
  EXPECT_TRUE(
      std::holds_alternative<VoidResult>(Run("CREATE TABLE IF NOT EXISTS v (k int PRIMARY KEY)")));
  // 4.1 looks the base up among tables: a view is no base.
  ExpectError(
      "CREATE MATERIALIZED VIEW v2 AS SELECT * FROM v WHERE c IS NOT NULL AND k IS NOT "
      "NULL PRIMARY KEY (c, k)",
      "Base table 'v' doesn't exist");
  ExpectError("CREATE MATERIALIZED VIEW \"bad-name\" AS SELECT * FROM t WHERE " +
                  std::string(kKeysNotNull) + " PRIMARY KEY (c, k)",
              "ks.bad-name: Table name must not be empty, more than 48 characters long, or contain "
              "non-alphanumeric-underscore characters (got \"bad-name\")",
              ErrorCode::kConfigError);
}

TEST_F(ViewDdlTest, AlterAndDropAView) {
  Run(View("*", kKeysNotNull, "c, k"));
  Result altered = Run("ALTER MATERIALIZED VIEW v WITH comment = 'c' AND gc_grace_seconds = 5");
  ASSERT_TRUE(std::holds_alternative<SchemaChangeResult>(altered));
  EXPECT_EQ(std::get<SchemaChangeResult>(altered).change.type,
            protocol::SchemaChange::Type::kUpdated);
  EXPECT_EQ(std::get<SchemaChangeResult>(altered).change.name, "v");
  EXPECT_EQ(FindView("v")->params.comment, "c");
  EXPECT_EQ(FindView("v")->params.gc_grace_seconds, 5);
  ExpectError("ALTER MATERIALIZED VIEW v WITH default_time_to_live = 10",
              "Forbidden default_time_to_live detected for a materialized view. Data in a "
              "materialized view always expire at the same time than the corresponding data in "
              "the parent table. default_time_to_live must be set to zero, see CASSANDRA-12868 "
              "for more information");
  ExpectError("ALTER MATERIALIZED VIEW v WITH gc_grace_seconds = 0",
              "Cannot alter gc_grace_seconds of a materialized view to 0, since this value is "
              "used to TTL undelivered updates. Setting gc_grace_seconds too low might cause "
              "undelivered updates to expire before being replayed.");
  Result dropped = Run("DROP MATERIALIZED VIEW ks.v");
  ASSERT_TRUE(std::holds_alternative<SchemaChangeResult>(dropped));
  EXPECT_EQ(std::get<SchemaChangeResult>(dropped).change.type,
            protocol::SchemaChange::Type::kDropped);
  EXPECT_EQ(std::get<SchemaChangeResult>(dropped).change.target,
            protocol::SchemaChange::Target::kTable);
  EXPECT_EQ(FindView("v"), nullptr);
}

TEST_F(ViewDdlTest, StatementsAViewRefuses) {
  Run(View("*", kKeysNotNull + std::string(" AND v IS NOT NULL"), "v, k, c"));
  const std::string no_write = "Cannot directly modify a materialized view";
  ExpectError("INSERT INTO v (v, k, c) VALUES (1, 1, 1)", no_write);
  ExpectError("UPDATE v SET w = 1 WHERE v = 1 AND k = 1 AND c = 1", no_write);
  ExpectError("DELETE FROM v WHERE v = 1 AND k = 1 AND c = 1", no_write);
  ExpectError("INSERT INTO v (v, k, c) VALUES (1, 1, 1) IF NOT EXISTS", no_write);
  ExpectError(
      "BEGIN BATCH INSERT INTO t (k, c) VALUES (1, 1); DELETE FROM v WHERE v = 1 AND k = "
      "1 AND c = 1; APPLY BATCH",
      no_write);
  ExpectError("TRUNCATE v",
              "Cannot TRUNCATE materialized view directly; must truncate base table instead");
  ExpectError("DROP TABLE v",
              "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW "
              "instead.");
  ExpectError("DROP TABLE t",
              "Cannot drop a table when materialized views still depend on it (ks)");
  ExpectError("ALTER TABLE v ADD x int",
              "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead");
  ExpectError("ALTER TABLE v WITH comment = 'x'",
              "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead");
  ExpectError("ALTER TABLE t DROP w",
              "Cannot drop column w on base table t with materialized views");
  ExpectError("ALTER TABLE t WITH gc_grace_seconds = 0",
              "Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since "
              "this value is used to TTL undelivered updates. Setting gc_grace_seconds too low "
              "might cause undelivered updates to expire before being replayed.");
  ExpectError("CREATE INDEX ON v (w)", "Secondary indexes on materialized views aren't supported");
  ExpectError("DROP TYPE ut", "Cannot drop user type 'ks.ut' as it is still used by tables t, v");
  ASSERT_NE(FindView("v"), nullptr);
  // DROP KEYSPACE takes its views along.
  Run("DROP KEYSPACE ks");
  EXPECT_EQ(store_.snapshot()->FindTable("ks", "v"), nullptr);
}

TEST_F(ViewDdlTest, BaseChangesReachItsViews) {
  Run(View("*", kKeysNotNull, "c, k"));
  Run("CREATE MATERIALIZED VIEW some AS SELECT k, c, v FROM t WHERE k > 0 AND c IS NOT NULL "
      "PRIMARY KEY (c, k)");
  Run("ALTER TABLE t ADD (x int, y int static)");
  Run("ALTER TABLE t ADD z text");
  // Only a view of every column gains a new regular column.
  EXPECT_NE(FindView("v")->FindColumn("x"), nullptr);
  EXPECT_NE(FindView("v")->FindColumn("z"), nullptr);
  EXPECT_EQ(FindView("v")->FindColumn("y"), nullptr);
  EXPECT_EQ(FindView("some")->FindColumn("x"), nullptr);
  // A renamed key column is renamed in the views, WHERE clause included.
  Run("ALTER TABLE t RENAME k TO kk");
  EXPECT_EQ(FindView("some")->FindColumn("k"), nullptr);
  ASSERT_NE(FindView("some")->FindColumn("kk"), nullptr);
  EXPECT_EQ(FindView("some")->view->where_clause, "kk > 0 AND c IS NOT NULL");
  EXPECT_EQ(FindView("some")->view->restrictions[0].column, "kk");
  EXPECT_EQ(FindView("v")->view->where_clause, "kk IS NOT NULL AND c IS NOT NULL");
}

TEST_F(ViewDdlTest, SystemSchemaListsViewsApartFromTables) {
  Run("CREATE MATERIALIZED VIEW v AS SELECT k, c, v FROM t WHERE k IS NOT NULL AND c IS NOT NULL "
      "AND v IS NOT NULL PRIMARY KEY (v, k, c) WITH comment = 'by v'");
  const schema::TablePtr view = FindView("v");
  RowsResult views = Rows(
      "SELECT view_name, base_table_name, include_all_columns, where_clause, comment, id, "
      "base_table_id, default_time_to_live FROM system_schema.views WHERE keyspace_name = 'ks'");
  ASSERT_EQ(views.rows.size(), 1u);
  EXPECT_EQ(Texts(views, 0), (std::vector<std::string>{"v"}));
  EXPECT_EQ(Texts(views, 1), (std::vector<std::string>{"t"}));
  EXPECT_EQ(Texts(views, 2), (std::vector<std::string>{types::EncodeBoolean(false)}));
  EXPECT_EQ(Texts(views, 3),
            (std::vector<std::string>{"k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL"}));
  EXPECT_EQ(Texts(views, 4), (std::vector<std::string>{"by v"}));
  EXPECT_EQ(Texts(views, 5), (std::vector<std::string>{types::EncodeUuid(view->id)}));
  EXPECT_EQ(
      Texts(views, 6),
      (std::vector<std::string>{types::EncodeUuid(store_.snapshot()->FindTable("ks", "t")->id)}));
  EXPECT_EQ(Texts(views, 7), (std::vector<std::string>{types::EncodeInt(0)}));
  RowsResult tables =
      Rows("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'ks'");
  for (const std::string& name : Texts(tables, 0)) EXPECT_NE(name, "v");
  RowsResult columns = Rows(
      "SELECT column_name, kind FROM system_schema.columns WHERE keyspace_name = 'ks' AND "
      "table_name = 'v'");
  EXPECT_EQ(Texts(columns, 0), (std::vector<std::string>{"c", "k", "v"}));
  EXPECT_EQ(Texts(columns, 1),
            (std::vector<std::string>{"clustering", "clustering", "partition_key"}));
}

TEST_F(ViewDdlTest, DescribeShowsViewsAfterTheirBase) {
  Run(View("*", kKeysNotNull, "c, k"));
  RowsResult view = Rows("DESCRIBE MATERIALIZED VIEW v");
  ASSERT_EQ(view.rows.size(), 1u);
  EXPECT_EQ(Texts(view, 1), (std::vector<std::string>{"materialized_view"}));
  EXPECT_EQ(Texts(view, 3)[0].rfind("CREATE MATERIALIZED VIEW ks.v AS\n    SELECT *\n    FROM "
                                    "ks.t\n    WHERE k IS NOT NULL AND c IS NOT NULL\n    "
                                    "PRIMARY KEY (c, k)\n WITH CLUSTERING ORDER BY (k ASC)\n",
                                    0),
            0u)
      << Texts(view, 3)[0];
  EXPECT_EQ(Texts(Rows("DESCRIBE v"), 1), (std::vector<std::string>{"materialized_view"}));
  // DESCRIBE TABLE leaves views out, as 4.1's does; DESCRIBE KEYSPACE lists
  // them after their base table.
  EXPECT_EQ(Texts(Rows("DESCRIBE TABLE t"), 2), (std::vector<std::string>{"t"}));
  const std::vector<std::string> names = Texts(Rows("DESCRIBE KEYSPACE ks"), 2);
  auto t = std::find(names.begin(), names.end(), "t");
  ASSERT_NE(t, names.end());
  ASSERT_NE(t + 1, names.end());
  EXPECT_EQ(*(t + 1), "v");
  ExpectError("DESCRIBE TABLE v", "Table 'v' not found in keyspace 'ks'");
  ExpectError("DESCRIBE MATERIALIZED VIEW t", "Materialized view 't' not found in 'ks'");
}

TEST_F(ViewDdlTest, BuildTablesShowTheEnginesBuilds) {
  // No engine: nothing to show.
  EXPECT_TRUE(Rows("SELECT * FROM system.built_views").rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system.view_builds_in_progress").rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system_views.view_builds").rows.empty());
  Run(View("*", kKeysNotNull, "c, k"));
  node_.view_builds = [] {
    return std::vector<schema::ViewBuildInfo>{
        {"ks", "v", /*built=*/true, 10, std::nullopt, ""},
        {"ks", "w", /*built=*/false, 3, -42, ""},
        {"ks", "x", /*built=*/false, 0, std::nullopt, "disk full"}};
  };
  RowsResult built =
      Rows("SELECT keyspace_name, view_name, status_replicated FROM system.built_views");
  EXPECT_EQ(Texts(built, 1), (std::vector<std::string>{"v"}));
  EXPECT_EQ(Texts(built, 2), (std::vector<std::string>{types::EncodeBoolean(true)}));
  RowsResult progress = Rows(
      "SELECT view_name, start_token, end_token, last_token, keys_built FROM "
      "system.view_builds_in_progress");
  EXPECT_EQ(Texts(progress, 0), (std::vector<std::string>{"w"}));
  EXPECT_EQ(Texts(progress, 1), (std::vector<std::string>{"-9223372036854775808"}));
  EXPECT_EQ(Texts(progress, 2), (std::vector<std::string>{"-9223372036854775808"}));
  EXPECT_EQ(Texts(progress, 3), (std::vector<std::string>{"-42"}));
  EXPECT_EQ(Texts(progress, 4), (std::vector<std::string>{types::EncodeBigint(3)}));
  RowsResult builds = Rows(
      "SELECT view_name, base_table_name, status, partitions_built, last_token, failure FROM "
      "system_views.view_builds");
  EXPECT_EQ(Texts(builds, 0), (std::vector<std::string>{"v", "w", "x"}));
  EXPECT_EQ(Texts(builds, 1), (std::vector<std::string>{"t", "<null>", "<null>"}));
  EXPECT_EQ(Texts(builds, 2), (std::vector<std::string>{"built", "building", "failed"}));
  EXPECT_EQ(Texts(builds, 4),
            (std::vector<std::string>{"<null>", types::EncodeBigint(-42), "<null>"}));
  EXPECT_EQ(Texts(builds, 5), (std::vector<std::string>{"<null>", "<null>", "disk full"}));
}

}  // namespace
}  // namespace sibyl::query
