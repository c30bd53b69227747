#include "schema/describe.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "schema/describe_cql.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using types::CqlType;
using types::Kind;

using TextRow = std::vector<std::string>;

// The CQLTester-like schema of DescribeStatementTest.testDescribe, without the
// materialized view: keyspace `test` with tables users (index myindex),
// "Test" (two indexes), users_mv and has_all_types; plus the system keyspaces,
// a second user keyspace and a virtual keyspace.
class DescribeTest : public ::testing::Test {
 protected:
  DescribeTest() {
    Schema::KeyspaceMap keyspaces = MakeInitialSchema()->keyspaces();

    auto test = std::make_shared<KeyspaceMetadata>();
    test->name = "test";
    test->replication = {{"class", kSimpleStrategy}, {"replication_factor", "1"}};
    for (TablePtr table :
         {TableBuilder("test", "users")
              .PartitionKey("userid", "text")
              .Column("firstname", "text")
              .Column("lastname", "text")
              .Column("age", "int")
              .Index({"myindex", "COMPOSITES", {{"target", "age"}}})
              .Build(),
          TableBuilder("test", "Test")
              .PartitionKey("id", "int")
              .Clustering("col", "int")
              .Column("val", "text")
              .Index({"Test_val_idx", "COMPOSITES", {{"target", "val"}}})
              .Index({"Test_col_idx", "COMPOSITES", {{"target", "col"}}})
              .Build(),
          TableBuilder("test", "users_mv")
              .PartitionKey("username", "text")
              .Column("password", "text")
              .Column("state", "text")
              .Build(),
          TableBuilder("test", "has_all_types").PartitionKey("num", "int").Build()}) {
      test->tables.emplace(table->name, table);
    }
    types::TypePtr type2 = CqlType::Udt(
        "test", "type2", {"x", "y"}, {CqlType::Native(Kind::kText), CqlType::Native(Kind::kText)});
    types::TypePtr type1 = CqlType::Udt("test", "type1", {"a", "b"},
                                        {CqlType::Native(Kind::kInt), CqlType::Frozen(type2)});
    test->user_types = {{"type1", type1}, {"type2", type2}};
    keyspaces.emplace("test", test);

    auto other = std::make_shared<KeyspaceMetadata>();
    other->name = "Other";
    other->replication = {{"class", kSimpleStrategy}, {"replication_factor", "3"}};
    keyspaces.emplace("Other", other);
    schema_ = std::make_shared<Schema>(std::move(keyspaces));

    auto virtual_schema = std::make_shared<KeyspaceMetadata>();
    virtual_schema->name = "system_virtual_schema";
    TablePtr virtual_keyspaces = TableBuilder("system_virtual_schema", "keyspaces")
                                     .PartitionKey("keyspace_name", "text")
                                     .Comment("virtual keyspace definitions")
                                     .Build();
    virtual_schema->tables.emplace("keyspaces", virtual_keyspaces);
    virtual_keyspaces_.emplace("system_virtual_schema", virtual_schema);

    node_.tokens = {"100", "-5", "42"};
  }

  DescribeContext Context(std::optional<std::string_view> current_keyspace = std::nullopt) const {
    return DescribeContext{*schema_, node_, current_keyspace, &virtual_keyspaces_};
  }

  static std::vector<TextRow> Text(const DescribeResult& result) {
    std::vector<TextRow> rows;
    for (const Row& row : result.rows) {
      TextRow text;
      for (const OptBytes& value : row) text.push_back(value.value_or("<null>"));
      rows.push_back(std::move(text));
    }
    return rows;
  }

  // Only the first three columns (keyspace_name, type, name).
  static std::vector<TextRow> Names(const DescribeResult& result) {
    std::vector<TextRow> rows = Text(result);
    for (TextRow& row : rows) row.resize(3);
    return rows;
  }

  static std::vector<std::string> ColumnNames(const DescribeResult& result) {
    std::vector<std::string> names;
    for (const DescribeColumn& column : *result.columns) {
      EXPECT_EQ(column.keyspace, "system");
      EXPECT_EQ(column.table, "describe");
      names.push_back(column.name);
    }
    return names;
  }

  DescribeResult Run(DescribeRequest request,
                     std::optional<std::string_view> current_keyspace = std::nullopt) const {
    return Describe(request, Context(current_keyspace));
  }

  static DescribeRequest Request(DescribeKind kind, std::optional<std::string> keyspace = {},
                                 std::string name = {}) {
    DescribeRequest request;
    request.kind = kind;
    request.keyspace = std::move(keyspace);
    request.name = std::move(name);
    return request;
  }

