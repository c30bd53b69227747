#include "query/statements/describe_statement.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "query/read/paging_state.h"

namespace sibyl::query {
namespace {

schema::DescribeKind KindOf(cql::DescribeStatement::Kind kind) {
  using From = cql::DescribeStatement::Kind;
  using To = schema::DescribeKind;
  switch (kind) {
    case From::kCluster:
      return To::kCluster;
    case From::kSchema:
      return To::kSchema;
    case From::kKeyspaces:
      return To::kKeyspaces;
    case From::kKeyspace:
      return To::kKeyspace;
    case From::kTables:
      return To::kTables;
    case From::kTable:
      return To::kTable;
    case From::kIndex:
      return To::kIndex;
    case From::kMaterializedView:
      return To::kMaterializedView;
    case From::kTypes:
      return To::kTypes;
    case From::kType:
      return To::kType;
    case From::kFunctions:
      return To::kFunctions;
    case From::kFunction:
      return To::kFunction;
    case From::kAggregates:
      return To::kAggregates;
    case From::kAggregate:
      return To::kAggregate;
    case From::kGeneric:
      return To::kGeneric;
  }
  return To::kGeneric;
}

}  // namespace

schema::DescribeRequest ToDescribeRequest(const cql::DescribeStatement& statement) {
  schema::DescribeRequest request;
  request.kind = KindOf(statement.kind);
  request.full = statement.full_schema;
  request.only = statement.only_keyspace;
  request.with_internals = statement.with_internals;
  if (request.kind == schema::DescribeKind::kKeyspace) {
    request.keyspace = statement.keyspace;
  } else {
    request.keyspace = statement.name.keyspace;
    request.name = statement.name.name;
  }
  return request;
}

RowsResult ExecuteDescribe(const schema::DescribeRequest& request,
                           const schema::DescribeContext& context,
                           const protocol::QueryParameters& params) {
  const types::Uuid& version = context.schema.version();
  int64_t offset = 0;
  if (params.paging_state) {
    offset = schema::DecodeDescribePagingPosition(
        PagingState::Parse(*params.paging_state).partition_key, version);
  }

  schema::DescribeResult described = schema::Describe(request, context);
  auto columns = std::make_shared<std::vector<protocol::ColumnSpec>>();
  for (const schema::DescribeColumn& column : *described.columns) {
    columns->push_back({column.keyspace, column.table, column.name, column.type});
  }

  RowsResult result;
  result.columns = std::move(columns);
  const size_t begin =
      std::min(static_cast<size_t>(std::max<int64_t>(offset, 0)), described.rows.size());
  size_t end = described.rows.size();
  if (params.page_size > 0) end = std::min(end, begin + static_cast<size_t>(params.page_size));
  result.rows.assign(std::make_move_iterator(described.rows.begin() + begin),
                     std::make_move_iterator(described.rows.begin() + end));
  // As Cassandra: a full page always says more may follow (the next one may
  // then be empty).
  if (params.page_size > 0 && result.rows.size() == static_cast<size_t>(params.page_size)) {
    PagingState state;
    state.partition_key = schema::EncodeDescribePagingPosition(
        static_cast<int64_t>(begin + result.rows.size()), version);
    result.paging_state = state.Serialize();
  }
  return result;
}

}  // namespace sibyl::query
