#include "query/query_processor.h"

#include <chrono>
#include <string>

#include "common/error.h"
#include "cql/parser.h"
#include "query/statement_id.h"
#include "query/statements/consistency_rules.h"
#include "query/statements/describe_statement.h"
#include "query/statements/write_attributes.h"
#include "query/terms/bind_variables.h"
#include "schema/storage_layout.h"
#include "schema/view_lookup.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

// QueryMessage / ExecuteMessage.execute: a page size of 0 is refused, not
// taken for "no paging" (BATCH does not check it).
void CheckPageSize(const protocol::QueryParameters& params) {
  if ((params.flags & protocol::kQueryFlagPageSize) && params.page_size == 0) {
    ThrowProtocol("The page size cannot be 0");
  }
}

std::optional<std::string_view> EffectiveKeyspace(std::optional<std::string_view> explicit_keyspace,
                                                  const ClientState& client) {
  if (explicit_keyspace) return explicit_keyspace;
  if (client.keyspace) return std::string_view(*client.keyspace);
  return std::nullopt;
}

[[noreturn]] void ThrowUnprepared(BytesView id) {
  throw CqlError(ErrorCode::kUnprepared,
                 "Prepared query with ID " + ToHex(id) +
                     " not found (either the query was not prepared on this host (maybe the host "
                     "has been restarted?) or you have prepared too many queries and it has been "
                     "evicted from the internal cache)",
                 UnpreparedInfo{Bytes(id)});
}

// Whether a schema change since `statement` was prepared evicts it, as
// Cassandra 4.1's StatementInvalidatingListener does (onDropKeyspace,
// onDropTable, onAlterTable with changeAffectsPreparedStatements): one of
// its tables is gone (dropped alone or with its keyspace), is another table
// of the same name, or changed in a way that affects prepared statements.
bool EvictedBy(const PreparedStatement& statement, const schema::Schema& schema) {
  for (const schema::TablePtr& table : statement.tables) {
    const schema::TablePtr current = schema.FindTable(table->keyspace, table->name);
    if (current == table) continue;
    if (current == nullptr || current->id != table->id ||
        schema::ChangeAffectsPreparedStatements(*table, *current)) {
      return true;
    }
  }
  return false;
}

// The one table every statement of a batch writes, or null.
schema::TablePtr OnlyTable(const std::vector<PreparedStatementPtr>& statements) {
  schema::TablePtr only;
  for (const PreparedStatementPtr& statement : statements) {
    if (statement->tables.size() != 1) return nullptr;
    if (only == nullptr) {
      only = statement->tables.front();
    } else if (only->id != statement->tables.front()->id) {
      return nullptr;
    }
  }
  return only;
}

}  // namespace

QueryProcessor::QueryProcessor(schema::MetadataStore& metadata,
                               const schema::VirtualTables& virtual_tables,
                               const schema::LocalNodeInfo& node, cluster::Coordinator* coordinator,
                               QueryProcessorOptions options)
    : metadata_(metadata),
      schemas_(metadata.schemas()),
      node_(node),
      coordinator_(coordinator),
      options_(options),
      virtual_rows_(virtual_tables, node),
      cache_(std::make_shared<PreparedCache>(options.prepared_cache_capacity)) {
  FollowSchemaChanges();
  EvictOnSchemaChanges();
}

QueryProcessor::QueryProcessor(schema::SchemaStore& schemas,
                               const schema::VirtualTables& virtual_tables,
                               const schema::LocalNodeInfo& node, cluster::Coordinator* coordinator,
                               QueryProcessorOptions options)
    : owned_metadata_(std::make_unique<schema::InMemoryMetadataStore>(schemas)),
      metadata_(*owned_metadata_),
      schemas_(schemas),
      node_(node),
      coordinator_(coordinator),
      options_(options),
      virtual_rows_(virtual_tables, node),
      cache_(std::make_shared<PreparedCache>(options.prepared_cache_capacity)) {
  FollowSchemaChanges();
  EvictOnSchemaChanges();
}

void QueryProcessor::FollowSchemaChanges() {
  if (coordinator_ == nullptr) return;
  storage_rows_.emplace(*coordinator_);
  storage::Engine& engine = coordinator_->engine();
  engine.SyncTables(schema::StoredTableLayouts(*schemas_.snapshot()));
  // Before a change is published, so that no client sees a table whose
  // column family does not exist yet (or still exists after a DROP).
  metadata_.AddListener([&engine](const schema::Schema& before, const schema::Schema& after) {
    engine.SyncTables(schema::StoredTableLayouts(after));
  });
}

