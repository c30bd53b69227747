#pragma once
// Server-side DESCRIBE, as Cassandra 4.1 answers it
// (cql3/statements/DescribeStatement.java): the statement's rows computed
// from a schema snapshot, free of sockets and of the protocol.
//
// Result columns (every column's keyspace is "system", table "describe"):
//   listings — DESCRIBE KEYSPACES / TABLES / TYPES / FUNCTIONS / AGGREGATES:
//     keyspace_name text, type text, name text
//   elements — DESCRIBE [ONLY] KEYSPACE / TABLE / INDEX / MATERIALIZED VIEW /
//     TYPE / FUNCTION / AGGREGATE / [FULL] SCHEMA / DESCRIBE <name>:
//     keyspace_name text, type text, name text, create_statement text
//   DESCRIBE CLUSTER:
//     cluster text, partitioner text, snitch text
//     [, range_ownership frozen<map<text, frozen<list<text>>>>] when the
//     session's keyspace is set and is not a system keyspace: each token
//     range's end token → its replicas' "/address:port".
// Names in rows are quoted where CQL needs it; `type` is one of keyspace,
// type, function, aggregate, table, index, materialized_view.
//
// Order: keyspaces and elements by name, case-insensitively; a keyspace's
// elements as keyspace, types (dependencies first), functions, aggregates,
// then each table followed by its indexes and its materialized views (as
// 4.1's getTableElements; DESCRIBE TABLE shows the table and its indexes
// only, as 4.1's DescribeStatement.table does). DESCRIBE SCHEMA leaves out the
// system keyspaces (system, system_schema, system_auth, system_distributed,
// system_traces, system_views, system_virtual_schema); FULL SCHEMA keeps them.
//
// Errors are CqlError(kInvalid) with Cassandra's messages:
//   "'ks' not found in keyspaces"
//   "No keyspace specified and no current keyspace"
//   "Table 't' not found in keyspace 'ks'"
//   "Table for existing index 'i' not found in 'ks'"
//   "Materialized view 'v' not found in 'ks'"
//   "User defined type 't' not found in 'ks'"
//   "User defined function 'f' not found in 'ks'"
//   "User defined aggregate 'a' not found in 'ks'"
//   "'x' not found in keyspace 'ks'" (DESCRIBE <name>)
//
// Paging: Cassandra pages DESCRIBE by row offset and refuses a page whose
// schema changed since the first; EncodeDescribePagingPosition /
// DecodeDescribePagingPosition carry that offset for the query layer.
//
// Not covered because the schema has no such elements yet: user functions
// and aggregates (listings are empty; lookups fail with the not-found
// messages above), dropped columns (WITH INTERNALS shows none).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "schema/local_node_info.h"
#include "schema/row_order.h"
#include "schema/schema.h"
#include "types/cql_type.h"
#include "types/uuid.h"

namespace sibyl::schema {

enum class DescribeKind {
  kCluster,           // DESCRIBE CLUSTER
  kSchema,            // DESCRIBE [FULL] SCHEMA
  kKeyspaces,         // DESCRIBE KEYSPACES
  kKeyspace,          // DESCRIBE [ONLY] KEYSPACE [ks]
  kTables,            // DESCRIBE TABLES
  kTable,             // DESCRIBE TABLE|COLUMNFAMILY [ks.]t
  kIndex,             // DESCRIBE INDEX [ks.]i
  kMaterializedView,  // DESCRIBE MATERIALIZED VIEW [ks.]v
  kTypes,             // DESCRIBE TYPES
  kType,              // DESCRIBE TYPE [ks.]t
  kFunctions,         // DESCRIBE FUNCTIONS
  kFunction,          // DESCRIBE FUNCTION [ks.]f
  kAggregates,        // DESCRIBE AGGREGATES
  kAggregate,         // DESCRIBE AGGREGATE [ks.]a
  kGeneric,           // DESCRIBE [ks.]name: a keyspace, table, index or view, in that order
};

// A parsed DESCRIBE statement. Names are as the parser resolved them
// (unquoted identifiers already lower-cased).
struct DescribeRequest {
  DescribeKind kind = DescribeKind::kKeyspaces;
  // The keyspace written in the statement; nullopt uses the session's (USE).
  std::optional<std::string> keyspace;
  // The element's name; for kKeyspace the keyspace goes in `keyspace`.
  std::string name;
  bool full = false;            // DESCRIBE FULL SCHEMA
  bool only = false;            // DESCRIBE ONLY KEYSPACE
  bool with_internals = false;  // ... WITH INTERNALS
};

struct DescribeColumn {
  std::string keyspace;  // always "system"
  std::string table;     // always "describe"
  std::string name;
  types::TypePtr type;
};
using DescribeColumns = std::vector<DescribeColumn>;

struct DescribeResult {
  // One of a few shared, immutable column lists.
  std::shared_ptr<const DescribeColumns> columns;
  // Every row (unpaged), one value per column; no value is null.
  std::vector<Row> rows;
};

// What the statement may look at. Everything referenced outlives the call.
struct DescribeContext {
  const Schema& schema;
  // DESCRIBE CLUSTER: cluster name, tokens and address of this node.
  const LocalNodeInfo& node;
  // The session's keyspace (USE), if any.
  std::optional<std::string_view> current_keyspace;
  // The virtual keyspaces (system_views, system_virtual_schema) with their
  // tables, by name; they are described as virtual. A name present both here
  // and in `schema` is taken from here. May be null.
  const Schema::KeyspaceMap* virtual_keyspaces = nullptr;
};

// Runs the DESCRIBE statement. Throws CqlError(kInvalid) as listed above.
[[nodiscard]] DescribeResult Describe(const DescribeRequest& request,
                                      const DescribeContext& context);

// Paging position for the next page of a DESCRIBE result, as Cassandra keeps
// it: format version, release version, schema version and row offset.
[[nodiscard]] Bytes EncodeDescribePagingPosition(int64_t next_offset,
                                                 const types::Uuid& schema_version);
// The row offset where the next page starts. Throws CqlError(kInvalid) with
// Cassandra's messages: "Invalid paging state.", "Incompatible paging state",
// "The server version of the paging state X is different from the one of the
// server Y", and "The schema has changed since the previous page of the
// DESCRIBE statement result. Please retry the DESCRIBE statement." when
// `schema_version` is not the one the position was made with.
[[nodiscard]] int64_t DecodeDescribePagingPosition(BytesView position,
                                                   const types::Uuid& schema_version);

}  // namespace sibyl::schema
