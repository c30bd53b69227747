#pragma once
// DDL statements (CREATE / ALTER / DROP of KEYSPACE, TABLE, TYPE and
// MATERIALIZED VIEW; CREATE / DROP INDEX),
// prepared and executed as Cassandra 4.1's AlterSchemaStatement: preparing
// resolves the keyspace; executing checks the keyspace may be changed,
// then applies the statement to the newest schema through the
// MetadataStore, which persists and publishes the result.
//
// Execution answers as Cassandra does: a RESULT Schema_change naming what
// changed (CREATED TABLE ks t, UPDATED KEYSPACE ks, DROPPED TYPE ks t, ...),
// which the server also broadcasts as an EVENT; or a RESULT Void when there
// was nothing to change (IF [NOT] EXISTS, or options equal to the current
// ones), with no event.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "guardrails/guardrails.h"
#include "protocol/response.h"
#include "query/statements/result.h"
#include "schema/metadata_store.h"
#include "schema/replication_params.h"
#include "schema/schema.h"

namespace sibyl::query {

// The node's materialized view settings (docs/configuration.md).
struct MaterializedViewSettings {
  // cassandra.yaml's materialized_views_enabled (4.0: enable_materialized_views).
  // Cassandra 4.1 defaults to false; Sibyl to true, the guides relying on views.
  bool enabled = true;
  // Sibyl's materialized_views_strict_primary_key_selection: true refuses a
  // view PRIMARY KEY column that is not SELECTed, as 4.1 does ("Unknown
  // column"); false (the default) adds it to the selection, as Cassandra 3.x
  // and ScyllaDB do.
  bool strict_primary_key_selection = false;
};

// What executing a DDL statement needs besides the schema.
struct SchemaChangeContext {
  schema::ReplicationContext replication;
  // The statement's time in microseconds since the epoch: the drop time of
  // dropped columns when no USING TIMESTAMP is given.
  int64_t now_micros = 0;
  // Client warnings are appended here (Cassandra's ClientWarn), e.g. a
  // replication factor above the number of nodes.
  std::vector<std::string>* warnings = nullptr;
  MaterializedViewSettings materialized_views;
  // The guardrails DDL is checked against (guardrails/guardrails.h); null: none.
  const guardrails::Guardrails* guardrails = nullptr;
};

class SchemaAlteration {
 public:
  virtual ~SchemaAlteration() = default;

  // The keyspace the statement changes.
  const std::string& keyspace() const { return keyspace_; }

  // The keyspaces after the statement, or nullopt when there is nothing to
  // change. Throws CqlError with Cassandra's code and message.
  [[nodiscard]] virtual std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const = 0;

  // The change announced when Apply changed `before` (the schema Apply was
  // given): DROP INDEX learns there which table it changed.
  [[nodiscard]] virtual protocol::SchemaChange Change(const schema::Schema& before) const = 0;

  // The permission check Cassandra's ClientState makes before execution:
  // local system keyspaces are never user-modifiable, the replicated ones
  // (system_auth, system_distributed, system_traces) only by ALTER KEYSPACE.
  // Throws CqlError(kUnauthorized).
  virtual void Authorize() const = 0;

 protected:
  explicit SchemaAlteration(std::string keyspace) : keyspace_(std::move(keyspace)) {}

 private:
  std::string keyspace_;
};
using SchemaAlterationPtr = std::shared_ptr<const SchemaAlteration>;

// The DDL statement `statement` prepared in the session's `keyspace`, or
// nullptr when it is not one Sibyl executes here. Throws what Cassandra
// throws while preparing (no keyspace given nor in use, no PRIMARY KEY,
// COMPACT STORAGE, bind markers in CREATE MATERIALIZED VIEW).
[[nodiscard]] SchemaAlterationPtr PrepareSchemaAlteration(const cql::Statement& statement,
                                                          std::optional<std::string_view> keyspace,
                                                          size_t bind_marker_count = 0);

// Runs `alteration` against `store`: Authorize, Cassandra's keyspace checks
// (system and virtual keyspaces, name rules), then Commit.
[[nodiscard]] Result ExecuteSchemaAlteration(const SchemaAlteration& alteration,
                                             schema::MetadataStore& store,
                                             const SchemaChangeContext& context);

}  // namespace sibyl::query
