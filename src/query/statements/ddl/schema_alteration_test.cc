// DDL through the statement layer: results and events as Cassandra 4.1
// sends them, errors with their codes and messages, and the schema
// system_schema then shows.

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace sibyl::query {
namespace {

using protocol::SchemaChange;

class DdlTest : public testing::QueryTest {
 protected:
  Result Run(std::string_view query) { return processor_.Process(query, {}, client_); }

  SchemaChange Change(std::string_view query) {
    Result result = Run(query);
    EXPECT_TRUE(std::holds_alternative<SchemaChangeResult>(result)) << query;
    if (!std::holds_alternative<SchemaChangeResult>(result)) return {};
    return std::get<SchemaChangeResult>(result).change;
  }

  void ExpectError(std::string_view query, ErrorCode code, std::string_view message) {
    CqlError e = Error(query);
    EXPECT_EQ(e.code(), code) << query << ": " << e.what();
    EXPECT_EQ(std::string(e.what()), message) << query;
  }

  void CreateKeyspace(std::string_view name = "ks") {
    (void)Run("CREATE KEYSPACE " + std::string(name) +
              " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  }

  schema::TablePtr Table(std::string_view keyspace, std::string_view table) {
    return store_.snapshot()->FindTable(keyspace, table);
  }
};

TEST_F(DdlTest, CreateKeyspaceAnnouncesItAndShowsInSystemSchema) {
  SchemaChange change = Change(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
  EXPECT_EQ(change.type, SchemaChange::Type::kCreated);
  EXPECT_EQ(change.target, SchemaChange::Target::kKeyspace);
  EXPECT_EQ(change.keyspace, "ks");
  const auto* ks = store_.snapshot()->FindKeyspace("ks");
  ASSERT_NE(ks, nullptr);
  EXPECT_EQ(ks->replication, (std::map<std::string, std::string>{
                                 {"class", "org.apache.cassandra.locator.SimpleStrategy"},
                                 {"replication_factor", "2"}}));
  RowsResult rows =
      Rows("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = 'ks'");
  EXPECT_EQ(rows.rows.size(), 1u);
}

TEST_F(DdlTest, SchemaVersionChangesWithEachChange) {
  const types::Uuid before = store_.snapshot()->version();
  CreateKeyspace();
  const types::Uuid after = store_.snapshot()->version();
  EXPECT_NE(before, after);
  (void)Run("ALTER KEYSPACE ks WITH durable_writes = false");
  EXPECT_NE(store_.snapshot()->version(), after);
}

TEST_F(DdlTest, IfNotExistsOnAnExistingKeyspaceIsVoid) {
  CreateKeyspace();
  Result result =
      Run("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 3}");
  EXPECT_TRUE(std::holds_alternative<VoidResult>(result));
  EXPECT_EQ(store_.snapshot()->FindKeyspace("ks")->replication.at("replication_factor"), "1");
}

TEST_F(DdlTest, ExistingKeyspaceIsAlreadyExists) {
  CreateKeyspace();
  CqlError e = Error(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  EXPECT_EQ(e.code(), ErrorCode::kAlreadyExists);
  EXPECT_STREQ(e.what(), "Cannot add existing keyspace \"ks\"");
  const auto& info = std::get<AlreadyExistsInfo>(e.detail());
  EXPECT_EQ(info.keyspace, "ks");
  EXPECT_EQ(info.table, "");
}

TEST_F(DdlTest, ReplicationDefaultsAndExpansion) {
  (void)Run("CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy'}");
  EXPECT_EQ(store_.snapshot()->FindKeyspace("a")->replication.at("replication_factor"), "1");
  (void)Run(
      "CREATE KEYSPACE b WITH replication = {'class': "
      "'org.apache.cassandra.locator.NetworkTopologyStrategy', 'replication_factor': 3}");
  EXPECT_EQ(store_.snapshot()->FindKeyspace("b")->replication,
            (std::map<std::string, std::string>{
                {"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
                {"datacenter1", "3"}}));
}

TEST_F(DdlTest, KeyspaceErrorsAreCassandras) {
  ExpectError("CREATE KEYSPACE k WITH durable_writes = true", ErrorCode::kInvalid,
              "Missing mandatory option 'replication'");
  ExpectError("CREATE KEYSPACE k WITH replication = {'replication_factor': 1}",
              ErrorCode::kConfigError, "Missing replication strategy class");
  ExpectError("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'foo': 1}",
              ErrorCode::kConfigError,
              "Unrecognized strategy option {foo} passed to SimpleStrategy for keyspace k");
  ExpectError(
      "CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'dc9': 1}",
      ErrorCode::kConfigError,
      "Unrecognized strategy option {dc9} passed to NetworkTopologyStrategy for keyspace k");
  ExpectError("CREATE KEYSPACE k WITH replication = {'class': 'Nope'}", ErrorCode::kConfigError,
              "Unable to find replication strategy class 'org.apache.cassandra.locator.Nope'");
  ExpectError(
      "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': -1}",
      ErrorCode::kConfigError, "Replication factor must be non-negative, found -1");
  ExpectError(
      "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
      "'x'}",
      ErrorCode::kConfigError, "For input string: \"x\"");
  ExpectError("CREATE KEYSPACE k WITH replication = {'class': 'LocalStrategy'}",
              ErrorCode::kInvalid,
              "Unable to use given strategy class: LocalStrategy is reserved for internal use.");
  ExpectError("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'} AND foo = 1",
              ErrorCode::kSyntaxError, "Unknown property 'foo'");
  ExpectError("CREATE KEYSPACE \"a-b\" WITH replication = {'class': 'SimpleStrategy'}",
              ErrorCode::kInvalid,
              "Keyspace name must not be empty, more than 48 characters long, or contain "
              "non-alphanumeric-underscore characters (got 'a-b')");
  ExpectError("DROP KEYSPACE nosuch", ErrorCode::kInvalid, "Keyspace 'nosuch' doesn't exist");
  ExpectError("ALTER KEYSPACE nosuch WITH durable_writes = true", ErrorCode::kInvalid,
              "Keyspace 'nosuch' doesn't exist");
}

TEST_F(DdlTest, SystemKeyspacesAreProtected) {
  ExpectError("DROP KEYSPACE system", ErrorCode::kUnauthorized,
              "system keyspace is not user-modifiable.");
  ExpectError("ALTER KEYSPACE system_schema WITH durable_writes = true", ErrorCode::kUnauthorized,
              "system_schema keyspace is not user-modifiable.");
  ExpectError("DROP KEYSPACE system_auth", ErrorCode::kUnauthorized,
              "Cannot DROP <keyspace system_auth>");
  ExpectError("CREATE TABLE system_auth.t (k int PRIMARY KEY)", ErrorCode::kUnauthorized,
              "Cannot CREATE <keyspace system_auth>");
  ExpectError("DROP TABLE system_auth.roles", ErrorCode::kUnauthorized,
              "Cannot DROP <table system_auth.roles>");
  ExpectError("CREATE KEYSPACE system WITH replication = {'class': 'SimpleStrategy'}",
              ErrorCode::kInvalid, "System keyspace 'system' is not user-modifiable");
  // The replication of a replicated system keyspace may change.
  SchemaChange change = Change(
      "ALTER KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 2}");
  EXPECT_EQ(change.type, SchemaChange::Type::kUpdated);
}

TEST_F(DdlTest, CreateTableBuildsKeysInOrder) {
  CreateKeyspace();
  SchemaChange change = Change(
      "CREATE TABLE ks.t (a int, b text, c timeuuid, d double, s text static, m map<text, int>, "
      "PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)");
  EXPECT_EQ(change.type, SchemaChange::Type::kCreated);
  EXPECT_EQ(change.target, SchemaChange::Target::kTable);
  EXPECT_EQ(change.keyspace, "ks");
  EXPECT_EQ(change.name, "t");
  schema::TablePtr t = Table("ks", "t");
  ASSERT_TRUE(t);
  std::vector<std::string> names;
  for (const auto& c : t->columns) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d", "m", "s"}));
  EXPECT_EQ(t->columns[2].order, schema::ClusteringOrder::kDesc);
  EXPECT_EQ(t->columns[3].order, schema::ClusteringOrder::kAsc);
  EXPECT_EQ(t->columns[5].kind, schema::ColumnKind::kStatic);
  EXPECT_EQ(t->flags, (std::set<std::string>{"compound"}));

  RowsResult rows = Rows(
      "SELECT column_name, clustering_order, kind, position, type FROM system_schema.columns "
      "WHERE keyspace_name = 'ks' AND table_name = 't'");
  ASSERT_EQ(rows.rows.size(), 6u);
  // Rows come in column_name order: a b c d m s.
  EXPECT_EQ(Texts(rows, 1),
            (std::vector<std::string>{"none", "none", "desc", "asc", "none", "none"}));
  EXPECT_EQ(Texts(rows, 2),
            (std::vector<std::string>{"partition_key", "partition_key", "clustering", "clustering",
                                      "regular", "static"}));
  EXPECT_EQ(Texts(rows, 4), (std::vector<std::string>{"int", "text", "timeuuid", "double",
                                                      "map<text, int>", "text"}));
}

TEST_F(DdlTest, CreateTableInSessionKeyspaceAndAlreadyExists) {
  CreateKeyspace();
  ExpectError("CREATE TABLE t (k int PRIMARY KEY)", ErrorCode::kInvalid,
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  (void)Run("USE ks");
  (void)Run("CREATE TABLE t (k int PRIMARY KEY)");
  CqlError e = Error("CREATE TABLE t (k int PRIMARY KEY)");
  EXPECT_EQ(e.code(), ErrorCode::kAlreadyExists);
  EXPECT_STREQ(e.what(), "Cannot add already existing table \"t\" to keyspace \"ks\"");
  const auto& info = std::get<AlreadyExistsInfo>(e.detail());
  EXPECT_EQ(info.keyspace, "ks");
  EXPECT_EQ(info.table, "t");
  EXPECT_TRUE(
      std::holds_alternative<VoidResult>(Run("CREATE TABLE IF NOT EXISTS t (k int PRIMARY KEY)")));
}

TEST_F(DdlTest, CreateTableErrorsAreCassandras) {
  CreateKeyspace();
  ExpectError("CREATE TABLE nosuch.t (k int PRIMARY KEY)", ErrorCode::kInvalid,
              "Keyspace 'nosuch' doesn't exist");
  ExpectError("CREATE TABLE ks.t (k int, v int)", ErrorCode::kInvalid,
              "No PRIMARY KEY specifed for table 'ks.t' (exactly one required)");
  ExpectError("CREATE TABLE ks.t (k int, PRIMARY KEY (x))", ErrorCode::kInvalid,
              "Unknown column 'x' referenced in PRIMARY KEY for table 't'");
  ExpectError("CREATE TABLE ks.t (k list<int>, PRIMARY KEY (k))", ErrorCode::kInvalid,
              "Invalid non-frozen collection type list<int> for PRIMARY KEY column 'k'");
  ExpectError("CREATE TABLE ks.t (k counter PRIMARY KEY)", ErrorCode::kInvalid,
              "counter type is not supported for PRIMARY KEY column 'k'");
  ExpectError("CREATE TABLE ks.t (k duration PRIMARY KEY)", ErrorCode::kInvalid,
              "duration type is not supported for PRIMARY KEY column 'k'");
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY, s int static)", ErrorCode::kInvalid,
              "Static columns are only useful (and thus allowed) if the table has at least one "
              "clustering column");
  ExpectError("CREATE TABLE ks.t (k int, c int static, PRIMARY KEY (k, c))", ErrorCode::kInvalid,
              "Static column 'c' cannot be part of the PRIMARY KEY");
  ExpectError(
      "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c)) WITH CLUSTERING "
      "ORDER BY (v DESC)",
      ErrorCode::kInvalid, "Missing CLUSTERING ORDER for column c");
  ExpectError(
      "CREATE TABLE ks.t (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING "
      "ORDER BY (b DESC, a ASC)",
      ErrorCode::kInvalid,
      "The order of columns in the CLUSTERING ORDER directive must match that of the "
      "clustering columns (a must appear before b)");
  ExpectError(
      "CREATE TABLE ks.t (k int, c int, PRIMARY KEY (k)) WITH CLUSTERING ORDER BY (c "
      "DESC)",
      ErrorCode::kInvalid, "Only clustering columns can be defined in CLUSTERING ORDER directive");
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY, c counter, v int)", ErrorCode::kInvalid,
              "Cannot mix counter and non counter columns in the same table");
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY, c counter) WITH default_time_to_live = 5",
              ErrorCode::kInvalid, "Cannot set default_time_to_live on a table with counters");
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY, a frozen<nope>)", ErrorCode::kInvalid,
              "Unknown type ks.nope");
  ExpectError("CREATE TABLE ks.\"bad-name\" (k int PRIMARY KEY)", ErrorCode::kConfigError,
              "ks.bad-name: Table name must not be empty, more than 48 characters long, or "
              "contain non-alphanumeric-underscore characters (got \"bad-name\")");
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY) WITH nope = 1", ErrorCode::kSyntaxError,
              "Unknown property 'nope'");
}

