#pragma once
// The statement layer the server calls: QUERY, PREPARE, EXECUTE and BATCH.
//
//   QueryProcessor processor(metadata_store, virtual_tables, node_info, &coordinator);
//   ClientState client;                       // one per connection
//   Result r = processor.Process("SELECT * FROM system.local", params, client);
//   PreparedResult p = processor.Prepare(query, client, /*keyspace=*/std::nullopt);
//   Result r2 = processor.Execute(execute_message, client);
//
// Errors a client should see are thrown as CqlError with Cassandra's code
// and message (InvalidRequest, SyntaxError from the parser, Unprepared with
// the statement id for an unknown EXECUTE id).
//
// Stored tables (every table of a user keyspace, storage_layout.h) are read
// and written through the coordinator. A processor built with one keeps the
// engine's tables in step with the schema: it syncs them when built and,
// through a MetadataStore listener, before every schema change is
// published. A processor built without one (tests of the statement layer)
// refuses reads and writes of stored tables with an error saying so.
//
// Thread-safety: one QueryProcessor serves every reactor thread. The
// prepared-statement cache is behind a mutex held only for lookups and
// inserts; statements execute without any lock, each against the schema
// snapshot current when it starts. A ClientState belongs to one connection
// and is never shared.

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "cluster/coordinator.h"
#include "common/bytes.h"
#include "guardrails/guardrails.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "query/client_state.h"
#include "query/prepared_cache.h"
#include "query/prepared_statement.h"
#include "query/read/row_source.h"
#include "query/read/storage_row_source.h"
#include "query/statements/batch_statement.h"
#include "query/statements/ddl/schema_alteration.h"
#include "query/statements/result.h"
#include "query/statements/select_statement.h"
#include "schema/local_node_info.h"
#include "schema/metadata_store.h"
#include "schema/schema.h"
#include "schema/virtual_tables.h"

namespace sibyl::query {

struct QueryProcessorOptions {
  // Prepared statements kept before the least recently used is evicted. Default: 10,000.
  size_t prepared_cache_capacity = 10000;
  BatchLimits batch_limits;        // cassandra.yaml's batch_size_* and unlogged_batch_* thresholds
  ReadThresholds read_thresholds;  // cassandra.yaml's tombstone_warn/failure_threshold
  // Called after a DDL statement changed the metadata, on the statement's
  // thread, before its result is returned: a node of a cluster waits there
  // until its live members applied the change (schema agreement). Null:
  // nothing to wait for (a single node). Default: null.
  std::function<void(uint64_t epoch)> after_schema_change = nullptr;
  // materialized_views_enabled and Sibyl's
  // materialized_views_strict_primary_key_selection.
  MaterializedViewSettings materialized_views;
  // The guardrails statements check (guardrails/guardrails.h); outlives the
  // processor. Null: none are checked (tests of the statement layer).
  const guardrails::Guardrails* guardrails = nullptr;
};

class QueryProcessor {
 public:
  // All three must outlive the processor. DDL statements commit through
  // `metadata`, which publishes to its SchemaStore, the one queries read.
  // `coordinator` (may be null) must outlive the processor and `metadata`'s
  // last commit.
  QueryProcessor(schema::MetadataStore& metadata, const schema::VirtualTables& virtual_tables,
                 const schema::LocalNodeInfo& node, cluster::Coordinator* coordinator,
                 QueryProcessorOptions options = {});
  QueryProcessor(schema::MetadataStore& metadata, const schema::VirtualTables& virtual_tables,
                 const schema::LocalNodeInfo& node, QueryProcessorOptions options = {})
      : QueryProcessor(metadata, virtual_tables, node, nullptr, options) {}
  // As above with an in-memory metadata store over `schemas`: DDL changes
  // are published but not persisted.
  QueryProcessor(schema::SchemaStore& schemas, const schema::VirtualTables& virtual_tables,
                 const schema::LocalNodeInfo& node, cluster::Coordinator* coordinator,
                 QueryProcessorOptions options = {});
  QueryProcessor(schema::SchemaStore& schemas, const schema::VirtualTables& virtual_tables,
                 const schema::LocalNodeInfo& node, QueryProcessorOptions options = {})
      : QueryProcessor(schemas, virtual_tables, node, nullptr, options) {}

