#include "schema/table_metadata.h"

#include "common/error.h"
#include "types/cql_identifier.h"

namespace sibyl::schema {

const char* ColumnKindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kPartitionKey:
      return "partition_key";
    case ColumnKind::kClustering:
      return "clustering";
    case ColumnKind::kRegular:
      return "regular";
    case ColumnKind::kStatic:
      return "static";
  }
  return "regular";
}

const char* ClusteringOrderName(ClusteringOrder o) {
  switch (o) {
    case ClusteringOrder::kNone:
      return "none";
    case ClusteringOrder::kAsc:
      return "asc";
    case ClusteringOrder::kDesc:
      return "desc";
  }
  return "none";
}

const ColumnMetadata* TableMetadata::FindColumn(std::string_view column) const {
  int index = ColumnIndex(column);
  return index < 0 ? nullptr : &columns[static_cast<size_t>(index)];
}

int TableMetadata::ColumnIndex(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return static_cast<int>(i);
  }
  return -1;
}

size_t TableMetadata::ExistingColumnIndex(std::string_view column) const {
  const int index = ColumnIndex(column);
  if (index < 0) {
    ThrowInvalid("Undefined column name " + types::MaybeQuoteIdentifier(std::string(column)) +
                 " in table " + QualifiedName());
  }
  return static_cast<size_t>(index);
}

size_t TableMetadata::partition_key_size() const {
  size_t n = 0;
  for (const auto& c : columns) n += c.kind == ColumnKind::kPartitionKey;
  return n;
}

size_t TableMetadata::clustering_size() const {
  size_t n = 0;
  for (const auto& c : columns) n += c.kind == ColumnKind::kClustering;
  return n;
}

std::string TableMetadata::QualifiedName() const {
  return types::MaybeQuoteIdentifier(keyspace) + "." + types::MaybeQuoteIdentifier(name);
}

}  // namespace sibyl::schema
