#include "cluster/read/read_table_layout.h"

namespace sibyl::cluster {

schema::TablePtr FindTableById(const schema::Schema& schema, const types::Uuid& table_id) {
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    for (const auto& [table_name, table] : keyspace->tables) {
      if (table->id == table_id) return table;
    }
  }
  return nullptr;
}

storage::TableLayout ReadTableLayout(const schema::TableMetadata& table) {
  storage::TableLayout layout;
  layout.id = table.id;
  layout.keyspace = table.keyspace;
  layout.name = table.name;
  for (const auto& column : table.columns) {
    switch (column.kind) {
      case schema::ColumnKind::kPartitionKey:
        layout.partition_key_types.push_back(column.type);
        break;
      case schema::ColumnKind::kClustering:
        layout.clustering.push_back(storage::ClusteringColumnLayout{
            column.type, column.order == schema::ClusteringOrder::kDesc});
        break;
      case schema::ColumnKind::kStatic:
      case schema::ColumnKind::kRegular:
        layout.columns.push_back(storage::ColumnLayout{column.name, column.type,
                                                       column.kind == schema::ColumnKind::kStatic});
        break;
    }
  }
  layout.options.gc_grace_seconds = table.params.gc_grace_seconds;
  return layout;
}

}  // namespace sibyl::cluster
