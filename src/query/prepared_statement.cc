#include "query/prepared_statement.h"

#include <type_traits>

#include "common/error.h"
#include "query/statement_id.h"
#include "query/statements/describe_statement.h"

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
    prepared->tables = {statement->table()};
    prepared->plan = std::move(statement);
  } else if (std::holds_alternative<cql::InsertStatement>(parsed.statement) ||
             std::holds_alternative<cql::UpdateStatement>(parsed.statement) ||
             std::holds_alternative<cql::DeleteStatement>(parsed.statement)) {
    const cql::ModificationStatement raw = std::visit(
        [](const auto& s) -> cql::ModificationStatement {
          using T = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<T, cql::InsertStatement> ||
                        std::is_same_v<T, cql::UpdateStatement> ||
                        std::is_same_v<T, cql::DeleteStatement>) {
            return s;
          } else {
            return cql::InsertStatement{};  // unreachable: checked above
          }
        },
        parsed.statement);
    ModificationPlan plan = PrepareModification(raw, parsed.bind_marker_count, schema, keyspace);
    prepared->bind_specs = plan.statement->bind_specs();
    prepared->partition_key_indexes = plan.statement->partition_key_markers();
    prepared->fully_qualified = plan.statement->fully_qualified();
    prepared->tables = {plan.statement->table()};
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
    prepared->plan = std::move(plan);
  } else if (const auto* batch = std::get_if<cql::BatchStatement>(&parsed.statement)) {
    auto plan = PrepareBatch(*batch, parsed.bind_marker_count, schema, keyspace);
    prepared->bind_specs = plan->bind_specs;
    for (const BatchPlan::Child& child : plan->children) {
      prepared->tables.push_back(child.plan.statement->table());
    }
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
    prepared->plan = std::move(plan);
  } else if (const auto* truncate = std::get_if<cql::TruncateStatement>(&parsed.statement)) {
    TruncatePlan plan;
    plan.keyspace = ResolveKeyspace(truncate->table, keyspace);
    prepared->fully_qualified = truncate->table.keyspace.has_value();
    plan.table = truncate->table.name;
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
    prepared->plan = std::move(plan);
  } else if (const auto* use = std::get_if<cql::UseStatement>(&parsed.statement)) {
    prepared->plan = UseKeyspace{use->keyspace};
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
  } else if (const auto* describe = std::get_if<cql::DescribeStatement>(&parsed.statement)) {
    prepared->plan = DescribePlan{ToDescribeRequest(*describe)};
    // The columns depend on the DESCRIBE form and are sent with each result.
    prepared->result_columns = std::make_shared<const std::vector<protocol::ColumnSpec>>();
  } else if (SchemaAlterationPtr ddl =
                 PrepareSchemaAlteration(parsed.statement, keyspace, parsed.bind_marker_count)) {
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