TEST_F(DdlTest, CounterTablesAreFlagged) {
  CreateKeyspace();
  (void)Run("CREATE TABLE ks.c (k int PRIMARY KEY, hits counter)");
  EXPECT_EQ(Table("ks", "c")->flags, (std::set<std::string>{"compound", "counter"}));
  ExpectError("ALTER TABLE ks.c ADD v int", ErrorCode::kConfigError,
              "ks.c: Cannot have a non counter column (\"v\") in a counter table");
}

TEST_F(DdlTest, TableOptionsAreApplied) {
  CreateKeyspace();
  (void)Run(
      "CREATE TABLE ks.t (k int PRIMARY KEY) WITH comment = 'c' AND gc_grace_seconds = 10 AND "
      "default_time_to_live = 60 AND compaction = {'class': 'LeveledCompactionStrategy', "
      "'sstable_size_in_mb': 64} AND compression = {'enabled': false} AND caching = {'keys': "
      "'NONE', 'rows_per_partition': 10} AND speculative_retry = '95PERCENTILE' AND "
      "additional_write_policy = '20ms' AND read_repair = 'none'");
  const schema::TableParams& p = Table("ks", "t")->params;
  EXPECT_EQ(p.comment, "c");
  EXPECT_EQ(p.gc_grace_seconds, 10);
  EXPECT_EQ(p.default_time_to_live, 60);
  EXPECT_EQ(p.compaction.at("class"),
            "org.apache.cassandra.db.compaction.LeveledCompactionStrategy");
  EXPECT_EQ(p.compaction.at("sstable_size_in_mb"), "64");
  EXPECT_EQ(p.bloom_filter_fp_chance, 0.1);  // LCS's default
  EXPECT_EQ(p.compression, (std::map<std::string, std::string>{{"enabled", "false"}}));
  EXPECT_EQ(p.caching,
            (std::map<std::string, std::string>{{"keys", "NONE"}, {"rows_per_partition", "10"}}));
  EXPECT_EQ(p.speculative_retry, "95p");
  EXPECT_EQ(p.additional_write_policy, "20ms");
  EXPECT_EQ(p.read_repair, "NONE");
}