  // The InvalidRequest message the request fails with, or "" if it succeeds.
  std::string ErrorOf(DescribeRequest request,
                      std::optional<std::string_view> current_keyspace = std::nullopt) const {
    try {
      (void)Run(request, current_keyspace);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid);
      return e.what();
    }
    return "";
  }

  const TableMetadata& Table(std::string_view keyspace, std::string_view name) const {
    return *schema_->FindTable(keyspace, name);
  }

  SchemaPtr schema_;
  Schema::KeyspaceMap virtual_keyspaces_;
  LocalNodeInfo node_;
};

const std::vector<TextRow> kTestKeyspaceNames = {
    {"test", "keyspace", "test"},
    {"test", "type", "type2"},
    {"test", "type", "type1"},
    {"test", "table", "has_all_types"},
    {"test", "table", "\"Test\""},
    {"test", "index", "\"Test_col_idx\""},
    {"test", "index", "\"Test_val_idx\""},
    {"test", "table", "users"},
    {"test", "index", "myindex"},
    {"test", "table", "users_mv"},
};

TEST_F(DescribeTest, KeyspacesListsEveryKeyspaceByNameIgnoringCase) {
  for (std::optional<std::string_view> current :
       {std::optional<std::string_view>(), std::optional<std::string_view>("test")}) {
    DescribeResult result = Run(Request(DescribeKind::kKeyspaces), current);
    EXPECT_EQ(ColumnNames(result), (std::vector<std::string>{"keyspace_name", "type", "name"}));
    EXPECT_EQ(Text(result), (std::vector<TextRow>{
                                {"\"Other\"", "keyspace", "\"Other\""},
                                {"system", "keyspace", "system"},
                                {"system_auth", "keyspace", "system_auth"},
                                {"system_distributed", "keyspace", "system_distributed"},
                                {"system_schema", "keyspace", "system_schema"},
                                {"system_traces", "keyspace", "system_traces"},
                                {"system_virtual_schema", "keyspace", "system_virtual_schema"},
                                {"test", "keyspace", "test"},
                            }));
  }
}

TEST_F(DescribeTest, KeyspaceListsItsElementsInCassandrasOrder) {
  DescribeResult result = Run(Request(DescribeKind::kKeyspace, "test"));
  EXPECT_EQ(ColumnNames(result),
            (std::vector<std::string>{"keyspace_name", "type", "name", "create_statement"}));
  EXPECT_EQ(Names(result), kTestKeyspaceNames);
  std::vector<TextRow> rows = Text(result);
  EXPECT_EQ(rows[0][3],
            "CREATE KEYSPACE test WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': '1'}  AND durable_writes = true;");
  EXPECT_EQ(rows[1][3], "CREATE TYPE test.type2 (\n    x text,\n    y text\n);");
  EXPECT_EQ(rows[2][3], "CREATE TYPE test.type1 (\n    a int,\n    b frozen<type2>\n);");
  EXPECT_EQ(rows[4][3], TableCql(Table("test", "Test"), false));
  EXPECT_EQ(rows[5][3], "CREATE INDEX \"Test_col_idx\" ON test.\"Test\" (col);");
  EXPECT_EQ(rows[8][3], "CREATE INDEX myindex ON test.users (age);");

  // The session's keyspace, and the generic form, give the same rows.
  EXPECT_EQ(Text(Run(Request(DescribeKind::kKeyspace), "test")), rows);
  EXPECT_EQ(Text(Run(Request(DescribeKind::kGeneric, {}, "test"))), rows);
  EXPECT_EQ(Text(Run(Request(DescribeKind::kGeneric, {}, "test"), "Other")), rows);
}

TEST_F(DescribeTest, OnlyKeyspaceStopsAtTheKeyspace) {
  DescribeRequest request = Request(DescribeKind::kKeyspace, "test");
  request.only = true;
  EXPECT_EQ(Names(Run(request)), (std::vector<TextRow>{{"test", "keyspace", "test"}}));
}

TEST_F(DescribeTest, VirtualKeyspaceAndTablesAreCommentedStructures) {
  DescribeResult result = Run(Request(DescribeKind::kKeyspace, "system_virtual_schema"));
  std::vector<TextRow> rows = Text(result);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][3],
            "/*\nWarning: Keyspace system_virtual_schema is a virtual keyspace and cannot be "
            "recreated with CQL.\nStructure, for reference:\nVIRTUAL KEYSPACE "
            "system_virtual_schema;\n*/");
  EXPECT_EQ(rows[1][3],
            "/*\nWarning: Table system_virtual_schema.keyspaces is a virtual table and cannot be "
            "recreated with CQL.\nStructure, for reference:\nVIRTUAL TABLE "
            "system_virtual_schema.keyspaces (\n    keyspace_name text PRIMARY KEY\n) WITH "
            "comment = 'virtual keyspace definitions';\n*/");
}

