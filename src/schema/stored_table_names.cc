#include "schema/stored_table_names.h"

namespace sibyl::schema {

std::map<types::Uuid, StoredTableName> StoredTableNames(const Schema& schema) {
  std::map<types::Uuid, StoredTableName> names;
  for (const auto& [keyspace_name, keyspace] : schema.keyspaces()) {
    for (const auto* tables : {&keyspace->tables, &keyspace->views}) {
      for (const auto& [name, table] : *tables) {
        names[table->id] = {keyspace_name, name, table->is_view() ? "view" : "table", table.get()};
        for (const IndexMetadata& index : table->indexes) {
          names[index.id] = {keyspace_name, name + "." + index.name, "index", table.get()};
        }
      }
    }
  }
  return names;
}

}  // namespace sibyl::schema
