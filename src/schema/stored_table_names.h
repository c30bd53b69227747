#pragma once
// The stored tables, views and secondary indexes of a schema by the id
// their column family is named after (storage_layout.h): how the engine's
// per-table figures (Engine::Statistics, the large-data ledger) get their
// names back for the node's tables and metrics.

#include <map>
#include <string>

#include "schema/schema.h"
#include "types/uuid.h"

namespace sibyl::schema {

struct StoredTableName {
  std::string keyspace;
  std::string table;  // an index's is "<table>.<index>", as Cassandra names an index's table
  const char* kind;   // "table", "view" or "index"
  // The table or view; an index's base table. Lives as long as the schema.
  const TableMetadata* metadata;
};

[[nodiscard]] std::map<types::Uuid, StoredTableName> StoredTableNames(const Schema& schema);

}  // namespace sibyl::schema