TEST_F(DescribeTest, SchemaLeavesOutSystemKeyspacesAndFullSchemaKeepsThem) {
  DescribeResult schema = Run(Request(DescribeKind::kSchema));
  std::vector<TextRow> expected = {{"\"Other\"", "keyspace", "\"Other\""}};
  expected.insert(expected.end(), kTestKeyspaceNames.begin(), kTestKeyspaceNames.end());
  EXPECT_EQ(Names(schema), expected);
  EXPECT_EQ(Text(schema)[0][3],
            "CREATE KEYSPACE \"Other\" WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': '3'}  AND durable_writes = true;");

  DescribeRequest full = Request(DescribeKind::kSchema);
  full.full = true;
  std::vector<TextRow> rows = Names(Run(full));
  std::vector<std::string> keyspaces;
  for (const TextRow& row : rows) {
    if (row[1] == "keyspace") keyspaces.push_back(row[0]);
  }
  EXPECT_EQ(keyspaces, (std::vector<std::string>{
                           "\"Other\"", "system", "system_auth", "system_distributed",
                           "system_schema", "system_traces", "system_virtual_schema", "test"}));
  // system.local is there, as a CREATE TABLE with its options.
  bool found_local = false;
  for (const TextRow& row : Text(Run(full))) {
    if (row[0] == "system" && row[2] == "local") {
      found_local = true;
      EXPECT_EQ(row[3], TableCql(Table("system", "local"), false));
      EXPECT_TRUE(row[3].starts_with("CREATE TABLE system.local (\n    key text PRIMARY KEY,\n"));
    }
  }
  EXPECT_TRUE(found_local);
}

TEST_F(DescribeTest, TablesListsTheSessionKeyspaceOrEveryKeyspace) {
  EXPECT_EQ(Text(Run(Request(DescribeKind::kTables), "test")),
            (std::vector<TextRow>{{"test", "table", "has_all_types"},
                                  {"test", "table", "\"Test\""},
                                  {"test", "table", "users"},
                                  {"test", "table", "users_mv"}}));
  std::vector<TextRow> all = Text(Run(Request(DescribeKind::kTables)));
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), (TextRow{"system", "table", "available_ranges"}));
  EXPECT_EQ(all.back(), (TextRow{"test", "table", "users_mv"}));
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kTables), "gone"), "'gone' not found in keyspaces");
}

TEST_F(DescribeTest, TypesFunctionsAndAggregatesListings) {
  EXPECT_EQ(Text(Run(Request(DescribeKind::kTypes), "test")),
            (std::vector<TextRow>{{"test", "type", "type1"}, {"test", "type", "type2"}}));
  EXPECT_EQ(Text(Run(Request(DescribeKind::kTypes))),
            (std::vector<TextRow>{{"test", "type", "type1"}, {"test", "type", "type2"}}));
  EXPECT_TRUE(Run(Request(DescribeKind::kFunctions), "test").rows.empty());
  EXPECT_TRUE(Run(Request(DescribeKind::kAggregates)).rows.empty());
  EXPECT_EQ(ColumnNames(Run(Request(DescribeKind::kFunctions))),
            (std::vector<std::string>{"keyspace_name", "type", "name"}));
}

TEST_F(DescribeTest, TableWithItsIndexes) {
  std::vector<TextRow> expected = {
      {"test", "table", "\"Test\"", TableCql(Table("test", "Test"), false)},
      {"test", "index", "\"Test_col_idx\"",
       "CREATE INDEX \"Test_col_idx\" ON test.\"Test\" (col);"},
      {"test", "index", "\"Test_val_idx\"",
       "CREATE INDEX \"Test_val_idx\" ON test.\"Test\" (val);"},
  };
  EXPECT_EQ(Text(Run(Request(DescribeKind::kTable, "test", "Test"))), expected);
  EXPECT_EQ(Text(Run(Request(DescribeKind::kTable, {}, "Test"), "test")), expected);
  EXPECT_EQ(Text(Run(Request(DescribeKind::kGeneric, "test", "Test"))), expected);
  EXPECT_EQ(Text(Run(Request(DescribeKind::kGeneric, {}, "Test"), "test")), expected);
}

TEST_F(DescribeTest, TableWithInternalsShowsItsId) {
  DescribeRequest request = Request(DescribeKind::kTable, "test", "users_mv");
  request.with_internals = true;
  std::string cql = Text(Run(request))[0][3];
  EXPECT_NE(cql.find(") WITH ID = " + Table("test", "users_mv").id.ToString() + "\n    AND "),
            std::string::npos)
      << cql;
}

TEST_F(DescribeTest, IndexAndType) {
  EXPECT_EQ(Text(Run(Request(DescribeKind::kIndex, "test", "myindex"))),
            (std::vector<TextRow>{
                {"test", "index", "myindex", "CREATE INDEX myindex ON test.users (age);"}}));
  EXPECT_EQ(Text(Run(Request(DescribeKind::kGeneric, {}, "myindex"), "test")),
            Text(Run(Request(DescribeKind::kIndex, {}, "myindex"), "test")));
  EXPECT_EQ(Text(Run(Request(DescribeKind::kType, "test", "type2"))),
            (std::vector<TextRow>{{"test", "type", "type2",
                                   "CREATE TYPE test.type2 (\n    x text,\n    y text\n);"}}));
}

