#include "cluster/read/table_lookup.h"

namespace sibyl::cluster {

schema::TablePtr FindTableById(const schema::Schema& schema, const types::Uuid& table_id) {
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    for (const auto& [table_name, table] : keyspace->tables) {
      if (table->id == table_id) return table;
    }
  }
  return nullptr;
}

}  // namespace sibyl::cluster
