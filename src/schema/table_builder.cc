#include "schema/table_builder.h"

#include <algorithm>
#include <utility>

#include "common/check.h"
#include "schema/table_validation.h"

namespace sibyl::schema {

types::Uuid SystemTableId(std::string_view keyspace, std::string_view table) {
  std::string name(keyspace);
  name.append(table);
  return types::Uuid::NameBased(name);
}

TableBuilder::TableBuilder(std::string keyspace, std::string name) {
  table_.keyspace = std::move(keyspace);
  table_.name = std::move(name);
}

TableBuilder& TableBuilder::Add(std::string name, std::string_view type, ColumnKind kind,
                                int position, ClusteringOrder order) {
  ColumnMetadata column;
  column.name = std::move(name);
  column.type = types::ParseCqlType(type);
  column.kind = kind;
  column.position = position;
  column.order = order;
  table_.columns.push_back(std::move(column));
  return *this;
}

TableBuilder& TableBuilder::PartitionKey(std::string name, std::string_view type) {
  return Add(std::move(name), type, ColumnKind::kPartitionKey, partition_key_count_++,
             ClusteringOrder::kNone);
}

TableBuilder& TableBuilder::Clustering(std::string name, std::string_view type,
                                       ClusteringOrder order) {
  return Add(std::move(name), type, ColumnKind::kClustering, clustering_count_++, order);
}

TableBuilder& TableBuilder::Column(std::string name, std::string_view type) {
  return Add(std::move(name), type, ColumnKind::kRegular, -1, ClusteringOrder::kNone);
}

TableBuilder& TableBuilder::Static(std::string name, std::string_view type) {
  return Add(std::move(name), type, ColumnKind::kStatic, -1, ClusteringOrder::kNone);
}

TableBuilder& TableBuilder::Id(const types::Uuid& id) {
  table_.id = id;
  return *this;
}

TableBuilder& TableBuilder::SystemTableId() {
  return Id(schema::SystemTableId(table_.keyspace, table_.name));
}

TableBuilder& TableBuilder::Comment(std::string comment) {
  table_.params.comment = std::move(comment);
  return *this;
}

TableBuilder& TableBuilder::Index(IndexMetadata index) {
  table_.indexes.push_back(std::move(index));
  return *this;
}

TableBuilder& TableBuilder::Virtual() {
  table_.is_virtual = true;
  return *this;
}

TablePtr TableBuilder::Build() {
  SIBYL_CHECK(partition_key_count_ > 0);
  SortColumns(table_);
  return std::make_shared<const TableMetadata>(std::move(table_));
}

}  // namespace sibyl::schema
