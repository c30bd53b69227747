#pragma once
// The guardrails schema changes check, where Cassandra 5.0's statements
// check them (CreateKeyspaceStatement, CreateTableStatement, AlterTable...,
// CreateIndexStatement, CreateViewStatement, CreateTypeStatement, the
// replication strategies' maybeWarnOnOptions): counts of keyspaces, tables,
// columns, indexes, views and user type fields; table properties;
// SimpleStrategy and replication factors; compression; DROP and TRUNCATE.
// Every function does nothing when `context.guardrails` is null.

#include <cstdint>
#include <set>
#include <string>

#include "query/statements/ddl/schema_alteration.h"
#include "schema/property_definitions.h"
#include "schema/replication_params.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"

namespace sibyl::query::ddl {

// keyspaces: a new keyspace among the user keyspaces of `current`.
void GuardNewKeyspace(const schema::Schema& current, const std::string& keyspace,
                      const SchemaChangeContext& context);
// simplestrategy, minimum_replication_factor, maximum_replication_factor for
// a keyspace's replication (not for system keyspaces).
void GuardReplication(const std::string& keyspace, const schema::ReplicationMap& replication,
                      const SchemaChangeContext& context);
// tables: a new table or view among the user keyspaces' tables and views.
void GuardNewTable(const schema::Schema& current, const std::string& table,
                   const SchemaChangeContext& context);
// table_properties: the WITH properties of CREATE / ALTER TABLE or VIEW;
// removes those table_properties_ignored names from `properties`.
void GuardTableProperties(schema::PropertyDefinitions& properties,
                          const SchemaChangeContext& context);
// uncompressed_tables_enabled and zero_ttl_on_twcs for a table's parameters.
void GuardTableParams(const std::string& keyspace, const schema::TableParams& params,
                      const SchemaChangeContext& context);
// A count threshold (columns_per_table, secondary_indexes_per_table,
// materialized_views_per_table, fields_per_udt) or a flag
// (drop_truncate_table_enabled, drop_keyspace_enabled, alter_table,
// secondary_indexes), with the call site's feature text.
void GuardCount(guardrails::GuardrailId id, int64_t value, const std::string& what,
                const SchemaChangeContext& context);
void GuardFeature(guardrails::GuardrailId id, const SchemaChangeContext& context,
                  std::string_view feature = {});

}  // namespace sibyl::query::ddl
