// Schema statements parse into their typed statements; options, names and
// types come out as the schema layer needs them, and the checks Cassandra
// makes while parsing fail as there.

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "cql/parser.h"
#include "cql/parser_test_util.h"

namespace sibyl::cql {
namespace {

using VK = OptionValue::Kind;

using testing::ErrorOf;
using testing::Parse;

using Entries = std::vector<std::pair<std::string, std::string>>;

TEST(DdlParserTest, Keyspaces) {
  auto create = Parse<CreateKeyspaceStatement>(
      "CREATE KEYSPACE IF NOT EXISTS \"MyKs\" WITH replication = {'class': "
      "'NetworkTopologyStrategy', 'datacenter1': 3, 'dc2': '2'} AND durable_writes = false");
  EXPECT_EQ(create.keyspace, "MyKs");
  EXPECT_TRUE(create.if_not_exists);
  ASSERT_EQ(create.options.size(), 2u);
  EXPECT_EQ(create.options[0].name, "replication");
  EXPECT_EQ(create.options[0].value.kind, VK::kMap);
  EXPECT_EQ(create.options[0].value.entries,
            (Entries{{"class", "NetworkTopologyStrategy"}, {"datacenter1", "3"}, {"dc2", "2"}}));
  EXPECT_EQ(create.options[1].name, "durable_writes");
  EXPECT_EQ(create.options[1].value.kind, VK::kConstant);
  EXPECT_EQ(create.options[1].value.constant_kind, Term::Kind::kBoolean);
  EXPECT_EQ(create.options[1].value.text, "false");

  auto alter = Parse<AlterKeyspaceStatement>(
      "ALTER KEYSPACE IF EXISTS Ks WITH REPLICATION = {'class': 'SimpleStrategy'}");
  EXPECT_EQ(alter.keyspace, "ks");
  EXPECT_TRUE(alter.if_exists);
  EXPECT_EQ(alter.options[0].name, "replication");

  auto drop = Parse<DropKeyspaceStatement>("DROP KEYSPACE IF EXISTS ks");
  EXPECT_TRUE(drop.if_exists);
  EXPECT_EQ(drop.keyspace, "ks");

  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ks"),
            "syntax: line 0:-1 mismatched input '<EOF>' expecting K_WITH");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ? WITH a = 1"),
            "syntax: Bind variables cannot be used for keyspace names");
}

TEST(DdlParserTest, OptionValues) {
  auto table = Parse<CreateTableStatement>(
      "CREATE TABLE t (k int PRIMARY KEY) WITH comment = 'it''s' AND bloom_filter_fp_chance = "
      "0.01 AND gc_grace_seconds = -1 AND speculative_retry = '99PERCENTILE' AND caching = "
      "{'keys': 'ALL', 'rows_per_partition': 'NONE'} AND compaction = {} AND x = ALL AND y = "
      "INT AND z = 0xff AND n = NaN AND i = -Infinity AND b = TRUE");
  const auto& o = table.options;
  ASSERT_EQ(o.size(), 12u);
  EXPECT_EQ(o[0].value.text, "it's");
  EXPECT_EQ(o[0].value.constant_kind, Term::Kind::kString);
  EXPECT_EQ(o[1].value.constant_kind, Term::Kind::kFloat);
  EXPECT_EQ(o[1].value.text, "0.01");
  EXPECT_EQ(o[2].value.text, "-1");
  EXPECT_EQ(o[4].value.entries, (Entries{{"keys", "ALL"}, {"rows_per_partition", "NONE"}}));
  EXPECT_EQ(o[5].value.kind, VK::kMap);
  EXPECT_TRUE(o[5].value.entries.empty());
  EXPECT_EQ(o[6].value.kind, VK::kKeyword);
  EXPECT_EQ(o[6].value.text, "ALL");
  EXPECT_EQ(o[7].value.text, "int");
  EXPECT_EQ(o[8].value.constant_kind, Term::Kind::kBlob);
  EXPECT_EQ(o[9].value.text, "NaN");
  EXPECT_EQ(o[10].value.text, "-Infinity");
  EXPECT_EQ(o[11].value.text, "true");

  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ks WITH a = 1 AND A = 2"),
            "syntax: Multiple definition for property 'a'");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ks WITH r = {'a': 1, 'a': 2}"),
            "syntax: Multiple definition for property a");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ks WITH r = {'class': ?}"),
            "syntax: Invalid property value: ? for property: 'class' (bind variables are not "
            "supported in DDL queries)");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ks WITH r = {:k: 'x'}"),
            "syntax: Invalid property name: :k (bind variables are not supported in DDL queries)");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE ks WITH r = {'a': [1, 2]}"),
            "syntax: Invalid property value: [1, 2] for property: 'a'");
  EXPECT_EQ(
      ErrorOf("CREATE KEYSPACE ks WITH r = ?"),
      "syntax: line 1:28 no viable alternative at input '?' (CREATE KEYSPACE ks WITH [r] =...)");
  EXPECT_EQ(ErrorOf("ALTER TABLE t WITH comment = 'x' AND"),
            "syntax: line 0:-1 no viable alternative at input '<EOF>'");
}