  // QUERY: parses, prepares and executes `query` with `params` (bind values,
  // paging, v5 keyspace). USE changes `client.keyspace`.
  [[nodiscard]] Result Process(std::string_view query, const protocol::QueryParameters& params,
                               ClientState& client);

  // PREPARE: `keyspace` is the v5 PREPARE keyspace, else `client.keyspace` applies.
  // The id is Cassandra's: MD5 of the query, prefixed by that keyspace unless the
  // statement names its keyspace itself.
  [[nodiscard]] protocol::PreparedResult Prepare(std::string_view query, ClientState& client,
                                                 std::optional<std::string_view> keyspace);

  // EXECUTE. An unknown id throws CqlError(kUnprepared, "Prepared query with ID
  // <hex> not found (...)", UnpreparedInfo{id}): so does an id whose statement
  // a schema change evicted, as Cassandra 4.1's QueryProcessor evicts it — a
  // SELECT, INSERT, UPDATE, DELETE or BATCH when one of its tables is dropped
  // (with its keyspace or alone) or altered in a way that changes prepared
  // statements (schema::ChangeAffectsPreparedStatements: columns, types,
  // altered user types, indexes, default_time_to_live, gc_grace_seconds).
  // The driver then prepares it again and learns the new metadata. Any
  // other statement prepared against an older schema is prepared again
  // under the same id; if its result columns differ from the client's v5
  // result_metadata_id, RowsResult::new_metadata_id says so.
  [[nodiscard]] Result Execute(const protocol::ExecuteMessage& message, ClientState& client);
  [[nodiscard]] Result Execute(BytesView id, const protocol::QueryParameters& params,
                               ClientState& client,
                               std::optional<BytesView> result_metadata_id = std::nullopt);

  // BATCH: prepared and unprepared INSERT, UPDATE and DELETE statements with
  // their own values, applied atomically (batch_statement.h). An unknown
  // prepared id throws Unprepared as EXECUTE does.
  [[nodiscard]] Result Batch(const protocol::BatchMessage& message, ClientState& client);

  size_t prepared_count() const { return cache_->size(); }
  // The text of the statement prepared under `id`, if it is cached (for logs).
  [[nodiscard]] std::optional<std::string> PreparedQueryText(BytesView id) {
    PreparedStatementPtr statement = cache_->Find(id);
    if (!statement) return std::nullopt;
    return statement->query;
  }

 private:
  Result Run(const PreparedStatement& statement, const protocol::QueryParameters& params,
             ClientState& client, const schema::Schema& schema);
  // The statement under `id`, re-prepared if the schema changed since;
  // throws Unprepared if it is unknown or a change to its tables evicts it.
  PreparedStatementPtr FindPrepared(BytesView id, const schema::Schema& schema);
  Result RunBatch(const BatchPlan& batch, const BoundValues& values,
                  const protocol::QueryParameters& params, ClientState& client,
                  const schema::Schema& schema);
  Result RunTruncate(const TruncatePlan& truncate, const schema::Schema& schema,
                     ClientState& client);
  const RowSource& SourceFor(const schema::TableMetadata& table) const;
  // The coordinator; throws when the processor has none.
  cluster::Coordinator& RequireCoordinator() const;
  // Makes the engine's tables those of `schema`, and keeps them so.
  void FollowSchemaChanges();
  // Evicts the prepared statements each schema change affects.
  void EvictOnSchemaChanges();

  std::unique_ptr<schema::MetadataStore> owned_metadata_;  // set by the SchemaStore constructor
  schema::MetadataStore& metadata_;
  schema::SchemaStore& schemas_;
  const schema::LocalNodeInfo& node_;
  cluster::Coordinator* coordinator_;  // may be null
  const QueryProcessorOptions options_;
  VirtualRowSource virtual_rows_;
  std::optional<StorageRowSource> storage_rows_;  // set when coordinator_ is
  // Shared with the schema listener, which outlives the processor when the
  // MetadataStore does (it holds the cache weakly).
  std::shared_ptr<PreparedCache> cache_;
};

}  // namespace sibyl::query
