#include "schema/schema_diff.h"

#include <string>

namespace sibyl::schema {
namespace {

using protocol::SchemaChange;
using Target = SchemaChange::Target;
using Type = SchemaChange::Type;

void Add(std::vector<SchemaChange>& out, Type type, Target target, const std::string& keyspace,
         const std::string& name = {}) {
  SchemaChange change;
  change.type = type;
  change.target = target;
  change.keyspace = keyspace;
  change.name = name;
  out.push_back(std::move(change));
}

// Views are announced as tables (4.1's Target.TABLE), dropped before the
// tables they depend on and created after them.
void Dropped(std::vector<SchemaChange>& out, const KeyspaceMetadata& keyspace) {
  for (const auto& [name, view] : keyspace.views) {
    Add(out, Type::kDropped, Target::kTable, keyspace.name, name);
  }
  for (const auto& [name, table] : keyspace.tables) {
    Add(out, Type::kDropped, Target::kTable, keyspace.name, name);
  }
  for (const auto& [name, type] : keyspace.user_types) {
    Add(out, Type::kDropped, Target::kType, keyspace.name, name);
  }
  Add(out, Type::kDropped, Target::kKeyspace, keyspace.name);
}

void Created(std::vector<SchemaChange>& out, const KeyspaceMetadata& keyspace) {
  Add(out, Type::kCreated, Target::kKeyspace, keyspace.name);
  for (const auto& [name, type] : keyspace.user_types) {
    Add(out, Type::kCreated, Target::kType, keyspace.name, name);
  }
  for (const auto& [name, table] : keyspace.tables) {
    Add(out, Type::kCreated, Target::kTable, keyspace.name, name);
  }
  for (const auto& [name, view] : keyspace.views) {
    Add(out, Type::kCreated, Target::kTable, keyspace.name, name);
  }
}

void Altered(std::vector<SchemaChange>& out, const KeyspaceMetadata& before,
             const KeyspaceMetadata& after) {
  const std::string& ks = after.name;
  for (const auto& [name, view] : before.views) {
    if (!after.views.count(name)) Add(out, Type::kDropped, Target::kTable, ks, name);
  }
  for (const auto& [name, table] : before.tables) {
    if (!after.tables.count(name)) Add(out, Type::kDropped, Target::kTable, ks, name);
  }
  for (const auto& [name, type] : before.user_types) {
    if (!after.user_types.count(name)) Add(out, Type::kDropped, Target::kType, ks, name);
  }
  for (const auto& [name, type] : after.user_types) {
    if (!before.user_types.count(name)) Add(out, Type::kCreated, Target::kType, ks, name);
  }
  for (const auto& [name, table] : after.tables) {
    if (!before.tables.count(name)) Add(out, Type::kCreated, Target::kTable, ks, name);
  }
  for (const auto& [name, view] : after.views) {
    if (!before.views.count(name)) Add(out, Type::kCreated, Target::kTable, ks, name);
  }
  if (before.replication != after.replication || before.durable_writes != after.durable_writes) {
    Add(out, Type::kUpdated, Target::kKeyspace, ks);
  }
  for (const auto& [name, type] : after.user_types) {
    auto it = before.user_types.find(name);
    if (it != before.user_types.end() && !SameUserType(*it->second, *type)) {
      Add(out, Type::kUpdated, Target::kType, ks, name);
    }
  }
  for (const auto* tables : {&after.tables, &after.views}) {
    const auto& before_tables = tables == &after.tables ? before.tables : before.views;
    for (const auto& [name, table] : *tables) {
      auto it = before_tables.find(name);
      if (it != before_tables.end() && !SameTableDefinition(*it->second, *table)) {
        Add(out, Type::kUpdated, Target::kTable, ks, name);
      }
    }
  }
}

}  // namespace

std::vector<SchemaChange> SchemaChangesBetween(const Schema& before, const Schema& after) {
  std::vector<SchemaChange> changes;
  if (before.version() == after.version()) return changes;
  for (const auto& [name, keyspace] : before.keyspaces()) {
    if (!after.keyspaces().count(name)) Dropped(changes, *keyspace);
  }
  for (const auto& [name, keyspace] : after.keyspaces()) {
    auto it = before.keyspaces().find(name);
    if (it == before.keyspaces().end()) {
      Created(changes, *keyspace);
    } else {
      Altered(changes, *it->second, *keyspace);
    }
  }
  return changes;
}

}  // namespace sibyl::schema