TEST(DdlParserTest, CreateTable) {
  auto table = Parse<CreateTableStatement>(
      "CREATE TABLE IF NOT EXISTS ks.\"Events\" (\"Id\" uuid, day date, at timestamp, "
      "payload frozen<map<text, list<int>>>, loc tuple<double, double>, emb vector<float, 3>, "
      "addr ks.address, n counter, s text STATIC, \"\"\"q\"\"\" text, "
      "PRIMARY KEY ((\"Id\", day), at, n),) WITH CLUSTERING ORDER BY (at DESC, n ASC) AND "
      "COMPACT STORAGE AND compact = 1");
  EXPECT_TRUE(table.if_not_exists);
  EXPECT_EQ(table.table.keyspace, "ks");
  EXPECT_EQ(table.table.name, "Events");
  ASSERT_EQ(table.columns.size(), 10u);
  EXPECT_EQ(table.columns[0].name, "Id");
  EXPECT_EQ(table.columns[3].type, "frozen<map<text, list<int>>>");
  EXPECT_EQ(table.columns[4].type, "tuple<double, double>");
  EXPECT_EQ(table.columns[5].type, "vector<float, 3>");
  EXPECT_EQ(table.columns[6].type, "ks.address");
  EXPECT_EQ(table.columns[7].type, "counter");
  EXPECT_TRUE(table.columns[8].is_static);
  EXPECT_EQ(table.columns[9].name, "\"q\"");
  EXPECT_EQ(table.partition_key, (std::vector<std::string>{"Id", "day"}));
  EXPECT_EQ(table.clustering_columns, (std::vector<std::string>{"at", "n"}));
  ASSERT_EQ(table.clustering_order.size(), 2u);
  EXPECT_TRUE(table.clustering_order[0].descending);
  EXPECT_FALSE(table.clustering_order[1].descending);
  EXPECT_TRUE(table.compact_storage);
  ASSERT_EQ(table.options.size(), 1u);
  EXPECT_EQ(table.options[0].name, "compact");

  auto bare = Parse<CreateTableStatement>("create columnfamily T (K int primary key, V text)");
  EXPECT_EQ(bare.table.name, "t");
  EXPECT_EQ(bare.partition_key, std::vector<std::string>{"k"});
  EXPECT_TRUE(bare.clustering_columns.empty());
  // No primary key at all is for the schema layer to refuse.
  EXPECT_TRUE(Parse<CreateTableStatement>("CREATE TABLE t (a int)").partition_key.empty());
  // Unreserved keywords are column names.
  auto keywords =
      Parse<CreateTableStatement>("CREATE TABLE t (key int PRIMARY KEY, ttl int, type text)");
  EXPECT_EQ(keywords.columns[1].name, "ttl");
}

TEST(DdlParserTest, CreateTableErrors) {
  EXPECT_EQ(ErrorOf("CREATE TABLE ks.t (a int PRIMARY KEY, b int, PRIMARY KEY (b))"),
            "invalid: Multiple PRIMARY KEY specified for table 'ks.t' (exactly one required)");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, A text)"),
            "invalid: Duplicate column 'a' declaration for table 't'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER "
                    "BY (b ASC, b DESC)"),
            "invalid: Duplicate column 'b' in CLUSTERING ORDER BY clause for table 't'");
  EXPECT_EQ(
      ErrorOf("CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER "
              "BY (b)"),
      "syntax: line 1:77 no viable alternative at input ')' (...WITH CLUSTERING ORDER BY (b[)])");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, l list<frozen<int>>)"),
            "syntax: frozen<> is only allowed on collections, tuples, and user-defined types "
            "(got int)");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, d byte)"),
            "syntax: Invalid (reserved) user type name byte");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, v vector<float>)"),
            "syntax: line 1:49 mismatched input '>' expecting ',' (...PRIMARY KEY, v "
            "vector<float[>]...)");
  EXPECT_EQ(
      ErrorOf("CREATE TABLE t (select int PRIMARY KEY)"),
      "syntax: line 1:16 no viable alternative at input 'select' (CREATE TABLE t ([select]...)");
  EXPECT_EQ(ErrorOf("CREATE TABLE t ()"),
            "syntax: line 1:16 no viable alternative at input ')' (CREATE TABLE t ([)])");
}

