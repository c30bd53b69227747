#pragma once
// SELECT, prepared against a schema snapshot, and its execution.
//
// Lifecycle: cql::SelectStatement (raw AST) → SelectStatement::Prepare
// (resolves the table, selection, WHERE, GROUP BY, ORDER BY and limits
// against the schema, checking everything Cassandra 4.1 checks at prepare
// time) → Execute once per request with the request's bound values and
// paging position (select_execution.cc).
//
// Execution streams: the rows come from the RowSource one bounded page at a
// time (the engine seeks to the plan's partitions and slices), so memory
// stays bounded by the page whatever the table holds. The one exception is
// Cassandra's own: ORDER BY with IN on the partition key sorts every row in
// memory, which is why Cassandra (and Sibyl) refuse to page it.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "cql/ast.h"
#include "guardrails/guardrails.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "query/read/row_source.h"
#include "query/restrictions/restrictions.h"
#include "query/selection/selection.h"
#include "query/statements/result.h"
#include "query/statements/table_resolution.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/schema.h"
#include "storage/engine.h"

namespace sibyl::query {

// cassandra.yaml's tombstone_warn_threshold / tombstone_failure_threshold:
// a read that goes over more tombstones than these warns the client, or
// fails with a ReadFailure. Negative: disabled.
struct ReadThresholds {
  int32_t tombstone_warn = 1000;
  int32_t tombstone_failure = 100000;
};

// What one execution needs besides the statement and its values.
struct SelectContext {
  Clock* clock = nullptr;                        // now() and friends; null: the system clock
  std::vector<std::string>* warnings = nullptr;  // client warnings; null: dropped
  ReadThresholds thresholds;
  // The guardrails the query is checked against (guardrails.h); null: none.
  const guardrails::Guardrails* guardrails = nullptr;
  // The engine whose large-data ledger the partitions read are checked
  // against (large_partition_guard.h); null: none.
  const storage::Engine* ledger = nullptr;
  // This node's address, as a ReadFailure names the replica that failed.
  std::string node_address = "127.0.0.1";
};

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
  // values and for the consistency levels Cassandra 4.1 refuses for a read
  // (consistency_rules.h: ANY, before anything is bound; SERIAL or
  // LOCAL_SERIAL over several partitions in one unpaged read),
  // kProtocolError for a malformed paging state, kReadFailure when a read
  // goes over the tombstone failure threshold.
  [[nodiscard]] RowsResult Execute(const BoundValues& values,
                                   const protocol::QueryParameters& params,
                                   const schema::Schema& schema, const RowSource& source,
                                   const SelectContext& context = {}) const;

 private:
  friend class SelectExecution;

  // LIMIT / PER PARTITION LIMIT for one request; -1 when there is none.
  int32_t BindLimit(const std::optional<PreparedTerm>& term, const BoundValues& values) const;

  schema::TablePtr table_;
  Selection selection_;
  Restrictions restrictions_;
  std::optional<PreparedTerm> limit_;
  std::optional<PreparedTerm> per_partition_limit_;
  bool distinct_ = false;
  bool allow_filtering_ = false;  // ALLOW FILTERING was written
  // A user table: guardrails apply (not to system keyspaces, virtual tables).
  bool guarded_ = false;
  bool reversed_ = false;  // ORDER BY against the clustering order
  // ORDER BY with IN on the partition key: rows of several partitions are
  // sorted after the read (Cassandra's needsPostQueryOrdering).
  bool post_query_ordering_ = false;
  // The ORDER BY columns (indexes in TableMetadata::columns), for post-query ordering.
  std::vector<size_t> ordering_columns_;
  // GROUP BY: rows group by partition, then by this many clustering columns.
  bool grouped_ = false;
  size_t group_clustering_prefix_ = 0;
  // Regular and static columns read (selection, filtering, cell metadata).
  std::vector<size_t> columns_read_;
  // No clustering nor regular column restrictions: a partition with only
  // static content shows as one row (4.1's queriesFullPartitions).
  bool queries_full_partitions_ = true;
  bool fully_qualified_ = false;
  std::vector<protocol::ColumnSpec> bind_specs_;
};

}  // namespace sibyl::query
