#pragma once
// Shared pieces of the DDL statements (schema_alteration.h): keyspace
// resolution, WITH options, Cassandra's permission rules for system
// keyspaces, and the per-statement factories.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "query/statements/ddl/schema_alteration.h"
#include "query/statements/table_resolution.h"
#include "schema/property_definitions.h"
#include "types/uuid.h"

namespace sibyl::query::ddl {

using query::ResolveKeyspace;  // table_resolution.h

[[nodiscard]] schema::PropertyDefinitions ToProperties(const cql::Options& options);

using cql::Permission;  // CREATE, ALTER and DROP are the ones schema changes need

// ClientState.preventSystemKSSchemaModification for a keyspace-level
// resource ("<keyspace ks>") and a table ("<table ks.t>").
void EnsureKeyspacePermission(std::string_view keyspace, Permission permission);
void EnsureTablePermission(std::string_view keyspace, std::string_view table,
                           Permission permission);

// TableId.generate(): a new table's (or view's) id, a time-based UUID.
[[nodiscard]] types::Uuid NewTableId(int64_t now_micros);

[[nodiscard]] protocol::SchemaChange MakeChange(protocol::SchemaChange::Type type,
                                                protocol::SchemaChange::Target target,
                                                std::string keyspace, std::string name = {});

// Factories, one per statement (keyspace_statements.cc, table_statements.cc,
// alter_table_statement.cc, type_statements.cc, index_statements.cc,
// view_statements.cc).
[[nodiscard]] SchemaAlterationPtr PrepareCreateKeyspace(const cql::CreateKeyspaceStatement& s);
[[nodiscard]] SchemaAlterationPtr PrepareAlterKeyspace(const cql::AlterKeyspaceStatement& s);
[[nodiscard]] SchemaAlterationPtr PrepareDropKeyspace(const cql::DropKeyspaceStatement& s);
[[nodiscard]] SchemaAlterationPtr PrepareCreateTable(const cql::CreateTableStatement& s,
                                                     std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareAlterTable(const cql::AlterTableStatement& s,
                                                    std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareDropTable(const cql::DropTableStatement& s,
                                                   std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareCreateType(const cql::CreateTypeStatement& s,
                                                    std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareAlterType(const cql::AlterTypeStatement& s,
                                                   std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareDropType(const cql::DropTypeStatement& s,
                                                  std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareCreateIndex(const cql::CreateIndexStatement& s,
                                                     std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareDropIndex(const cql::DropIndexStatement& s,
                                                   std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareCreateView(const cql::CreateViewStatement& s,
                                                    std::optional<std::string_view> keyspace,
                                                    size_t bind_marker_count);
[[nodiscard]] SchemaAlterationPtr PrepareAlterView(const cql::AlterViewStatement& s,
                                                   std::optional<std::string_view> keyspace);
[[nodiscard]] SchemaAlterationPtr PrepareDropView(const cql::DropViewStatement& s,
                                                  std::optional<std::string_view> keyspace);

// The names of `table`'s indexes that depend on `column` (Cassandra's
// SecondaryIndexManager.getDependentIndexes), in name order: those whose
// target is the column, and those whose target Sibyl cannot read.
[[nodiscard]] std::vector<std::string> DependentIndexes(const schema::TableMetadata& table,
                                                        std::string_view column);

}  // namespace sibyl::query::ddl