TEST(DdlParserTest, DeepNestingIsRefusedNotFatal) {
  std::string type;
  for (int i = 0; i < 3000; ++i) type += "list<";
  EXPECT_NE(ErrorOf("CREATE TABLE t (k int PRIMARY KEY, v " + type).find("nested too deeply"),
            std::string::npos);
  std::string map = "CREATE KEYSPACE ks WITH r = {'a': " + std::string(3000, '[');
  EXPECT_NE(ErrorOf(map).find("nested too deeply"), std::string::npos);
}

TEST(DdlParserTest, AlterAndDropTable) {
  auto add = Parse<AlterTableStatement>(
      "ALTER TABLE IF EXISTS ks.t ADD IF NOT EXISTS (a int, s set<text> static)");
  EXPECT_TRUE(add.if_exists);
  EXPECT_EQ(add.kind, AlterTableStatement::Kind::kAddColumns);
  EXPECT_TRUE(add.if_column_not_exists);
  ASSERT_EQ(add.added_columns.size(), 2u);
  EXPECT_EQ(add.added_columns[1].type, "set<text>");
  EXPECT_TRUE(add.added_columns[1].is_static);

  auto one = Parse<AlterTableStatement>("ALTER TABLE t ADD v vector<float, 128>");
  EXPECT_EQ(one.added_columns[0].type, "vector<float, 128>");

  auto drop = Parse<AlterTableStatement>("ALTER TABLE t DROP IF EXISTS (a, b) USING TIMESTAMP 99");
  EXPECT_EQ(drop.kind, AlterTableStatement::Kind::kDropColumns);
  EXPECT_TRUE(drop.if_column_exists);
  EXPECT_EQ(drop.dropped_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(drop.drop_timestamp, 99);
  // `compact` is a column unless STORAGE follows.
  EXPECT_EQ(Parse<AlterTableStatement>("ALTER TABLE t DROP compact").dropped_columns[0], "compact");
  EXPECT_EQ(Parse<AlterTableStatement>("ALTER TABLE t DROP COMPACT STORAGE").kind,
            AlterTableStatement::Kind::kDropCompactStorage);

  auto rename = Parse<AlterTableStatement>("ALTER TABLE t RENAME a TO b AND \"C\" TO d");
  EXPECT_EQ(rename.kind, AlterTableStatement::Kind::kRenameColumns);
  EXPECT_EQ(rename.renames, (Entries{{"a", "b"}, {"C", "d"}}));

  auto with =
      Parse<AlterTableStatement>("ALTER TABLE t WITH comment = 'c' AND gc_grace_seconds = 0");
  EXPECT_EQ(with.kind, AlterTableStatement::Kind::kWithOptions);
  EXPECT_EQ(with.options.size(), 2u);

  auto type = Parse<AlterTableStatement>("ALTER TABLE t ALTER a TYPE blob");
  EXPECT_EQ(type.kind, AlterTableStatement::Kind::kAlterColumnType);
  EXPECT_EQ(type.added_columns[0].type, "blob");

  EXPECT_EQ(ErrorOf("ALTER TABLE t DROP a USING TIMESTAMP 99999999999999999999"),
            "syntax: Failed parsing statement: [ALTER TABLE t DROP a USING TIMESTAMP "
            "99999999999999999999] reason: NumberFormatException For input string: "
            "\"99999999999999999999\"");
  EXPECT_EQ(ErrorOf("ALTER TABLE t FOO"),
            "syntax: line 1:14 no viable alternative at input 'FOO' (ALTER TABLE t [FOO])");

  auto dropped = Parse<DropTableStatement>("DROP TABLE IF EXISTS ks.t");
  EXPECT_TRUE(dropped.if_exists);
  EXPECT_EQ(dropped.table.keyspace, "ks");
}

TEST(DdlParserTest, Types) {
  auto create = Parse<CreateTypeStatement>(
      "CREATE TYPE IF NOT EXISTS ks.\"Addr\" (street text, \"Zip\" int, tags set<text>,)");
  EXPECT_TRUE(create.if_not_exists);
  EXPECT_EQ(create.type.keyspace, "ks");
  EXPECT_EQ(create.type.name, "Addr");
  ASSERT_EQ(create.fields.size(), 3u);
  EXPECT_EQ(create.fields[1].name, "Zip");
  EXPECT_EQ(create.fields[2].type, "set<text>");

  auto add = Parse<AlterTypeStatement>("ALTER TYPE IF EXISTS addr ADD IF NOT EXISTS unit text");
  EXPECT_EQ(add.kind, AlterTypeStatement::Kind::kAddField);
  EXPECT_TRUE(add.if_exists);
  EXPECT_TRUE(add.if_field_not_exists);
  EXPECT_EQ(add.field.name, "unit");
  auto rename = Parse<AlterTypeStatement>("ALTER TYPE addr RENAME IF EXISTS a TO b AND c TO d");
  EXPECT_EQ(rename.kind, AlterTypeStatement::Kind::kRenameFields);
  EXPECT_TRUE(rename.if_field_exists);
  EXPECT_EQ(rename.renames.size(), 2u);
  EXPECT_EQ(Parse<AlterTypeStatement>("ALTER TYPE addr ALTER a TYPE blob").kind,
            AlterTypeStatement::Kind::kAlterFieldType);
  EXPECT_TRUE(Parse<DropTypeStatement>("DROP TYPE IF EXISTS ks.addr").if_exists);

  // Native type names cannot name a type; some IDENTs are reserved for it.
  EXPECT_EQ(ErrorOf("CREATE TYPE int (a int)"),
            "syntax: line 1:12 no viable alternative at input 'int' (CREATE TYPE [int] (...)");
  EXPECT_EQ(ErrorOf("CREATE TYPE interval (a int)"),
            "syntax: Invalid (reserved) user type name interval");
  EXPECT_EQ(ErrorOf("CREATE TYPE t ()"),
            "syntax: line 1:15 no viable alternative at input ')' (CREATE TYPE t ([)])");
}

TEST(DdlParserTest, Indexes) {
  auto index = Parse<CreateIndexStatement>(
      "CREATE INDEX IF NOT EXISTS by_tag ON ks.t (values(tags), keys(m), entries(m2), full(f), "
      "values, \"Col\")");
  EXPECT_TRUE(index.if_not_exists);
  EXPECT_EQ(index.index_name, "by_tag");
  EXPECT_EQ(index.table.keyspace, "ks");
  ASSERT_EQ(index.targets.size(), 6u);
  EXPECT_EQ(index.targets[0].kind, IndexTarget::Kind::kValues);
  EXPECT_EQ(index.targets[1].kind, IndexTarget::Kind::kKeys);
  EXPECT_EQ(index.targets[2].kind, IndexTarget::Kind::kEntries);
  EXPECT_EQ(index.targets[3].kind, IndexTarget::Kind::kFull);
  EXPECT_EQ(index.targets[4].kind, IndexTarget::Kind::kSimple);
  EXPECT_EQ(index.targets[4].column, "values");
  EXPECT_EQ(index.targets[5].column, "Col");
  EXPECT_FALSE(index.custom);

  auto custom = Parse<CreateIndexStatement>(
      "CREATE CUSTOM INDEX ON t (v) USING 'StorageAttachedIndex' WITH OPTIONS = "
      "{'similarity_function': 'cosine'}");
  EXPECT_TRUE(custom.custom);
  EXPECT_FALSE(custom.index_name);
  EXPECT_EQ(custom.custom_class, "StorageAttachedIndex");
  ASSERT_EQ(custom.options.size(), 1u);
  EXPECT_EQ(custom.options[0].name, "options");
  EXPECT_EQ(Parse<CreateIndexStatement>("CREATE INDEX ON t ()").targets.size(), 0u);

  auto drop = Parse<DropIndexStatement>("DROP INDEX IF EXISTS ks.by_tag");
  EXPECT_EQ(drop.index.keyspace, "ks");
  EXPECT_EQ(drop.index.name, "by_tag");
  EXPECT_EQ(ErrorOf("CREATE INDEX ? ON t (a)"),
            "syntax: Bind variables cannot be used for index names");
}

TEST(DdlParserTest, MaterializedViews) {
  auto view = Parse<CreateViewStatement>(
      "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT * FROM ks.t WHERE a IS NOT NULL "
      "AND b IS NOT NULL PRIMARY KEY ((b, a), c) WITH CLUSTERING ORDER BY (c DESC) AND "
      "comment = 'v'");
  EXPECT_TRUE(view.if_not_exists);
  EXPECT_TRUE(view.select_star);
  EXPECT_EQ(view.base_table.name, "t");
  EXPECT_EQ(view.partition_key, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(view.clustering_columns, std::vector<std::string>{"c"});
  EXPECT_TRUE(view.clustering_order[0].descending);
  EXPECT_EQ(view.options.size(), 1u);
  EXPECT_EQ(ErrorOf("CREATE MATERIALIZED VIEW v AS SELECT * FROM t PRIMARY KEY (a) WITH "
                    "COMPACT STORAGE"),
            "syntax: COMPACT STORAGE tables are not allowed starting with version 4.0");
  EXPECT_EQ(ErrorOf("CREATE MATERIALIZED VIEW v AS SELECT * FROM t PRIMARY KEY (a, c) WITH "
                    "CLUSTERING ORDER BY (c ASC, c ASC)"),
            "invalid: Duplicate column 'c' in CLUSTERING ORDER BY clause for view 'v'");
  EXPECT_EQ(Parse<AlterViewStatement>("ALTER MATERIALIZED VIEW IF EXISTS v WITH comment = 'x'")
                .options.size(),
            1u);
  EXPECT_TRUE(Parse<DropViewStatement>("DROP MATERIALIZED VIEW IF EXISTS ks.v").if_exists);
}

TEST(DdlParserTest, FunctionsAndAggregates) {
  auto function = Parse<CreateFunctionStatement>(
      "CREATE OR REPLACE FUNCTION IF NOT EXISTS ks.fLog (input double, \"B\" int) CALLED ON NULL "
      "INPUT RETURNS double LANGUAGE Java AS $$ return Math.log(input); $$");
  EXPECT_TRUE(function.or_replace);
  EXPECT_TRUE(function.if_not_exists);
  EXPECT_EQ(function.function.keyspace, "ks");
  EXPECT_EQ(function.function.name, "flog");
  ASSERT_EQ(function.arguments.size(), 2u);
  EXPECT_EQ(function.arguments[1].name, "B");
  EXPECT_TRUE(function.called_on_null_input);
  EXPECT_EQ(function.return_type, "double");
  EXPECT_EQ(function.language, "java");
  EXPECT_EQ(function.body, " return Math.log(input); ");
  EXPECT_FALSE(Parse<CreateFunctionStatement>("CREATE FUNCTION f() RETURNS NULL ON NULL INPUT "
                                              "RETURNS int LANGUAGE java AS 'return 1;'")
                   .called_on_null_input);

  auto aggregate = Parse<CreateAggregateStatement>(
      "CREATE AGGREGATE ks.avg (int) SFUNC avg_state STYPE tuple<int, bigint> FINALFUNC "
      "avg_final INITCOND (0, 0)");
  EXPECT_EQ(aggregate.argument_types, std::vector<std::string>{"int"});
  EXPECT_EQ(aggregate.state_function, "avg_state");
  EXPECT_EQ(aggregate.state_type, "tuple<int, bigint>");
  EXPECT_EQ(aggregate.final_function, "avg_final");
  ASSERT_TRUE(aggregate.initial_condition);
  EXPECT_EQ(aggregate.initial_condition->kind, Term::Kind::kTuple);

  auto drop = Parse<DropFunctionStatement>("DROP FUNCTION IF EXISTS ks.f (int, text)");
  EXPECT_TRUE(drop.arguments_specified);
  EXPECT_EQ(drop.argument_types.size(), 2u);
  EXPECT_FALSE(Parse<DropFunctionStatement>("DROP FUNCTION f").arguments_specified);
  EXPECT_TRUE(Parse<DropAggregateStatement>("DROP AGGREGATE a ()").arguments_specified);
  EXPECT_EQ(ErrorOf("CREATE FUNCTION f() ON NULL INPUT RETURNS int LANGUAGE java AS ''"),
            "syntax: line 1:20 no viable alternative at input 'ON' (CREATE FUNCTION f() [ON]...)");
}

TEST(DdlParserTest, Triggers) {
  auto create = Parse<CreateTriggerStatement>(
      "CREATE TRIGGER IF NOT EXISTS audit ON ks.t USING 'org.example.Audit'");
  EXPECT_EQ(create.trigger, "audit");
  EXPECT_EQ(create.table.keyspace, "ks");
  EXPECT_EQ(create.trigger_class, "org.example.Audit");
  auto drop = Parse<DropTriggerStatement>("DROP TRIGGER IF EXISTS audit ON t");
  EXPECT_TRUE(drop.if_exists);
  EXPECT_EQ(drop.table.name, "t");
}

TEST(DdlParserTest, RolesAndUsers) {
  auto role = Parse<CreateRoleStatement>(
      "CREATE ROLE IF NOT EXISTS Admin WITH PASSWORD = 'secret' AND LOGIN = TRUE AND SUPERUSER = "
      "false AND OPTIONS = {'a': 1} AND ACCESS TO DATACENTERS {'dc1', 'dc2'}");
  EXPECT_EQ(role.role, "admin");
  EXPECT_FALSE(role.user_form);
  EXPECT_EQ(role.options.password, "secret");
  EXPECT_EQ(role.options.login, true);
  EXPECT_EQ(role.options.superuser, false);
  EXPECT_EQ(role.options.custom_options, (Entries{{"a", "1"}}));
  EXPECT_EQ(role.options.datacenters, (std::vector<std::string>{"dc1", "dc2"}));
  // Defaults filled in as Cassandra fills them in.
  auto bare = Parse<CreateRoleStatement>("CREATE ROLE 'Mixed Case'");
  EXPECT_EQ(bare.role, "Mixed Case");
  EXPECT_EQ(bare.options.login, false);
  EXPECT_EQ(bare.options.superuser, false);

  auto user = Parse<CreateRoleStatement>("CREATE USER Bob WITH PASSWORD 'pw' SUPERUSER");
  EXPECT_TRUE(user.user_form);
  EXPECT_EQ(user.role, "Bob");  // a user name keeps its case
  EXPECT_EQ(user.options.login, true);
  EXPECT_EQ(user.options.superuser, true);
  auto plain = Parse<CreateRoleStatement>("CREATE USER 'alice'");
  EXPECT_EQ(plain.options.superuser, false);

  auto alter = Parse<AlterRoleStatement>(
      "ALTER ROLE IF EXISTS r WITH HASHED PASSWORD = '$2a$10$x' AND ACCESS TO ALL DATACENTERS");
  EXPECT_TRUE(alter.if_exists);
  EXPECT_EQ(alter.options.hashed_password, "$2a$10$x");
  EXPECT_TRUE(alter.options.all_datacenters);
  EXPECT_FALSE(alter.options.login);
  auto alter_user = Parse<AlterRoleStatement>("ALTER USER IF EXISTS bob NOSUPERUSER");
  EXPECT_TRUE(alter_user.user_form);
  EXPECT_EQ(alter_user.options.superuser, false);
  EXPECT_TRUE(Parse<DropRoleStatement>("DROP USER IF EXISTS bob").user_form);
  EXPECT_EQ(Parse<DropRoleStatement>("DROP ROLE \"R\"").role, "R");

  EXPECT_EQ(ErrorOf("CREATE ROLE r WITH LOGIN = true AND LOGIN = false"),
            "syntax: Multiple definition for property 'LOGIN'");
  EXPECT_EQ(ErrorOf("CREATE ROLE r WITH PASSWORD = 'a' AND HASHED PASSWORD = 'b'"),
            "syntax: Options 'password' and 'hashed password' are mutually exclusive");
  EXPECT_EQ(ErrorOf("CREATE ROLE r WITH ACCESS TO ALL DATACENTERS AND ACCESS TO DATACENTERS "
                    "{'dc1'}"),
            "syntax: Failed parsing statement: [CREATE ROLE r WITH ACCESS TO ALL DATACENTERS AND "
            "ACCESS TO DATACENTERS {'dc1'}] reason: IllegalArgumentException All has been set");
  EXPECT_EQ(ErrorOf("CREATE USER \"bob\""),
            "syntax: Quoted strings are are not supported for user names and USER is deprecated, "
            "please use ROLE");
  EXPECT_EQ(ErrorOf("CREATE ROLE ?"), "syntax: Bind variables cannot be used for role names");
  EXPECT_EQ(
      ErrorOf("CREATE ROLE r WITH LOGIN = 1"),
      "syntax: line 1:27 mismatched input '1' expecting BOOLEAN (...ROLE r WITH LOGIN = [1])");
}

}  // namespace
}  // namespace sibyl::cql