void QueryProcessor::EvictOnSchemaChanges() {
  // Under the commit lock, before the change is published: a statement
  // prepared meanwhile against the old schema is caught by FindPrepared.
  metadata_.AddListener([cache = std::weak_ptr<PreparedCache>(cache_)](
                            const schema::Schema& before, const schema::Schema& after) {
    if (const std::shared_ptr<PreparedCache> prepared = cache.lock()) {
      prepared->RemoveIf(
          [&after](const PreparedStatement& statement) { return EvictedBy(statement, after); });
    }
  });
}

cluster::Coordinator& QueryProcessor::RequireCoordinator() const {
  if (coordinator_ == nullptr) {
    ThrowInvalid(
        "Reading and writing stored tables is not available: this query processor has no "
        "storage engine");
  }
  return *coordinator_;
}

const RowSource& QueryProcessor::SourceFor(const schema::TableMetadata& table) const {
  if (!schema::IsStoredTable(table)) return virtual_rows_;
  (void)RequireCoordinator();
  return *storage_rows_;
}

Result QueryProcessor::Process(std::string_view query, const protocol::QueryParameters& params,
                               ClientState& client) {
  CheckPageSize(params);
  const schema::SchemaPtr schema = schemas_.snapshot();
  const cql::ParsedStatement parsed = cql::ParseStatement(query);
  const PreparedStatementPtr statement =
      PrepareStatement(parsed, query, *schema, EffectiveKeyspace(params.keyspace, client));
  return Run(*statement, params, client, *schema);
}

protocol::PreparedResult QueryProcessor::Prepare(std::string_view query, ClientState& client,
                                                 std::optional<std::string_view> keyspace) {
  const schema::SchemaPtr schema = schemas_.snapshot();
  const std::optional<std::string_view> effective = EffectiveKeyspace(keyspace, client);
  const cql::ParsedStatement parsed = cql::ParseStatement(query);
  const PreparedStatementPtr statement = PrepareStatement(parsed, query, *schema, effective);

  // As Cassandra 4.1: a statement naming its keyspace is known by the id of its
  // text alone (and also stored under the keyspace-prefixed id); others by the
  // keyspace-prefixed id.
  const Bytes id_without_keyspace = ComputeStatementId(std::nullopt, query);
  Bytes id = id_without_keyspace;
  if (effective) {
    Bytes id_with_keyspace = ComputeStatementId(effective, query);
    cache_->Put(id_with_keyspace, statement);
    if (!statement->fully_qualified) id = std::move(id_with_keyspace);
  }
  cache_->Put(id, statement);

  protocol::PreparedResult result;
  result.id = std::move(id);
  result.result_metadata_id = statement->result_metadata_id;
  result.bind_variables = statement->bind_specs;
  result.partition_key_indexes = statement->partition_key_indexes;
  result.result_columns = *statement->result_columns;
  return result;
}

Result QueryProcessor::Execute(const protocol::ExecuteMessage& message, ClientState& client) {
  return Execute(message.id, message.params, client, message.result_metadata_id);
}

Result QueryProcessor::Execute(BytesView id, const protocol::QueryParameters& params,
                               ClientState& client, std::optional<BytesView> result_metadata_id) {
  const schema::SchemaPtr schema = schemas_.snapshot();
  const PreparedStatementPtr statement = FindPrepared(id, *schema);
  CheckPageSize(params);
  Result result = Run(*statement, params, client, *schema);
  if (auto* rows = std::get_if<RowsResult>(&result)) {
    if (!rows->always_send_metadata && result_metadata_id &&
        *result_metadata_id != BytesView(statement->result_metadata_id)) {
      rows->new_metadata_id = statement->result_metadata_id;
    }
  }
  return result;
}

PreparedStatementPtr QueryProcessor::FindPrepared(BytesView id, const schema::Schema& schema) {
  PreparedStatementPtr statement = cache_->Find(id);
  if (!statement) ThrowUnprepared(id);
  if (statement->schema_version != schema.version()) {
    // The listener evicts what a change affects before the change is
    // published; this catches a statement prepared against the old schema
    // while the change was being made.
    if (EvictedBy(*statement, schema)) {
      const PreparedStatement* stale = statement.get();
      cache_->RemoveIf([stale](const PreparedStatement& s) { return &s == stale; });
      ThrowUnprepared(id);
    }
    // A change that leaves the statement's tables as they were: prepare the
    // text again against the current schema, keeping the id the client knows.
    const cql::ParsedStatement parsed = cql::ParseStatement(statement->query);
    std::optional<std::string_view> keyspace;
    if (statement->keyspace) keyspace = *statement->keyspace;
    statement = PrepareStatement(parsed, statement->query, schema, keyspace);
    cache_->Put(Bytes(id), statement);
  }
  return statement;
}

