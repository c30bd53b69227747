#include "query/statements/table_resolution.h"

#include "common/error.h"
#include "schema/view_lookup.h"

namespace sibyl::query {

std::string ResolveKeyspace(const cql::QualifiedName& name,
                            std::optional<std::string_view> session_keyspace) {
  if (name.keyspace) return *name.keyspace;
  if (!session_keyspace) ThrowInvalid(std::string(kNoKeyspaceMessage));
  return std::string(*session_keyspace);
}

schema::TablePtr ResolveTable(const cql::QualifiedName& name, const schema::Schema& schema,
                              std::optional<std::string_view> session_keyspace) {
  const std::string keyspace = ResolveKeyspace(name, session_keyspace);
  const schema::KeyspaceMetadata* ks = schema.FindKeyspace(keyspace);
  if (ks == nullptr) ThrowInvalid("keyspace " + keyspace + " does not exist");
  // A materialized view resolves as a table (Schema.validateTable finds
  // both); writes refuse it themselves.
  schema::TablePtr table = schema::FindTableOrView(*ks, name.name);
  if (table == nullptr) ThrowInvalid("table " + name.name + " does not exist");
  return table;
}

}  // namespace sibyl::query
