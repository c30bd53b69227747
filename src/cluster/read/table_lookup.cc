#include "cluster/read/table_lookup.h"

namespace sibyl::cluster {

schema::TablePtr FindTableById(const schema::Schema& schema, const types::Uuid& table_id) {
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    for (const auto* tables : {&keyspace->tables, &keyspace->views}) {
      for (const auto& [table_name, table] : *tables) {
        if (table->id == table_id) return table;
      }
    }
  }
  return nullptr;
}

}  // namespace sibyl::cluster