TEST_F(DescribeTest, ErrorsAsCassandraWordsThem) {
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kKeyspace, "test2")), "'test2' not found in keyspaces");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kGeneric, {}, "test2")),
            "'test2' not found in keyspaces");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kGeneric, {}, "users2"), "test"),
            "'users2' not found in keyspace 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kGeneric, "test", "users2")),
            "'users2' not found in keyspace 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kTable, "test", "users2")),
            "Table 'users2' not found in keyspace 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kIndex, "test", "myindex2")),
            "Table for existing index 'myindex2' not found in 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kType, "test", "nope")),
            "User defined type 'nope' not found in 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kFunction, "test", "func_foo")),
            "User defined function 'func_foo' not found in 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kAggregate, "test", "aggr_foo")),
            "User defined aggregate 'aggr_foo' not found in 'test'");
  EXPECT_EQ(ErrorOf(Request(DescribeKind::kMaterializedView, "test", "mv")),
            "Materialized view 'mv' not found in 'test'");
  for (DescribeKind kind :
       {DescribeKind::kKeyspace, DescribeKind::kTable, DescribeKind::kMaterializedView,
        DescribeKind::kIndex, DescribeKind::kType, DescribeKind::kFunction,
        DescribeKind::kAggregate}) {
    EXPECT_EQ(ErrorOf(Request(kind, {}, "foop")), "No keyspace specified and no current keyspace");
  }
}

TEST_F(DescribeTest, ClusterWithoutAndWithAKeyspace) {
  DescribeResult plain = Run(Request(DescribeKind::kCluster));
  EXPECT_EQ(ColumnNames(plain), (std::vector<std::string>{"cluster", "partitioner", "snitch"}));
  EXPECT_EQ(
      Text(plain),
      (std::vector<TextRow>{{"Test Cluster", "Murmur3Partitioner", "DynamicEndpointSnitch"}}));
  EXPECT_EQ(Text(Run(Request(DescribeKind::kCluster), "system_virtual_schema")), Text(plain));
  EXPECT_EQ(Text(Run(Request(DescribeKind::kCluster), "system_auth")), Text(plain));

  DescribeResult ranges = Run(Request(DescribeKind::kCluster), "test");
  EXPECT_EQ(ColumnNames(ranges),
            (std::vector<std::string>{"cluster", "partitioner", "snitch", "range_ownership"}));
  EXPECT_EQ(ranges.columns->back().type->ToCql(), "frozen<map<text, frozen<list<text>>>>");
  ASSERT_EQ(ranges.rows.size(), 1u);
  ASSERT_EQ(ranges.rows[0].size(), 4u);
  std::vector<std::string> entries;
  for (auto [token, endpoints] : types::DecodeMapEntries(*ranges.rows[0][3])) {
    std::string entry(token);
    for (BytesView endpoint : types::DecodeListElements(endpoints)) {
      entry.append(" ").append(endpoint);
    }
    entries.push_back(entry);
  }
  EXPECT_EQ(entries, (std::vector<std::string>{"-5 /127.0.0.1:7000", "100 /127.0.0.1:7000",
                                               "42 /127.0.0.1:7000"}));
}

TEST_F(DescribeTest, PagingPositionRoundTripsAndRefusesAChangedSchema) {
  Bytes position = EncodeDescribePagingPosition(42, schema_->version());
  EXPECT_EQ(DecodeDescribePagingPosition(position, schema_->version()), 42);

  types::Uuid other = *types::Uuid::Parse("00000000-0000-0000-0000-000000000001");
  auto error_of = [](BytesView bytes, const types::Uuid& version) -> std::string {
    try {
      (void)DecodeDescribePagingPosition(bytes, version);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid);
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of(position, other),
            "The schema has changed since the previous page of the DESCRIBE statement result. "
            "Please retry the DESCRIBE statement.");
  EXPECT_EQ(error_of(BytesView(position).substr(0, 10), schema_->version()),
            "Invalid paging state.");
  Bytes wrong_version = position;
  wrong_version[1] = 2;
  EXPECT_EQ(error_of(wrong_version, schema_->version()), "Incompatible paging state");
  Bytes wrong_release = position;
  wrong_release[4] = '9';  // "4.1.7" → "9.1.7"
  EXPECT_EQ(error_of(wrong_release, schema_->version()),
            std::string("The server version of the paging state 9") + (kReleaseVersion + 1) +
                " is different from the one of the server " + kReleaseVersion);
}

}  // namespace
}  // namespace sibyl::schema
