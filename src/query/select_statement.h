#pragma once
// SELECT, prepared against a schema snapshot, and its execution.
//
// Lifecycle: cql::SelectStatement (raw AST) → SelectStatement::Prepare
// (resolves the table, selection, WHERE, ORDER BY, LIMIT against the
// schema, checking everything Cassandra checks at prepare time) → Execute
// once per request with the request's bound values and paging position.
//
// Supported beyond the basics: DISTINCT, LIMIT and PER PARTITION LIMIT
// (literal or bind marker), ORDER BY on one partition, paging by page size.
// SELECT JSON and GROUP BY fail with an honest error.

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "query/bind_variables.h"
#include "query/restrictions.h"
#include "query/result.h"
#include "query/row_source.h"
#include "query/selection.h"
#include "query/table_resolution.h"
#include "query/term.h"
#include "schema/schema.h"

namespace sibyl::query {

class SelectStatement {
 public:
  // `keyspace` is the keyspace unqualified table names resolve in (USE, or
  // the request's keyspace); `marker_count` the statement's bind markers.
  // Throws CqlError(kInvalid) with Cassandra's messages ("keyspace x does
  // not exist", "table x does not exist", ...).
  static std::shared_ptr<const SelectStatement> Prepare(const cql::SelectStatement& select,
                                                        int marker_count,
                                                        const schema::Schema& schema,
                                                        std::optional<std::string_view> keyspace);

  const schema::TablePtr& table() const { return table_; }
  const Selection& selection() const { return selection_; }
  const std::vector<protocol::ColumnSpec>& bind_specs() const { return bind_specs_; }
  // True when the statement names its keyspace (keyspace.table).
  bool fully_qualified() const { return fully_qualified_; }
  std::vector<uint16_t> partition_key_markers() const {
    return restrictions_.PartitionKeyMarkers(*table_);
  }

  // Runs the query for one request. `values` must be built from `params`
  // and this statement's bind_specs(); `schema` is the snapshot the
  // statement was prepared against. Throws CqlError(kInvalid) for bad bound
  // values, kProtocolError for a malformed paging state.
  [[nodiscard]] RowsResult Execute(const BoundValues& values,
                                   const protocol::QueryParameters& params,
                                   const schema::Schema& schema, const RowSource& source) const;

 private:
  // LIMIT / PER PARTITION LIMIT for one request; -1 when there is none.
  int32_t BindLimit(const std::optional<PreparedTerm>& term, const BoundValues& values,
                    const char* name) const;

  schema::TablePtr table_;
  Selection selection_;
  Restrictions restrictions_;
  std::optional<PreparedTerm> limit_;
  std::optional<PreparedTerm> per_partition_limit_;
  bool distinct_ = false;
  bool reversed_ = false;  // ORDER BY against the clustering order
  bool fully_qualified_ = false;
  std::vector<protocol::ColumnSpec> bind_specs_;
};

}  // namespace sibyl::query
