// Expected texts follow Cassandra 4.1's DESCRIBE output (DescribeStatementTest,
// with the table options 4.1 has: no allow_auto_snapshot / incremental_backups,
// which 5.0 added).

#include "schema/describe_cql.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"

namespace sibyl::schema {
namespace {

using types::CqlType;
using types::Kind;

// TableParams.appendCqlTo for default options, after "WITH " or "AND ".
const std::string kDefaultOptions =
    "additional_write_policy = '99p'\n"
    "    AND bloom_filter_fp_chance = 0.01\n"
    "    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n"
    "    AND cdc = false\n"
    "    AND comment = ''\n"
    "    AND compaction = {'class': "
    "'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', 'max_threshold': '32', "
    "'min_threshold': '4'}\n"
    "    AND compression = {'chunk_length_in_kb': '16', 'class': "
    "'org.apache.cassandra.io.compress.LZ4Compressor'}\n"
    "    AND memtable = 'default'\n"
    "    AND crc_check_chance = 1.0\n"
    "    AND default_time_to_live = 0\n"
    "    AND extensions = {}\n"
    "    AND gc_grace_seconds = 864000\n"
    "    AND max_index_interval = 2048\n"
    "    AND memtable_flush_period_in_ms = 0\n"
    "    AND min_index_interval = 128\n"
    "    AND read_repair = 'BLOCKING'\n"
    "    AND speculative_retry = '99p';";

KeyspaceMetadata Keyspace(std::string name, std::map<std::string, std::string> replication) {
  KeyspaceMetadata keyspace;
  keyspace.name = std::move(name);
  keyspace.replication = std::move(replication);
  return keyspace;
}

TEST(DescribeCqlTest, KeyspaceWithSimpleStrategy) {
  KeyspaceMetadata keyspace = Keyspace(
      "test",
      {{"class", "org.apache.cassandra.locator.SimpleStrategy"}, {"replication_factor", "1"}});
  EXPECT_EQ(KeyspaceCql(keyspace, false),
            "CREATE KEYSPACE test WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': '1'}  AND durable_writes = true;");
}

TEST(DescribeCqlTest, KeyspaceWithNetworkTopologyStrategyAndQuotedName) {
  KeyspaceMetadata keyspace =
      Keyspace("MyKs", {{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
                        {"dc2", "1"},
                        {"datacenter1", "3"}});
  keyspace.durable_writes = false;
  CqlTextOptions options;
  options.if_not_exists = true;
  EXPECT_EQ(KeyspaceCql(keyspace, false, options),
            "CREATE KEYSPACE IF NOT EXISTS \"MyKs\" WITH replication = {'class': "
            "'NetworkTopologyStrategy', 'datacenter1': '3', 'dc2': '1'}  AND durable_writes = "
            "false;");
}

TEST(DescribeCqlTest, KeyspaceStrategyOutsideCassandraLocatorKeepsItsFullName) {
  KeyspaceMetadata keyspace = Keyspace("ks", {{"class", "com.example.MyStrategy"}});
  EXPECT_EQ(KeyspaceCql(keyspace, false),
            "CREATE KEYSPACE ks WITH replication = {'class': 'com.example.MyStrategy'}  AND "
            "durable_writes = true;");
}

TEST(DescribeCqlTest, LocalSystemKeyspace) {
  SchemaPtr schema = MakeInitialSchema();
  EXPECT_EQ(KeyspaceCql(*schema->FindKeyspace("system"), false),
            "CREATE KEYSPACE system WITH replication = {'class': 'LocalStrategy'}  AND "
            "durable_writes = true;");
}

TEST(DescribeCqlTest, VirtualKeyspaceIsACommentedStructure) {
  KeyspaceMetadata keyspace = Keyspace("system_virtual_schema", {});
  EXPECT_EQ(KeyspaceCql(keyspace, true),
            "/*\n"
            "Warning: Keyspace system_virtual_schema is a virtual keyspace and cannot be "
            "recreated with CQL.\n"
            "Structure, for reference:\n"
            "VIRTUAL KEYSPACE system_virtual_schema;\n"
            "*/");
}

TEST(DescribeCqlTest, TableWithSingleColumnPrimaryKey) {
  TablePtr users = TableBuilder("test", "users")
                       .PartitionKey("userid", "text")
                       .Column("firstname", "text")
                       .Column("lastname", "text")
                       .Column("age", "int")
                       .Build();
  EXPECT_EQ(TableCql(*users, false),
            "CREATE TABLE test.users (\n"
            "    userid text PRIMARY KEY,\n"
            "    age int,\n"
            "    firstname text,\n"
            "    lastname text\n"
            ") WITH " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, PrimaryKeyOnlyTable) {
  TablePtr table = TableBuilder("ks", "t").PartitionKey("key", "int").Build();
  EXPECT_EQ(TableCql(*table, false),
            "CREATE TABLE ks.t (\n"
            "    key int PRIMARY KEY\n"
            ") WITH " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, QuotedTableWithClusteringColumn) {
  TablePtr table = TableBuilder("test", "Test")
                       .PartitionKey("id", "int")
                       .Clustering("col", "int")
                       .Column("val", "text")
                       .Build();
  EXPECT_EQ(TableCql(*table, false),
            "CREATE TABLE test.\"Test\" (\n"
            "    id int,\n"
            "    col int,\n"
            "    val text,\n"
            "    PRIMARY KEY (id, col)\n"
            ") WITH CLUSTERING ORDER BY (col ASC)\n"
            "    AND " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, WithInternalsAddsTheTableIdAndStaticColumnsComeFirst) {
  TablePtr table = TableBuilder("ks", "t")
                       .PartitionKey("pk1", "text")
                       .PartitionKey("pk2", "int")
                       .Clustering("c", "int")
                       .Static("s", "decimal")
                       .Column("v1", "text")
                       .Column("v2", "int")
                       .Column("v3", "int")
                       .Id(*types::Uuid::Parse("5a1c395e-b41f-11e5-9f22-ba0be0483c18"))
                       .Build();
  CqlTextOptions internals;
  internals.with_internals = true;
  EXPECT_EQ(TableCql(*table, false, internals),
            "CREATE TABLE ks.t (\n"
            "    pk1 text,\n"
            "    pk2 int,\n"
            "    c int,\n"
            "    s decimal static,\n"
            "    v1 text,\n"
            "    v2 int,\n"
            "    v3 int,\n"
            "    PRIMARY KEY ((pk1, pk2), c)\n"
            ") WITH ID = 5a1c395e-b41f-11e5-9f22-ba0be0483c18\n"
            "    AND CLUSTERING ORDER BY (c ASC)\n"
            "    AND " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, SingleColumnKeyWithInternals) {
  TablePtr table = TableBuilder("ks", "t")
                       .PartitionKey("pk", "text")
                       .Column("v1", "text")
                       .Id(*types::Uuid::Parse("00000000-0000-0000-0000-000000000001"))
                       .Build();
  CqlTextOptions internals;
  internals.with_internals = true;
  EXPECT_EQ(TableCql(*table, false, internals),
            "CREATE TABLE ks.t (\n"
            "    pk text PRIMARY KEY,\n"
            "    v1 text\n"
            ") WITH ID = 00000000-0000-0000-0000-000000000001\n"
            "    AND " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, MultiCellColumnsFollowSingleCellOnesAndDescOrderShows) {
  TablePtr table = TableBuilder("ks", "t")
                       .PartitionKey("pk1", "int")
                       .PartitionKey("pk2", "int")
                       .Clustering("ck1", "int")
                       .Clustering("ck2", "int", ClusteringOrder::kDesc)
                       .Column("reg1", "int")
                       .Column("reg2", "list<int>")
                       .Column("reg3", "int")
                       .Build();
  EXPECT_EQ(TableCql(*table, false),
            "CREATE TABLE ks.t (\n"
            "    pk1 int,\n"
            "    pk2 int,\n"
            "    ck1 int,\n"
            "    ck2 int,\n"
            "    reg1 int,\n"
            "    reg3 int,\n"
            "    reg2 list<int>,\n"
            "    PRIMARY KEY ((pk1, pk2), ck1, ck2)\n"
            ") WITH CLUSTERING ORDER BY (ck1 ASC, ck2 DESC)\n"
            "    AND " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, EveryTypeInCreateOrder) {
  TablePtr table = TableBuilder("test", "has_all_types")
                       .PartitionKey("num", "int")
                       .Column("asciicol", "ascii")
                       .Column("bigintcol", "bigint")
                       .Column("blobcol", "blob")
                       .Column("booleancol", "boolean")
                       .Column("decimalcol", "decimal")
                       .Column("doublecol", "double")
                       .Column("durationcol", "duration")
                       .Column("floatcol", "float")
                       .Column("frozenlistcol", "frozen<list<text>>")
                       .Column("frozenmapcol", "frozen<map<timestamp, timeuuid>>")
                       .Column("frozensetcol", "frozen<set<bigint>>")
                       .Column("intcol", "int")
                       .Column("smallintcol", "smallint")
                       .Column("textcol", "text")
                       .Column("timestampcol", "timestamp")
                       .Column("tinyintcol", "tinyint")
                       .Column("tuplecol", "tuple<text, int, tuple<timestamp>>")
                       .Column("uuidcol", "uuid")
                       .Column("varcharcol", "varchar")
                       .Column("varintcol", "varint")
                       .Column("listcol", "list<decimal>")
                       .Column("mapcol", "map<timestamp, timeuuid>")
                       .Column("setcol", "set<tinyint>")
                       .Build();
  EXPECT_EQ(TableCql(*table, false),
            "CREATE TABLE test.has_all_types (\n"
            "    num int PRIMARY KEY,\n"
            "    asciicol ascii,\n"
            "    bigintcol bigint,\n"
            "    blobcol blob,\n"
            "    booleancol boolean,\n"
            "    decimalcol decimal,\n"
            "    doublecol double,\n"
            "    durationcol duration,\n"
            "    floatcol float,\n"
            "    frozenlistcol frozen<list<text>>,\n"
            "    frozenmapcol frozen<map<timestamp, timeuuid>>,\n"
            "    frozensetcol frozen<set<bigint>>,\n"
            "    intcol int,\n"
            "    smallintcol smallint,\n"
            "    textcol text,\n"
            "    timestampcol timestamp,\n"
            "    tinyintcol tinyint,\n"
            "    tuplecol frozen<tuple<text, int, frozen<tuple<timestamp>>>>,\n"
            "    uuidcol uuid,\n"
            "    varcharcol text,\n"
            "    varintcol varint,\n"
            "    listcol list<decimal>,\n"
            "    mapcol map<timestamp, timeuuid>,\n"
            "    setcol set<tinyint>\n"
            ") WITH " +
                kDefaultOptions);
}

TEST(DescribeCqlTest, NonDefaultOptionsQuotingAndExtensions) {
  TableBuilder builder("ks", "t");
  builder.PartitionKey("k", "int").Column("Value", "text").Column("select", "int");
  TableParams& params = builder.params();
  params.bloom_filter_fp_chance = 0.1;
  params.caching = {{"keys", "NONE"}, {"rows_per_partition", "10"}};
  params.cdc = true;
  params.comment = "it's a table";
  params.compaction = {{"class", "org.apache.cassandra.db.compaction.LeveledCompactionStrategy"},
                       {"sstable_size_in_mb", "160"}};
  params.compression = {{"enabled", "false"}};
  params.memtable = "trie";
  params.crc_check_chance = 0.5;
  params.default_time_to_live = 3600;
  params.extensions = {{"b", Bytes("\x01\xff", 2)}, {"a", Bytes()}};
  params.gc_grace_seconds = 0;
  params.read_repair = "NONE";
  params.speculative_retry = "ALWAYS";
  TablePtr table = builder.Build();
  EXPECT_EQ(TableCql(*table, false),
            "CREATE TABLE ks.t (\n"
            "    k int PRIMARY KEY,\n"
            "    \"Value\" text,\n"
            "    \"select\" int\n"
            ") WITH additional_write_policy = '99p'\n"
            "    AND bloom_filter_fp_chance = 0.1\n"
            "    AND caching = {'keys': 'NONE', 'rows_per_partition': '10'}\n"
            "    AND cdc = true\n"
            "    AND comment = 'it''s a table'\n"
            "    AND compaction = {'class': "
            "'org.apache.cassandra.db.compaction.LeveledCompactionStrategy', "
            "'sstable_size_in_mb': '160'}\n"
            "    AND compression = {'enabled': 'false'}\n"
            "    AND memtable = 'trie'\n"
            "    AND crc_check_chance = 0.5\n"
            "    AND default_time_to_live = 3600\n"
            "    AND extensions = {'a': 0x, 'b': 0x01ff}\n"
            "    AND gc_grace_seconds = 0\n"
            "    AND max_index_interval = 2048\n"
            "    AND memtable_flush_period_in_ms = 0\n"
            "    AND min_index_interval = 128\n"
            "    AND read_repair = 'NONE'\n"
            "    AND speculative_retry = 'ALWAYS';");
}

TEST(DescribeCqlTest, VirtualTableIsACommentedStructureWithOnlyItsComment) {
  TablePtr columns = TableBuilder("system_virtual_schema", "columns")
                         .PartitionKey("keyspace_name", "text")
                         .Clustering("table_name", "text")
                         .Clustering("column_name", "text")
                         .Column("clustering_order", "text")
                         .Column("column_name_bytes", "blob")
                         .Column("kind", "text")
                         .Column("position", "int")
                         .Column("type", "text")
                         .Comment("virtual column definitions")
                         .Build();
  EXPECT_EQ(TableCql(*columns, true),
            "/*\n"
            "Warning: Table system_virtual_schema.columns is a virtual table and cannot be "
            "recreated with CQL.\n"
            "Structure, for reference:\n"
            "VIRTUAL TABLE system_virtual_schema.columns (\n"
            "    keyspace_name text,\n"
            "    table_name text,\n"
            "    column_name text,\n"
            "    clustering_order text,\n"
            "    column_name_bytes blob,\n"
            "    kind text,\n"
            "    position int,\n"
            "    type text,\n"
            "    PRIMARY KEY (keyspace_name, table_name, column_name)\n"
            ") WITH CLUSTERING ORDER BY (table_name ASC, column_name ASC)\n"
            "    AND comment = 'virtual column definitions';\n"
            "*/");
}

TEST(DescribeCqlTest, SystemAuthRolesAsCassandraPrintsIt) {
  SchemaPtr schema = MakeInitialSchema();
  TablePtr roles = schema->FindTable("system_auth", "roles");
  ASSERT_NE(roles, nullptr);
  std::string expected_options = kDefaultOptions;
  expected_options.replace(expected_options.find("comment = ''"), 12,
                           "comment = 'role definitions'");
  expected_options.replace(expected_options.find("gc_grace_seconds = 864000"), 25,
                           "gc_grace_seconds = 7776000");
  EXPECT_EQ(TableCql(*roles, false),
            "CREATE TABLE system_auth.roles (\n"
            "    role text PRIMARY KEY,\n"
            "    can_login boolean,\n"
            "    is_superuser boolean,\n"
            "    salted_hash text,\n"
            "    member_of set<text>\n"
            ") WITH " +
                expected_options);
}

TEST(DescribeCqlTest, UserTypesQuoteReservedFieldNamesAndFreezeNestedTypes) {
  types::TypePtr address = CqlType::Udt(
      "ks", "address", {"token", "desc", "street"},
      {CqlType::Native(Kind::kText), CqlType::Native(Kind::kText), CqlType::Native(Kind::kText)});
  EXPECT_EQ(UserTypeCql(*address),
            "CREATE TYPE ks.address (\n"
            "    \"token\" text,\n"
            "    \"desc\" text,\n"
            "    street text\n"
            ");");
  types::TypePtr person = CqlType::Udt("ks", "Person", {"a", "b"},
                                       {CqlType::Native(Kind::kInt), CqlType::Frozen(address)});
  CqlTextOptions options;
  options.if_not_exists = true;
  EXPECT_EQ(UserTypeCql(*person, options),
            "CREATE TYPE IF NOT EXISTS ks.\"Person\" (\n"
            "    a int,\n"
            "    b frozen<address>\n"
            ");");
}

TEST(DescribeCqlTest, UserTypesComeAfterTheTypesTheyUse) {
  KeyspaceMetadata keyspace = Keyspace("ks", {});
  types::TypePtr type2 = CqlType::Udt("ks", "type2", {"x", "y"},
                                      {CqlType::Native(Kind::kText), CqlType::Native(Kind::kText)});
  types::TypePtr type3 = CqlType::Udt("ks", "type3", {"a", "b"},
                                      {CqlType::Native(Kind::kText), CqlType::Frozen(type2)});
  types::TypePtr type1 =
      CqlType::Udt("ks", "type1", {"a", "b"},
                   {CqlType::Native(Kind::kInt), CqlType::List(CqlType::Frozen(type3))});
  keyspace.user_types = {{"type1", type1}, {"type2", type2}, {"type3", type3}};
  std::vector<std::string> names;
  for (const auto& type : UserTypesInDependencyOrder(keyspace)) names.push_back(type->udt_name());
  EXPECT_EQ(names, (std::vector<std::string>{"type2", "type3", "type1"}));
}

TEST(DescribeCqlTest, Indexes) {
  TablePtr users = TableBuilder("test", "users")
                       .PartitionKey("userid", "text")
                       .Column("age", "int")
                       .Index({"myindex", "COMPOSITES", {{"target", "age"}}})
                       .Build();
  EXPECT_EQ(IndexCql(*users, users->indexes[0]), "CREATE INDEX myindex ON test.users (age);");

  TablePtr test = TableBuilder("test", "Test")
                      .PartitionKey("id", "int")
                      .Clustering("col", "int")
                      .Index({"Test_col_idx", "COMPOSITES", {{"target", "col"}}})
                      .Build();
  EXPECT_EQ(IndexCql(*test, test->indexes[0]),
            "CREATE INDEX \"Test_col_idx\" ON test.\"Test\" (col);");

  TablePtr sasi = TableBuilder("ks", "t")
                      .PartitionKey("id", "int")
                      .Column("value", "text")
                      .Index({"plain",
                              "CUSTOM",
                              {{"target", "value"},
                               {"class_name", "org.apache.cassandra.index.sasi.SASIIndex"}}})
                      .Index({"with_options",
                              "CUSTOM",
                              {{"target", "value"},
                               {"class_name", "org.apache.cassandra.index.sasi.SASIIndex"},
                               {"is_literal", "false"}}})
                      .Build();
  EXPECT_EQ(IndexCql(*sasi, sasi->indexes[0]),
            "CREATE CUSTOM INDEX plain ON ks.t (value) USING "
            "'org.apache.cassandra.index.sasi.SASIIndex';");
  EXPECT_EQ(IndexCql(*sasi, sasi->indexes[1]),
            "CREATE CUSTOM INDEX with_options ON ks.t (value) USING "
            "'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'is_literal': 'false'};");
}

TEST(DescribeCqlTest, JavaDoubleFormatting) {
  EXPECT_EQ(JavaDoubleToString(0.01), "0.01");
  EXPECT_EQ(JavaDoubleToString(0.1), "0.1");
  EXPECT_EQ(JavaDoubleToString(1.0), "1.0");
  EXPECT_EQ(JavaDoubleToString(0.5), "0.5");
  EXPECT_EQ(JavaDoubleToString(0.001), "0.001");
  EXPECT_EQ(JavaDoubleToString(1e-4), "1.0E-4");
  EXPECT_EQ(JavaDoubleToString(0.00015), "1.5E-4");
  EXPECT_EQ(JavaDoubleToString(123.25), "123.25");
  EXPECT_EQ(JavaDoubleToString(1e6), "1000000.0");
  EXPECT_EQ(JavaDoubleToString(1e7), "1.0E7");
  EXPECT_EQ(JavaDoubleToString(12345678.9), "1.23456789E7");
  EXPECT_EQ(JavaDoubleToString(-2.5), "-2.5");
  EXPECT_EQ(JavaDoubleToString(0.0), "0.0");
  EXPECT_EQ(JavaDoubleToString(-0.0), "-0.0");
  EXPECT_EQ(JavaDoubleToString(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(JavaDoubleToString(std::numeric_limits<double>::infinity()), "Infinity");
}

}  // namespace
}  // namespace sibyl::schema
