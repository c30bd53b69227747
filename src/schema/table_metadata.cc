#include "schema/table_metadata.h"

#include <algorithm>

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

namespace {

bool SameColumn(const ColumnMetadata& a, const ColumnMetadata& b) {
  // ColumnMetadata.equals: a clustering column's order is part of its type
  // (ReversedType) there.
  return a.name == b.name && a.kind == b.kind && a.position == b.position && a.order == b.order &&
         a.type->Equals(*b.type);
}

// Indexes.equals: the same indexes by name.
std::vector<const IndexMetadata*> ByName(const std::vector<IndexMetadata>& indexes) {
  std::vector<const IndexMetadata*> out;
  out.reserve(indexes.size());
  for (const IndexMetadata& index : indexes) out.push_back(&index);
  std::sort(out.begin(), out.end(),
            [](const IndexMetadata* a, const IndexMetadata* b) { return a->name < b->name; });
  return out;
}

// TableMetadata.Flag.isCQLTable.
bool IsCqlTable(const std::set<std::string>& flags) {
  return flags.count("dense") == 0 && flags.count("super") == 0 && flags.count("compound") != 0;
}

}  // namespace

bool ChangeAffectsPreparedStatements(const TableMetadata& before, const TableMetadata& after) {
  // `columns` is in a canonical order: primary key columns by position, then
  // the others by name, so equal column sets are equal vectors.
  if (!std::equal(before.columns.begin(), before.columns.end(), after.columns.begin(),
                  after.columns.end(), SameColumn)) {
    return true;
  }
  const auto before_indexes = ByName(before.indexes);
  const auto after_indexes = ByName(after.indexes);
  if (!std::equal(before_indexes.begin(), before_indexes.end(), after_indexes.begin(),
                  after_indexes.end(), [](const IndexMetadata* a, const IndexMetadata* b) {
                    return a->name == b->name && a->kind == b->kind && a->options == b->options;
                  })) {
    return true;
  }
  return before.params.default_time_to_live != after.params.default_time_to_live ||
         before.params.gc_grace_seconds != after.params.gc_grace_seconds ||
         (!IsCqlTable(before.flags) && IsCqlTable(after.flags));
}

}  // namespace sibyl::schema