TEST_F(DdlTest, AlterTableAddDropRenameWith) {
  CreateKeyspace();
  (void)Run("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
  SchemaChange change = Change("ALTER TABLE ks.t ADD (x int, y set<text>)");
  EXPECT_EQ(change.type, SchemaChange::Type::kUpdated);
  EXPECT_EQ(change.target, SchemaChange::Target::kTable);
  EXPECT_EQ(change.name, "t");
  EXPECT_NE(Table("ks", "t")->FindColumn("y"), nullptr);
  (void)Run("ALTER TABLE ks.t DROP x USING TIMESTAMP 1234000");
  const auto& dropped = Table("ks", "t")->dropped_columns;
  ASSERT_EQ(dropped.count("x"), 1u);
  EXPECT_EQ(dropped.at("x").dropped_time_micros, 1234000);
  RowsResult rows = Rows(
      "SELECT column_name, dropped_time, kind, type FROM system_schema.dropped_columns WHERE "
      "keyspace_name = 'ks' AND table_name = 't'");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(Texts(rows, 2), (std::vector<std::string>{"regular"}));
  (void)Run("ALTER TABLE ks.t RENAME c TO c2");
  EXPECT_NE(Table("ks", "t")->FindColumn("c2"), nullptr);
  (void)Run("ALTER TABLE ks.t WITH comment = 'now'");
  EXPECT_EQ(Table("ks", "t")->params.comment, "now");
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("ALTER TABLE ks.t WITH comment = 'now'")));
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("ALTER TABLE ks.t ADD IF NOT EXISTS v text")));
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("ALTER TABLE IF EXISTS ks.nope ADD a int")));
}

