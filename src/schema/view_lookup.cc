#include "schema/view_lookup.h"

namespace sibyl::schema {

TablePtr FindTableOrView(const KeyspaceMetadata& keyspace, std::string_view name) {
  if (auto it = keyspace.tables.find(name); it != keyspace.tables.end()) return it->second;
  if (auto it = keyspace.views.find(name); it != keyspace.views.end()) return it->second;
  return nullptr;
}

std::vector<TablePtr> ViewsOfTable(const KeyspaceMetadata& keyspace,
                                   const types::Uuid& base_table_id) {
  std::vector<TablePtr> views;
  for (const auto& [name, view] : keyspace.views) {
    if (view->view && view->view->base_table_id == base_table_id) views.push_back(view);
  }
  return views;
}

}  // namespace sibyl::schema
