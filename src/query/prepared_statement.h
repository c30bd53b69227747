#pragma once
// A statement prepared against a schema snapshot: what PREPARE returns to
// the client and what EXECUTE (and QUERY, which prepares on the fly) runs.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "cql/ast.h"
#include "protocol/response.h"
#include "query/statements/batch_statement.h"
#include "query/statements/ddl/schema_alteration.h"
#include "query/statements/select_statement.h"
#include "schema/describe.h"
#include "schema/schema.h"
#include "types/uuid.h"

namespace sibyl::query {

// USE <keyspace>: checked against the schema when executed, as Cassandra does.
struct UseKeyspace {
  std::string keyspace;
};

// DESCRIBE: rendered from the schema snapshot current when it runs.
struct DescribePlan {
  schema::DescribeRequest request;
};

// TRUNCATE: the table is looked up when it runs, as Cassandra does.
struct TruncatePlan {
  std::string keyspace;
  std::string table;
};

struct PreparedStatement {
  std::string query;
  // The keyspace unqualified names resolved in when it was prepared.
  std::optional<std::string> keyspace;
  // The schema version it was prepared against. Against a newer schema it
  // is prepared again, unless a change to one of its `tables` evicted it.
  types::Uuid schema_version;
  // The tables whose changes evict it from the prepared cache (a SELECT's,
  // an INSERT, UPDATE or DELETE's, those of a batch's statements), as they
  // were when it was prepared. Empty for other statements, which no schema
  // change evicts (QueryProcessor, docs/dev/query.md).
  std::vector<schema::TablePtr> tables;
  std::vector<protocol::ColumnSpec> bind_specs;
  std::vector<uint16_t> partition_key_indexes;
  // Never null; empty for statements that return no rows.
  std::shared_ptr<const std::vector<protocol::ColumnSpec>> result_columns;
  Bytes result_metadata_id;      // protocol v5
  bool fully_qualified = false;  // names its keyspace itself
  std::variant<std::shared_ptr<const SelectStatement>, UseKeyspace, DescribePlan,
               SchemaAlterationPtr, ModificationPlan, std::shared_ptr<const BatchPlan>,
               TruncatePlan>
      plan;
};
using PreparedStatementPtr = std::shared_ptr<const PreparedStatement>;

// Prepares a parsed statement. Throws CqlError(kInvalid) for statements
// Sibyl cannot run yet ("CREATE INDEX statements are not supported by Sibyl
// yet") and for anything Cassandra refuses at prepare time.
[[nodiscard]] PreparedStatementPtr PrepareStatement(const cql::ParsedStatement& parsed,
                                                    std::string_view query,
                                                    const schema::Schema& schema,
                                                    std::optional<std::string_view> keyspace);

}  // namespace sibyl::query