TEST_F(DdlTest, AlterTableErrorsAreCassandras) {
  CreateKeyspace();
  (void)Run("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
  ExpectError("ALTER TABLE ks.nope ADD a int", ErrorCode::kInvalid,
              "Table 'ks.nope' doesn't exist");
  ExpectError("ALTER TABLE ks.t ADD v int", ErrorCode::kInvalid,
              "Column with name 'v' already exists");
  ExpectError("ALTER TABLE ks.t DROP k", ErrorCode::kInvalid, "Cannot drop PRIMARY KEY column k");
  ExpectError("ALTER TABLE ks.t DROP nope", ErrorCode::kInvalid,
              "Column nope was not found in table 'ks.t'");
  ExpectError("ALTER TABLE ks.t RENAME v TO w", ErrorCode::kInvalid,
              "Cannot rename non PRIMARY KEY column v");
  ExpectError("ALTER TABLE ks.t RENAME c TO v", ErrorCode::kInvalid,
              "Cannot rename column c to v in table 'ks.t'; another column with that name "
              "already exists");
  ExpectError("ALTER TABLE ks.t ALTER v TYPE blob", ErrorCode::kInvalid,
              "Altering column types is no longer supported");
  ExpectError("ALTER TABLE ks.t ADD n counter", ErrorCode::kConfigError,
              "ks.t: Cannot have a counter column (\"n\") in a non counter table");
  ExpectError("ALTER TABLE ks.t WITH gc_grace_seconds = -1", ErrorCode::kConfigError,
              "gc_grace_seconds must be greater than or equal to 0 (got -1)");
  ExpectError("ALTER TABLE ks.t WITH id = '5f1e8b2a-0c3d-4e5f-8a9b-0c1d2e3f4a5b'",
              ErrorCode::kConfigError, "Cannot alter table id.");
  (void)Run("ALTER TABLE ks.t DROP v");
  ExpectError("ALTER TABLE ks.t ADD v int", ErrorCode::kInvalid,
              "Cannot re-add previously dropped column 'v' of type int, incompatible with "
              "previous type text");
  ExpectError("ALTER TABLE ks.t ADD v text static", ErrorCode::kInvalid,
              "Cannot re-add previously dropped column 'v' of kind STATIC, incompatible with "
              "previous kind REGULAR");
  (void)Run("ALTER TABLE ks.t ADD v text");
}

TEST_F(DdlTest, UserTypesResolveAlterAndProtectTheirUsers) {
  CreateKeyspace();
  SchemaChange change = Change("CREATE TYPE ks.phone (country int, number text)");
  EXPECT_EQ(change.target, SchemaChange::Target::kType);
  EXPECT_EQ(change.name, "phone");
  (void)Run("CREATE TYPE ks.address (street text, phones frozen<list<frozen<phone>>>)");
  (void)Run("CREATE TYPE ks.tags (names set<text>)");
  ExpectError("CREATE TABLE ks.x (k int PRIMARY KEY, t tags)", ErrorCode::kInvalid,
              "Non-frozen UDTs with nested non-frozen collections are not supported");
  (void)Run("DROP TYPE ks.tags");
  (void)Run("CREATE TABLE ks.u (k int PRIMARY KEY, home frozen<address>, work address)");
  schema::TablePtr u = Table("ks", "u");
  EXPECT_EQ(u->FindColumn("home")->type->ToCql(), "frozen<address>");
  EXPECT_EQ(u->FindColumn("work")->type->ToCql(), "address");
  EXPECT_EQ(u->FindColumn("home")->type->field_names().size(), 2u);

  ExpectError("DROP TYPE ks.phone", ErrorCode::kInvalid,
              "Cannot drop user type 'ks.phone' as it is still used by user types address");
  ExpectError("DROP TYPE ks.address", ErrorCode::kInvalid,
              "Cannot drop user type 'ks.address' as it is still used by tables u");
  ExpectError("CREATE TYPE ks.phone (a int)", ErrorCode::kInvalid,
              "A user type with name 'phone' already exists");
  ExpectError("CREATE TYPE ks.x (a int, a text)", ErrorCode::kInvalid,
              "Duplicate field name 'a' in type 'x'");
  ExpectError("CREATE TYPE ks.x (a counter)", ErrorCode::kInvalid,
              "A user type cannot contain counters");
  ExpectError("CREATE TYPE ks.x (a phone)", ErrorCode::kInvalid,
              "A user type cannot contain non-frozen UDTs");
  ExpectError("ALTER TYPE ks.phone ADD number int", ErrorCode::kInvalid,
              "Cannot add field number to type ks.phone: a field with name number already exists");
  ExpectError("ALTER TYPE ks.phone RENAME nope TO x", ErrorCode::kInvalid,
              "Unkown field nope in user type ks.phone");
  ExpectError("ALTER TYPE ks.nope ADD a int", ErrorCode::kInvalid, "Type ks.nope doesn't exist");
  ExpectError("DROP TYPE ks.nope", ErrorCode::kInvalid, "Type 'ks.nope' doesn't exist");

  // Adding a field reaches the tables and types that use the type.
  change = Change("ALTER TYPE ks.phone ADD ext int");
  EXPECT_EQ(change.type, SchemaChange::Type::kUpdated);
  const auto& address = store_.snapshot()->FindKeyspace("ks")->user_types.at("address");
  EXPECT_EQ(address->params()[1]->params()[0]->field_names().size(), 3u);
  EXPECT_EQ(
      Table("ks", "u")->FindColumn("home")->type->params()[1]->params()[0]->field_names().size(),
      3u);
  (void)Run("ALTER TYPE ks.phone RENAME ext TO extension");
  EXPECT_EQ(store_.snapshot()->FindKeyspace("ks")->user_types.at("phone")->field_names()[2],
            "extension");

  RowsResult rows = Rows(
      "SELECT type_name, field_names, field_types FROM system_schema.types WHERE keyspace_name = "
      "'ks'");
  EXPECT_EQ(rows.rows.size(), 2u);

  (void)Run("DROP TABLE ks.u");
  (void)Run("DROP TYPE ks.address");
  SchemaChange dropped = Change("DROP TYPE ks.phone");
  EXPECT_EQ(dropped.type, SchemaChange::Type::kDropped);
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("DROP TYPE IF EXISTS ks.phone")));
}

