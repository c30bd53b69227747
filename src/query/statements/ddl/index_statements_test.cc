// CREATE [CUSTOM] INDEX and DROP INDEX through the statement layer: the
// schema change, the stored index (system_schema.indexes), default names,
// and Cassandra 4.1's errors in its order.

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace sibyl::query {
namespace {

using protocol::SchemaChange;

class IndexDdlTest : public testing::QueryTest {
 protected:
  void SetUp() override {
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    client_.keyspace = "ks";
    Run("CREATE TABLE t (k int, c int, v int, s int static, l list<int>, fl frozen<list<int>>, "
        "st set<text>, m map<text, int>, fm frozen<map<text, int>>, d duration, "
        "ld list<duration>, td tuple<int, duration>, tup tuple<int, text>, "
        "PRIMARY KEY (k, c))");
  }

  Result Run(std::string_view query) { return processor_.Process(query, {}, client_); }

  SchemaChange Change(std::string_view query) {
    Result result = Run(query);
    EXPECT_TRUE(std::holds_alternative<SchemaChangeResult>(result)) << query;
    if (!std::holds_alternative<SchemaChangeResult>(result)) return {};
    return std::get<SchemaChangeResult>(result).change;
  }

  void ExpectVoid(std::string_view query) {
    EXPECT_TRUE(std::holds_alternative<VoidResult>(Run(query))) << query;
  }

  void ExpectError(std::string_view query, std::string_view message,
                   ErrorCode code = ErrorCode::kInvalid) {
    CqlError e = Error(query);
    EXPECT_EQ(e.code(), code) << query << ": " << e.what();
    EXPECT_EQ(std::string(e.what()), message) << query;
  }

  schema::TablePtr Table(std::string_view table) {
    return store_.snapshot()->FindTable("ks", table);
  }

  // The index `name` of ks.`table`, or nullptr.
  const schema::IndexMetadata* Index(std::string_view table, std::string_view name) {
    schema::TablePtr t = Table(table);
    if (!t) return nullptr;
    for (const auto& index : t->indexes) {
      if (index.name == name) return &index;
    }
    return nullptr;
  }

  // The target option of index `name` on ks.t.
  std::string Target(std::string_view name) {
    const schema::IndexMetadata* index = Index("t", name);
    if (index == nullptr) return "<none>";
    return index->options.at("target");
  }

  std::vector<std::string> IndexNames(std::string_view table) {
    std::vector<std::string> names;
    for (const auto& index : Table(table)->indexes) names.push_back(index.name);
    return names;
  }

  using Names = std::vector<std::string>;
};

TEST_F(IndexDdlTest, CreateIndexAnnouncesTheTableAndIsStored) {
  Run("CREATE TABLE user_activities (user_id uuid, activity_timestamp timestamp, "
      "activity_type text, activity_data text, device_info text, ip_address text, "
      "PRIMARY KEY (user_id, activity_timestamp)) "
      "WITH CLUSTERING ORDER BY (activity_timestamp DESC)");
  SchemaChange change = Change("CREATE INDEX ON user_activities (activity_type)");
  EXPECT_EQ(change.type, SchemaChange::Type::kUpdated);
  EXPECT_EQ(change.target, SchemaChange::Target::kTable);
  EXPECT_EQ(change.keyspace, "ks");
  EXPECT_EQ(change.name, "user_activities");
  const schema::IndexMetadata* index =
      Index("user_activities", "user_activities_activity_type_idx");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->kind, "COMPOSITES");
  EXPECT_EQ(index->options, (std::map<std::string, std::string>{{"target", "activity_type"}}));

  Run("CREATE TABLE user_accounts (user_id uuid PRIMARY KEY, email text, country text)");
  change = Change("CREATE INDEX user_account_country ON ks.user_accounts(country)");
  EXPECT_EQ(change.name, "user_accounts");
  RowsResult rows = Rows(
      "SELECT table_name, index_name, kind FROM system_schema.indexes "
      "WHERE keyspace_name = 'ks'");
  EXPECT_EQ(Texts(rows, 0), (Names{"user_accounts", "user_activities"}));
  EXPECT_EQ(Texts(rows, 1), (Names{"user_account_country", "user_activities_activity_type_idx"}));
  EXPECT_EQ(Texts(rows, 2), (Names{"COMPOSITES", "COMPOSITES"}));
}

TEST_F(IndexDdlTest, EveryIndexGetsItsOwnId) {
  Run("CREATE INDEX i ON t (v)");
  const types::Uuid first = Index("t", "i")->id;
  Run("DROP INDEX i");
  Run("CREATE INDEX i ON t (v)");
  EXPECT_NE(Index("t", "i")->id, first);
}

TEST_F(IndexDdlTest, DefaultNamesAreNumberedAcrossTheKeyspace) {
  Run("CREATE TABLE \"My_Table\" (k int PRIMARY KEY, \"Odd Col!\" int, v int)");
  Run("CREATE INDEX ON \"My_Table\" (\"Odd Col!\")");
  EXPECT_EQ(IndexNames("My_Table"), (Names{"My_Table_OddCol_idx"}));
  // t_v_idx is taken by an index of another table: names are per keyspace.
  Run("CREATE TABLE other (k int PRIMARY KEY, v int)");
  Run("CREATE INDEX t_v_idx ON other (v)");
  Run("CREATE INDEX ON t (v)");
  Run("CREATE INDEX t_v_idx_2 ON t (s)");
  Run("CREATE INDEX ON t (values(l))");
  Run("CREATE INDEX ON t (c)");
  EXPECT_EQ(IndexNames("t"), (Names{"t_v_idx_1", "t_v_idx_2", "t_l_idx", "t_c_idx"}));
}

TEST_F(IndexDdlTest, TargetsAreStoredAsCassandraWritesThem) {
  Run("CREATE INDEX i_l ON t (l)");
  Run("CREATE INDEX i_st ON t (values(st))");
  Run("CREATE INDEX i_mk ON t (keys(m))");
  Run("CREATE INDEX i_mv ON t (m)");
  Run("CREATE INDEX i_me ON t (entries(m))");
  Run("CREATE INDEX i_fl ON t (full(fl))");
  Run("CREATE INDEX i_fm ON t (FULL(fm))");
  Run("CREATE INDEX i_s ON t (s)");
  Run("CREATE INDEX i_c ON t (c)");
  Run("CREATE INDEX i_tup ON t (tup)");
  Run("CREATE TABLE q (k int, \"Key\" int, \"Val\" int, PRIMARY KEY ((k, \"Key\")))");
  Run("CREATE INDEX i_q ON q (\"Key\")");
  Run("CREATE INDEX i_q2 ON q (\"Val\")");
  EXPECT_EQ(Target("i_l"), "values(l)");
  EXPECT_EQ(Target("i_st"), "values(st)");
  EXPECT_EQ(Target("i_mk"), "keys(m)");
  EXPECT_EQ(Target("i_mv"), "values(m)");
  EXPECT_EQ(Target("i_me"), "entries(m)");
  EXPECT_EQ(Target("i_fl"), "full(fl)");
  EXPECT_EQ(Target("i_fm"), "full(fm)");
  EXPECT_EQ(Target("i_s"), "s");
  EXPECT_EQ(Target("i_c"), "c");
  EXPECT_EQ(Target("i_tup"), "tup");
  EXPECT_EQ(Index("q", "i_q")->options.at("target"), "\"Key\"");
  EXPECT_EQ(Index("q", "i_q2")->options.at("target"), "\"Val\"");
}

TEST_F(IndexDdlTest, ExistingNamesAndDuplicates) {
  Run("CREATE INDEX i ON t (v)");
  ExpectError("CREATE INDEX i ON t (s)", "Index 'i' already exists");
  // IF NOT EXISTS is a no-op even when the existing index has another target.
  ExpectVoid("CREATE INDEX IF NOT EXISTS i ON t (s)");
  EXPECT_EQ(Target("i"), "v");
  // Names are unique in the keyspace.
  Run("CREATE TABLE other (k int PRIMARY KEY, v int)");
  ExpectError("CREATE INDEX i ON other (v)", "Index 'i' already exists");
  // An index equal in all but name.
  ExpectError("CREATE INDEX j ON t (v)", "Index j is a duplicate of existing index i");
  ExpectError("CREATE INDEX ON t (v)", "Index t_v_idx is a duplicate of existing index i");
  ExpectVoid("CREATE INDEX IF NOT EXISTS j ON t (v)");
  Run("CREATE INDEX il ON t (l)");
  ExpectError("CREATE INDEX il2 ON t (values(l))", "Index il2 is a duplicate of existing index il");
  // Another kind is not a duplicate.
  Run("CREATE CUSTOM INDEX j ON t (v) USING 'sai'");
  EXPECT_EQ(IndexNames("t"), (Names{"i", "il", "j"}));
}

TEST_F(IndexDdlTest, ErrorsInCassandrasOrder) {
  ExpectError("CREATE INDEX ON nope.t (v)", "Keyspace 'nope' doesn't exist");
  ExpectError("CREATE INDEX ON nope (v)", "Table 'nope' doesn't exist");
  Run("CREATE TABLE counts (k int PRIMARY KEY, n counter)");
  ExpectError("CREATE INDEX ON counts (n)", "Secondary indexes on counter tables aren't supported");
  ExpectError("CREATE INDEX ON t (x)", "Undefined column name x in table ks.t");
  ExpectError("CREATE INDEX ON t (\"V\")", "Undefined column name \"V\" in table ks.t");
  ExpectError("CREATE INDEX ON t ()",
              "Only CUSTOM indexes can be created without specifying a target column");
  ExpectError("CREATE INDEX ON t (v, s)", "Only CUSTOM indexes support multiple columns");
  ExpectError("CREATE CUSTOM INDEX ON t (v, v) USING 'sai'",
              "Duplicate column 'v' in index target list");
  ExpectError("CREATE INDEX ON t (d)", "Secondary indexes are not supported on duration columns");
  ExpectError("CREATE INDEX ON t (ld)",
              "Secondary indexes are not supported on collections containing durations");
  ExpectError("CREATE INDEX ON t (td)",
              "Secondary indexes are not supported on tuples containing durations");
  Run("CREATE TYPE ud (a int, b duration)");
  Run("CREATE TYPE u (a int, b text)");
  Run("CREATE TABLE withudt (k int PRIMARY KEY, fd frozen<ud>, nu u, fu frozen<u>)");
  ExpectError("CREATE INDEX ON withudt (fd)",
              "Secondary indexes are not supported on UDTs containing durations");
  ExpectError("CREATE INDEX ON withudt (nu)", "Cannot create index on non-frozen UDT column nu");
  Run("CREATE INDEX ON withudt (fu)");
  ExpectError("CREATE INDEX ON t (k)",
              "Cannot create secondary index on the only partition key column k");
  ExpectError("CREATE INDEX ON t (fl)",
              "Cannot create values() index on frozen column fl. Frozen collections are immutable "
              "and must be fully indexed by using the 'full(fl)' modifier");
  ExpectError("CREATE INDEX ON t (keys(fm))",
              "Cannot create keys() index on frozen column fm. Frozen collections are immutable "
              "and must be fully indexed by using the 'full(fm)' modifier");
  ExpectError("CREATE INDEX ON t (full(l))",
              "full() indexes can only be created on frozen collections");
  ExpectError("CREATE INDEX ON t (full(v))",
              "full() indexes can only be created on frozen collections");
  ExpectError("CREATE INDEX ON t (values(v))",
              "Cannot create values() index on v. Non-collection columns only support simple "
              "indexes");
  ExpectError("CREATE INDEX ON t (entries(tup))",
              "Cannot create entries() index on tup. Non-collection columns only support simple "
              "indexes");
  ExpectError("CREATE INDEX ON t (keys(l))",
              "Cannot create index on keys of column l with non-map type");
  ExpectError("CREATE INDEX ON t (entries(st))",
              "Cannot create index on entries of column st with non-map type");
  ExpectError("CREATE INDEX \"bad name\" ON t (v)", "Illegal index name bad name",
              ErrorCode::kConfigError);
  // 4.1's grammar takes no keyspace before the index name (idxName).
  EXPECT_EQ(Error("CREATE INDEX ks.i ON ks.t (v)").code(), ErrorCode::kSyntaxError);
  // A key column of a composite partition key may be indexed.
  Run("CREATE TABLE composite (a int, b int, PRIMARY KEY ((a, b)))");
  Run("CREATE INDEX ON composite (a)");
}

TEST_F(IndexDdlTest, SystemKeyspacesAndNoKeyspace) {
  ExpectError("CREATE INDEX ON system.local (cluster_name)",
              "system keyspace is not user-modifiable.", ErrorCode::kUnauthorized);
  client_.keyspace.reset();
  ExpectError("CREATE INDEX ON t (v)",
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  ExpectError("DROP INDEX i",
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  ExpectError("DROP INDEX system_auth.i", "Index 'system_auth.i' doesn't exist'");
}

TEST_F(IndexDdlTest, IndexAttributes) {
  ExpectError("CREATE CUSTOM INDEX ON t (v)", "CUSTOM index requires specifiying the index class");
  ExpectError("CREATE INDEX ON t (v) USING 'sai'",
              "Cannot specify index class for a non-CUSTOM index");
  ExpectError("CREATE INDEX ON t (v) WITH OPTIONS = {'a': 'b'}",
              "Cannot specify options for a non-CUSTOM index");
  ExpectError("CREATE CUSTOM INDEX ON t (v) USING 'sai' WITH OPTIONS = {'target': 'x'}",
              "Cannot specify target as a CUSTOM option");
  ExpectError("CREATE CUSTOM INDEX ON t (v) USING 'sai' WITH OPTIONS = {'class_name': 'x'}",
              "Cannot specify class_name as a CUSTOM option");
  ExpectError("CREATE CUSTOM INDEX ON t (v) USING 'sai' WITH foo = 'x'", "Unknown property 'foo'",
              ErrorCode::kSyntaxError);
}

TEST_F(IndexDdlTest, CustomIndexes) {
  const std::string sai = "org.apache.cassandra.index.sai.StorageAttachedIndex";
  Run("CREATE CUSTOM INDEX a ON t (v) USING 'sai'");
  Run("CREATE CUSTOM INDEX b ON t (s) USING 'StorageAttachedIndex' "
      "WITH OPTIONS = {'case_sensitive': 'false'}");
  Run("CREATE CUSTOM INDEX ON t (l) USING 'org.apache.cassandra.index.sai.StorageAttachedIndex'");
  Run("CREATE CUSTOM INDEX ON t (keys(m)) USING 'storageattachedINDEX'");
  const schema::IndexMetadata* a = Index("t", "a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind, "CUSTOM");
  EXPECT_EQ(a->options, (std::map<std::string, std::string>{{"class_name", sai}, {"target", "v"}}));
  EXPECT_EQ(Index("t", "b")->options,
            (std::map<std::string, std::string>{
                {"case_sensitive", "false"}, {"class_name", sai}, {"target", "s"}}));
  EXPECT_EQ(Target("t_l_idx"), "values(l)");
  EXPECT_EQ(Target("t_m_idx"), "keys(m)");
  // The alias names the same class, so this duplicates a.
  ExpectError("CREATE CUSTOM INDEX c ON t (v) USING 'StorageAttachedIndex'",
              "Index c is a duplicate of existing index a");

  ExpectError("CREATE CUSTOM INDEX ON t (v) USING 'org.apache.cassandra.index.sasi.SASIIndex'",
              "SASI indexes are disabled. Enable in cassandra.yaml to use.");
  // SASI comes before the keyspace check.
  ExpectError("CREATE CUSTOM INDEX ON nope.t (v) USING 'org.apache.cassandra.index.sasi.SASIIndex'",
              "SASI indexes are disabled. Enable in cassandra.yaml to use.");
  // 4.1 refuses SASI as disabled by its full class name only; it would look
  // 'SASIIndex' up as a class (and not find it).
  ExpectError("CREATE CUSTOM INDEX ON t (c) USING 'SASIIndex'",
              "Sibyl has no implementation of the custom index class 'SASIIndex'; it serves the "
              "storage-attached index ('sai', 'StorageAttachedIndex', "
              "'org.apache.cassandra.index.sai.StorageAttachedIndex') and CREATE INDEX");
  ExpectError("CREATE CUSTOM INDEX ON t (c) USING 'com.example.MyIndex'",
              "Sibyl has no implementation of the custom index class 'com.example.MyIndex'; it "
              "serves the storage-attached index ('sai', 'StorageAttachedIndex', "
              "'org.apache.cassandra.index.sai.StorageAttachedIndex') and CREATE INDEX");
  ExpectError("CREATE CUSTOM INDEX ON t (c, v) USING 'sai'",
              "Sibyl's storage-attached index indexes exactly one column");
  ExpectError("CREATE CUSTOM INDEX ON t () USING 'sai'",
              "Sibyl's storage-attached index indexes exactly one column");
  // SAI takes the same targets as CREATE INDEX.
  ExpectError("CREATE CUSTOM INDEX ON t (fl) USING 'sai'",
              "Cannot create values() index on frozen column fl. Frozen collections are immutable "
              "and must be fully indexed by using the 'full(fl)' modifier");
}

TEST_F(IndexDdlTest, DropIndex) {
  Run("CREATE INDEX i ON t (v)");
  Run("CREATE TABLE other (k int PRIMARY KEY, v int)");
  Run("CREATE INDEX j ON other (v)");
  SchemaChange change = Change("DROP INDEX j");
  EXPECT_EQ(change.type, SchemaChange::Type::kUpdated);
  EXPECT_EQ(change.target, SchemaChange::Target::kTable);
  EXPECT_EQ(change.keyspace, "ks");
  EXPECT_EQ(change.name, "other");
  EXPECT_TRUE(Table("other")->indexes.empty());
  ExpectError("DROP INDEX j", "Index 'ks.j' doesn't exist'");
  ExpectError("DROP INDEX nope.j", "Index 'nope.j' doesn't exist'");
  ExpectVoid("DROP INDEX IF EXISTS j");
  ExpectVoid("DROP INDEX IF EXISTS nope.j");
  client_.keyspace.reset();
  change = Change("DROP INDEX ks.i");
  EXPECT_EQ(change.name, "t");
  RowsResult rows = Rows("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = 'ks'");
  EXPECT_TRUE(rows.rows.empty());
}

TEST_F(IndexDdlTest, DropTableTakesItsIndexes) {
  Run("CREATE TABLE other (k int PRIMARY KEY, v int)");
  Run("CREATE INDEX i ON other (v)");
  Run("CREATE INDEX ON t (v)");
  Run("DROP TABLE other");
  RowsResult rows = Rows("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = 'ks'");
  EXPECT_EQ(Texts(rows, 0), (Names{"t_v_idx"}));
  // The name is free again.
  Run("CREATE INDEX i ON t (s)");
  EXPECT_EQ(Target("i"), "s");
}

TEST_F(IndexDdlTest, AlterTableKeepsIndexedColumns) {
  Run("CREATE INDEX i ON t (v)");
  Run("CREATE INDEX i2 ON t (keys(m))");
  Run("CREATE CUSTOM INDEX i3 ON t (m) USING 'sai'");
  Run("CREATE INDEX ic ON t (c)");
  ExpectError("ALTER TABLE t DROP v",
              "Cannot drop column v because it has dependent secondary "
              "indexes (i)");
  ExpectError("ALTER TABLE t DROP (s, m)",
              "Cannot drop column m because it has dependent secondary indexes (i2, i3)");
  EXPECT_NE(Table("t")->FindColumn("s"), nullptr);  // nothing was dropped
  ExpectError("ALTER TABLE t RENAME c TO c2",
              "Can't rename column c because it has dependent secondary indexes (ic)");
  Run("ALTER TABLE t DROP s");
  Run("DROP INDEX ic");
  Run("ALTER TABLE t RENAME c TO c2");
  EXPECT_NE(Table("t")->FindColumn("c2"), nullptr);
}

}  // namespace
}  // namespace sibyl::query