Result QueryProcessor::Batch(const protocol::BatchMessage& message, ClientState& client) {
  const schema::SchemaPtr schema = schemas_.snapshot();
  const std::optional<std::string_view> keyspace = EffectiveKeyspace(message.keyspace, client);
  // Keeps the children's statements alive while the batch runs.
  std::vector<PreparedStatementPtr> statements;
  std::vector<protocol::QueryParameters> params(message.children.size());
  statements.reserve(message.children.size());
  std::vector<const ModificationPlan*> plans;
  for (size_t i = 0; i < message.children.size(); ++i) {
    const protocol::BatchChild& child = message.children[i];
    PreparedStatementPtr statement;
    if (child.is_prepared) {
      statement = FindPrepared(child.id, *schema);
    } else {
      const cql::ParsedStatement parsed = cql::ParseStatement(child.query);
      statement = PrepareStatement(parsed, child.query, *schema, keyspace);
    }
    const auto* plan = std::get_if<ModificationPlan>(&statement->plan);
    if (plan == nullptr) {
      ThrowInvalid(
          "Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
    }
    protocol::QueryParameters& p = params[i];
    p.consistency = message.consistency;
    p.values = child.values;
    p.names = child.names;
    if (!child.names.empty()) p.flags |= protocol::kQueryFlagNamesForValues;
    p.serial_consistency = message.serial_consistency;
    p.now_in_seconds = message.now_in_seconds;
    plans.push_back(plan);
    statements.push_back(std::move(statement));
  }
  client.statement_table = OnlyTable(statements);
  client.statement_writes = true;
  ValidateBatch(message.type, /*batch_timestamp_set=*/false, plans);
  cluster::Coordinator& coordinator = RequireCoordinator();
  std::vector<BatchChildRequest> children;
  children.reserve(plans.size());
  for (size_t i = 0; i < plans.size(); ++i) children.push_back({plans[i], &params[i]});
  BatchExecution execution{
      .type = message.type,
      .timestamp = message.default_timestamp.value_or(coordinator.clock().NextTimestampMicros()),
      .limits = options_.batch_limits,
      .warnings = &client.warnings,
      .guardrails = options_.guardrails};
  return ExecuteBatch(children, execution, *schema, coordinator);
}

Result QueryProcessor::RunBatch(const BatchPlan& batch, const BoundValues& values,
                                const protocol::QueryParameters& params, ClientState& client,
                                const schema::Schema& schema) {
  cluster::Coordinator& coordinator = RequireCoordinator();
  std::optional<int64_t> timestamp = params.default_timestamp;
  if (batch.timestamp) {
    if (const std::optional<int64_t> bound = BindTimestamp(*batch.timestamp, values)) {
      timestamp = bound;
    }
  }
  std::vector<protocol::QueryParameters> child_params(batch.children.size());
  std::vector<BatchChildRequest> children;
  children.reserve(batch.children.size());
  for (size_t i = 0; i < batch.children.size(); ++i) {
    const BatchPlan::Child& child = batch.children[i];
    protocol::QueryParameters& p = child_params[i];
    p.consistency = params.consistency;
    p.serial_consistency = params.serial_consistency;
    p.now_in_seconds = params.now_in_seconds;
    const size_t count = child.plan.statement->bind_specs().size();
    p.values.reserve(count);
    for (size_t k = 0; k < count; ++k) {
      p.values.push_back(values[child.first_marker + static_cast<int>(k)]);
    }
    children.push_back({&child.plan, &p});
  }
  BatchExecution execution{
      .type = batch.type,
      .timestamp = timestamp.value_or(coordinator.clock().NextTimestampMicros()),
      .limits = options_.batch_limits,
      .warnings = &client.warnings,
      .guardrails = options_.guardrails};
  return ExecuteBatch(children, execution, schema, coordinator);
}

Result QueryProcessor::RunTruncate(const TruncatePlan& truncate, const schema::Schema& schema,
                                   ClientState& client) {
  // TruncateStatement.validate, before the table is looked up.
  if (options_.guardrails != nullptr) {
    options_.guardrails->EnsureEnabled(guardrails::GuardrailId::kDropTruncateTable,
                                       &client.warnings);
  }
  const schema::KeyspaceMetadata* keyspace = schema.FindKeyspace(truncate.keyspace);
  if (keyspace == nullptr) ThrowInvalid("keyspace " + truncate.keyspace + " does not exist");
  const schema::TablePtr found = schema::FindTableOrView(*keyspace, truncate.table);
  if (found == nullptr) ThrowInvalid("table " + truncate.table + " does not exist");
  const schema::TableMetadata& table = *found;
  if (table.is_view()) {
    ThrowInvalid("Cannot TRUNCATE materialized view directly; must truncate base table instead");
  }
  if (table.is_virtual) ThrowInvalid("Cannot truncate virtual tables");
  if (!schema::IsStoredTable(table)) {
    ThrowInvalid("Truncating " + table.QualifiedName() +
                 " is not supported by Sibyl: the tables of system keyspaces are read-only");
  }
  // Every node's engine truncates a base table's views with it, under its
  // partition locks (index/indexing_engine.h), as 4.1's
  // ColumnFamilyStore.truncateBlocking truncates them after the base.
  RequireCoordinator().Truncate(table.id);
  return VoidResult{};
}

Result QueryProcessor::Run(const PreparedStatement& statement,
                           const protocol::QueryParameters& params, ClientState& client,
                           const schema::Schema& schema) {
  client.statement_table = statement.tables.size() == 1 ? statement.tables.front() : nullptr;
  client.statement_writes =
      !std::holds_alternative<std::shared_ptr<const SelectStatement>>(statement.plan);
  BoundValues values(statement.bind_specs, params);
  // QueryProcessor.processStatement, once the values are counted: for every
  // statement (a BATCH message is not checked, as 4.1's processBatch does not).
  RefuseNodeLocal(params.consistency);
  // now() and friends in terms read the node's clock, as writes do.
  FunctionContext functions;
  if (coordinator_ != nullptr) {
    functions.clock = &coordinator_->clock();
    values.set_function_context(&functions);
  }
  if (const auto* use = std::get_if<UseKeyspace>(&statement.plan)) {
    if (schema.FindKeyspace(use->keyspace) == nullptr) {
      ThrowInvalid("Keyspace '" + use->keyspace + "' does not exist");
    }
    client.keyspace = use->keyspace;
    return SetKeyspaceResult{use->keyspace};
  }
  if (const auto* describe = std::get_if<DescribePlan>(&statement.plan)) {
    std::optional<std::string_view> current_keyspace;
    if (client.keyspace) current_keyspace = *client.keyspace;
    const schema::DescribeContext context{schema, node_, current_keyspace,
                                          &schema::VirtualKeyspaces()};
    return ExecuteDescribe(describe->request, context, params);
  }
  if (const auto* ddl = std::get_if<SchemaAlterationPtr>(&statement.plan)) {
    SchemaChangeContext context;
    context.warnings = &client.warnings;
    context.materialized_views = options_.materialized_views;
    context.guardrails = options_.guardrails;
    if (!node_.data_center.empty()) {
      // The ring's datacenters and their sizes: this node and its peers.
      context.replication.datacenters = {node_.data_center};
      context.replication.node_counts = {{node_.data_center, 1}};
      for (const schema::PeerInfo& peer : node_.Peers()) {
        context.replication.datacenters.insert(peer.data_center);
        ++context.replication.node_counts[peer.data_center];
      }
    }
    // The node's clock when there is one, so that a column's drop time
    // compares with the write timestamps of the same clock.
    context.now_micros = coordinator_ != nullptr
                             ? coordinator_->clock().NextTimestampMicros()
                             : std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count();
    const uint64_t epoch_before = metadata_.epoch();
    Result result = ExecuteSchemaAlteration(**ddl, metadata_, context);
    const uint64_t epoch_after = metadata_.epoch();
    if (options_.after_schema_change && epoch_after != epoch_before) {
      options_.after_schema_change(epoch_after);
    }
    return result;
  }
  if (const auto* modification = std::get_if<ModificationPlan>(&statement.plan)) {
    const ModificationStatement& write = *modification->statement;
    if (write.table()->is_virtual && !write.has_conditions()) {
      // A virtual table's cells carry no timestamp that means anything: any
      // clock builds them (a processor for virtual tables alone has no coordinator).
      SystemClock fallback;
      Clock& clock = coordinator_ != nullptr ? coordinator_->clock() : fallback;
      virtual_rows_.Modify(schema, *write.table(),
                           write.BuildVirtualMutations(values, params, clock));
      return VoidResult{};
    }
    return ExecuteModification(*modification, values, params, schema, RequireCoordinator(),
                               {options_.guardrails, &client.warnings});
  }
  if (const auto* batch = std::get_if<std::shared_ptr<const BatchPlan>>(&statement.plan)) {
    return RunBatch(**batch, values, params, client, schema);
  }
  if (const auto* truncate = std::get_if<TruncatePlan>(&statement.plan)) {
    return RunTruncate(*truncate, schema, client);
  }
  const auto& select = std::get<std::shared_ptr<const SelectStatement>>(statement.plan);
  SelectContext context;
  if (coordinator_ != nullptr) context.clock = &coordinator_->clock();
  context.warnings = &client.warnings;
  context.thresholds = options_.read_thresholds;
  context.guardrails = options_.guardrails;
  if (coordinator_ != nullptr) context.ledger = &coordinator_->engine();
  if (!node_.broadcast_address.empty()) context.node_address = node_.broadcast_address;
  return select->Execute(values, params, schema, SourceFor(*select->table()), context);
}

}  // namespace sibyl::query