TEST_F(DdlTest, DropTableAndKeyspace) {
  CreateKeyspace();
  (void)Run("CREATE TABLE ks.t (k int PRIMARY KEY)");
  SchemaChange change = Change("DROP TABLE ks.t");
  EXPECT_EQ(change.type, SchemaChange::Type::kDropped);
  EXPECT_EQ(change.target, SchemaChange::Target::kTable);
  EXPECT_EQ(Table("ks", "t"), nullptr);
  ExpectError("DROP TABLE ks.t", ErrorCode::kInvalid, "Table 'ks.t' doesn't exist");
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("DROP TABLE IF EXISTS ks.t")));
  change = Change("DROP KEYSPACE ks");
  EXPECT_EQ(change.target, SchemaChange::Target::kKeyspace);
  EXPECT_TRUE(std::holds_alternative<VoidResult>(Run("DROP KEYSPACE IF EXISTS ks")));
}

TEST_F(DdlTest, PreparedStatementOnADroppedTableIsUnprepared) {
  CreateKeyspace();
  (void)Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  protocol::PreparedResult prepared =
      processor_.Prepare("SELECT v FROM ks.t WHERE k = ?", client_, std::nullopt);
  (void)Run("DROP TABLE ks.t");
  // Evicted with its table (prepared_eviction_test.cc); preparing it again fails.
  try {
    protocol::QueryParameters params;
    (void)processor_.Execute(prepared.id, params, client_);
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnprepared);
  }
  try {
    (void)processor_.Prepare("SELECT v FROM ks.t WHERE k = ?", client_, std::nullopt);
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(), "table t does not exist");
  }
}

TEST_F(DdlTest, PreparedDdlRunsAgainstTheNewestSchema) {
  CreateKeyspace();
  protocol::PreparedResult prepared = processor_.Prepare(
      "CREATE TABLE IF NOT EXISTS ks.t (k int PRIMARY KEY)", client_, std::nullopt);
  protocol::QueryParameters params;
  Result first = processor_.Execute(prepared.id, params, client_);
  EXPECT_TRUE(std::holds_alternative<SchemaChangeResult>(first));
  Result second = processor_.Execute(prepared.id, params, client_);
  EXPECT_TRUE(std::holds_alternative<VoidResult>(second));
}

}  // namespace
}  // namespace sibyl::query
