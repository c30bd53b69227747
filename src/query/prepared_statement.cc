#include "query/prepared_statement.h"

#include "common/error.h"
#include "query/describe_executor.h"
#include "query/statement_id.h"

namespace sibyl::query {

PreparedStatementPtr PrepareStatement(const cql::ParsedStatement& parsed, std::string_view query,
                                      const schema::Schema& schema,
                                      std::optional<std::string_view> keyspace) {
  auto prepared = std::make_shared<PreparedStatement>();
  prepared->query = std::string(query);
  if (keyspace) prepared->keyspace = std::string(*keyspace);
  prepared->schema_version = schema.version();

  if (const auto* select = std::get_if<cql::SelectStatement>(&parsed.statement)) {
    auto statement = SelectStatement::Prepare(*select, parsed.bind_marker_count, schema, keyspace);
    prepared->bind_specs = statement->bind_specs();
    prepared->partition_key_indexes = statement->partition_key_markers();
    prepared->result_columns = statement->selection().result_columns();
    prepared->fully_qualified = statement->fully_qualified();
    prepared->plan = std::move(statement);
  } else if (const auto* use = std::get_if<cql::UseStatement>(&parsed.statement)) {
    prepared->plan = UseKeyspace{use->keyspace};
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
  } else if (const auto* describe = std::get_if<cql::DescribeStatement>(&parsed.statement)) {
    prepared->plan = DescribePlan{ToDescribeRequest(*describe)};
    // The columns depend on the DESCRIBE form and are sent with each result.
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
  } else if (SchemaAlterationPtr ddl = PrepareSchemaAlteration(parsed.statement, keyspace)) {
    prepared->plan = std::move(ddl);
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
  } else {
    ThrowInvalid(std::string(cql::StatementKindName(parsed.statement)) +
                 " statements are not supported by Sibyl yet");
  }
  prepared->result_metadata_id = ComputeResultMetadataId(*prepared->result_columns);
  return prepared;
}

}  // namespace sibyl::query
