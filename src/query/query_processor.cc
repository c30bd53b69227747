#include "query/query_processor.h"

#include <chrono>
#include <string>

#include "common/error.h"
#include "cql/parser.h"
#include "query/bind_variables.h"
#include "query/describe_executor.h"
#include "query/statement_id.h"
#include "schema/virtual_keyspaces.h"

namespace sibyl::query {
namespace {

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

}  // namespace

QueryProcessor::QueryProcessor(schema::MetadataStore& metadata,
                               const schema::VirtualTables& virtual_tables,
                               const schema::LocalNodeInfo& node, QueryProcessorOptions options)
    : metadata_(metadata),
      schemas_(metadata.schemas()),
      node_(node),
      virtual_rows_(virtual_tables, node),
      cache_(options.prepared_cache_capacity) {}

QueryProcessor::QueryProcessor(schema::SchemaStore& schemas,
                               const schema::VirtualTables& virtual_tables,
                               const schema::LocalNodeInfo& node, QueryProcessorOptions options)
    : owned_metadata_(std::make_unique<schema::InMemoryMetadataStore>(schemas)),
      metadata_(*owned_metadata_),
      schemas_(schemas),
      node_(node),
      virtual_rows_(virtual_tables, node),
      cache_(options.prepared_cache_capacity) {}

Result QueryProcessor::Process(std::string_view query, const protocol::QueryParameters& params,
                               ClientState& client) {
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
    cache_.Put(id_with_keyspace, statement);
    if (!statement->fully_qualified) id = std::move(id_with_keyspace);
  }
  cache_.Put(id, statement);

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
  PreparedStatementPtr statement = cache_.Find(id);
  if (!statement) ThrowUnprepared(id);
  const schema::SchemaPtr schema = schemas_.snapshot();
  if (statement->schema_version != schema->version()) {
    // The schema changed since PREPARE: prepare the text again against the
    // current schema, keeping the id the client knows.
    const cql::ParsedStatement parsed = cql::ParseStatement(statement->query);
    std::optional<std::string_view> keyspace;
    if (statement->keyspace) keyspace = *statement->keyspace;
    statement = PrepareStatement(parsed, statement->query, *schema, keyspace);
    cache_.Put(Bytes(id), statement);
  }
  Result result = Run(*statement, params, client, *schema);
  if (auto* rows = std::get_if<RowsResult>(&result)) {
    if (result_metadata_id && *result_metadata_id != BytesView(statement->result_metadata_id)) {
      rows->new_metadata_id = statement->result_metadata_id;
    }
  }
  return result;
}

Result QueryProcessor::Batch(const protocol::BatchMessage& message, ClientState& client) {
  ThrowInvalid(
      "BATCH statements are not supported by Sibyl yet (batches come with the write "
      "path)");
}

Result QueryProcessor::Run(const PreparedStatement& statement,
                           const protocol::QueryParameters& params, ClientState& client,
                           const schema::Schema& schema) {
  const BoundValues values(statement.bind_specs, params);
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
    if (!node_.data_center.empty()) context.replication.datacenters = {node_.data_center};
    context.now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    return ExecuteSchemaAlteration(**ddl, metadata_, context);
  }
  const auto& select = std::get<std::shared_ptr<const SelectStatement>>(statement.plan);
  return select->Execute(values, params, schema, virtual_rows_);
}

}  // namespace sibyl::query
