// CREATE / ALTER / DROP MATERIALIZED VIEW through the statement layer:
// Cassandra 4.1's errors, in its order, and the refusal that ends a valid
// CREATE while views are not maintained.

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace sibyl::query {
namespace {

constexpr std::string_view kNotSupported = "Materialized views are not supported by Sibyl yet";

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

TEST_F(ViewDdlTest, AValidViewIsRefusedHonestly) {
  ExpectError(View("*", kKeysNotNull, "c, k"), kNotSupported);
  ExpectError(View("k, c, v", "k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL", "v, k, c"),
              kNotSupported);
  ExpectError("CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT * FROM ks.t WHERE " +
                  std::string(kKeysNotNull) +
                  " PRIMARY KEY (c, k) WITH CLUSTERING ORDER BY "
                  "(k DESC) AND comment = 'x'",
              kNotSupported);
  // Filters on base key columns are allowed.
  ExpectError(View("*", "k IS NOT NULL AND c > 1", "c, k"), kNotSupported);
  ExpectError(View("*", "k IN (1, 2) AND c = 1", "c, k"), kNotSupported);
  // Nothing was created.
  EXPECT_EQ(store_.snapshot()->FindTable("ks", "v"), nullptr);
}

TEST_F(ViewDdlTest, GuidesViewPassesWithTheLenientDefault) {
  const std::string guides =
      "CREATE MATERIALIZED VIEW users_by_email AS SELECT email, password, country FROM "
      "user_accounts WHERE username IS NOT NULL AND email IS NOT NULL PRIMARY KEY (email, "
      "username)";
  ExpectError(guides, kNotSupported);
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
  ExpectError(View("*", kKeysNotNull + std::string(" AND fl IS NOT NULL"), "fl, k, c"),
              kNotSupported);
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

}  // namespace
}  // namespace sibyl::query
