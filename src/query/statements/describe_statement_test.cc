#include "query/statements/describe_statement.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "schema/system_keyspaces.h"

namespace sibyl::query {
namespace {

std::vector<std::string> Names(const RowsResult& result) {
  std::vector<std::string> names;
  for (const schema::Row& row : result.rows) names.push_back(row[2].value_or("<null>"));
  return names;
}

TEST(DescribeExecutorTest, MapsEveryStatementField) {
  cql::DescribeStatement table;
  table.kind = cql::DescribeStatement::Kind::kTable;
  table.name = {"ks", "t"};
  table.with_internals = true;
  schema::DescribeRequest request = ToDescribeRequest(table);
  EXPECT_EQ(request.kind, schema::DescribeKind::kTable);
  EXPECT_EQ(request.keyspace, "ks");
  EXPECT_EQ(request.name, "t");
  EXPECT_TRUE(request.with_internals);

  cql::DescribeStatement keyspace;
  keyspace.kind = cql::DescribeStatement::Kind::kKeyspace;
  keyspace.keyspace = "ks";
  keyspace.only_keyspace = true;
  request = ToDescribeRequest(keyspace);
  EXPECT_EQ(request.kind, schema::DescribeKind::kKeyspace);
  EXPECT_EQ(request.keyspace, "ks");
  EXPECT_TRUE(request.only);

  cql::DescribeStatement full;
  full.kind = cql::DescribeStatement::Kind::kSchema;
  full.full_schema = true;
  EXPECT_TRUE(ToDescribeRequest(full).full);
}

TEST(DescribeExecutorTest, PagesByRowOffsetAndRefusesAChangedSchema) {
  schema::SchemaPtr schema = schema::MakeInitialSchema();
  schema::LocalNodeInfo node;
  schema::DescribeContext context{*schema, node, std::nullopt, nullptr};
  schema::DescribeRequest request;
  request.kind = schema::DescribeKind::kKeyspaces;

  protocol::QueryParameters params;
  params.page_size = 2;
  std::vector<std::string> seen;
  std::vector<Bytes> states;
  for (int page = 0; page < 4; ++page) {
    RowsResult result = ExecuteDescribe(request, context, params);
    ASSERT_EQ(result.columns->size(), 3u);
    EXPECT_EQ((*result.columns)[0].name, "keyspace_name");
    std::vector<std::string> names = Names(result);
    seen.insert(seen.end(), names.begin(), names.end());
    if (!result.paging_state) break;
    states.push_back(*result.paging_state);
    params.paging_state = states.back();
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"system", "system_auth", "system_distributed",
                                            "system_schema", "system_traces"}));
  EXPECT_EQ(states.size(), 2u);  // pages of 2, 2 and 1 rows

  // A later page against another schema version is refused.
  auto changed = std::make_shared<schema::Schema>(schema::Schema::KeyspaceMap{});
  schema::DescribeContext changed_context{*changed, node, std::nullopt, nullptr};
  params.paging_state = states.front();
  try {
    (void)ExecuteDescribe(request, changed_context, params);
    FAIL() << "expected an InvalidRequest";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(),
                 "The schema has changed since the previous page of the DESCRIBE statement "
                 "result. Please retry the DESCRIBE statement.");
  }
}

TEST(DescribeExecutorTest, AFullLastPageStillOffersANextOne) {
  schema::SchemaPtr schema = schema::MakeInitialSchema();
  schema::LocalNodeInfo node;
  schema::DescribeContext context{*schema, node, std::nullopt, nullptr};
  schema::DescribeRequest request;
  request.kind = schema::DescribeKind::kKeyspaces;
  protocol::QueryParameters params;
  params.page_size = 5;
  RowsResult first = ExecuteDescribe(request, context, params);
  EXPECT_EQ(first.rows.size(), 5u);
  ASSERT_TRUE(first.paging_state.has_value());
  params.paging_state = *first.paging_state;
  RowsResult second = ExecuteDescribe(request, context, params);
  EXPECT_TRUE(second.rows.empty());
  EXPECT_FALSE(second.paging_state.has_value());
}

}  // namespace
}  // namespace sibyl::query
