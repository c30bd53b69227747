#include "query/restrictions/index_support.h"

#include <string_view>

#include "query/restrictions/restrictions.h"
#include "schema/index_target.h"

namespace sibyl::query {
namespace {

using schema::IndexMetadata;
using schema::IndexTargetSpec;
using schema::TableMetadata;
using types::Kind;

constexpr std::string_view kStorageAttachedIndex =
    "org.apache.cassandra.index.sai.StorageAttachedIndex";

bool Queryable(const IndexMetadata& index) {
  if (index.kind != "CUSTOM") return true;
  const auto cls = index.options.find("class_name");
  return cls != index.options.end() && cls->second == kStorageAttachedIndex;
}

// CassandraIndex.supportsOperator of the functions getFunctions picks for
// `target` on a column of `type`.
bool Answers(const types::CqlType& type, IndexTargetSpec::Kind target, IndexOperator op) {
  using Target = IndexTargetSpec::Kind;
  if (type.is_collection() && !type.frozen()) {
    switch (type.kind()) {
      case Kind::kList:
        return op == IndexOperator::kContains && target != Target::kFull;
      case Kind::kSet:
        return op == IndexOperator::kContains &&
               (target == Target::kValues || target == Target::kKeys || target == Target::kSimple);
      case Kind::kMap:
        switch (target) {
          case Target::kKeys:
            return op == IndexOperator::kContainsKey;
          case Target::kEntries:
            return op == IndexOperator::kMapEntry;
          case Target::kValues:
          case Target::kSimple:
            return op == IndexOperator::kContains;
          case Target::kFull:
            return false;
        }
        return false;
      default:
        return false;
    }
  }
  return op == IndexOperator::kEq && (target == Target::kSimple || target == Target::kFull);
}

}  // namespace

const IndexMetadata* FindSupportingIndex(const TableMetadata& table, size_t column,
                                         IndexOperator op) {
  const schema::ColumnMetadata& metadata = table.columns[column];
  for (const IndexMetadata& index : table.indexes) {
    if (!Queryable(index)) continue;
    const auto target_option = index.options.find("target");
    if (target_option == index.options.end()) continue;
    const std::optional<IndexTargetSpec> target = schema::ParseIndexTarget(target_option->second);
    if (!target || target->column != metadata.name) continue;
    if (Answers(*metadata.type, target->kind, op)) return &index;
  }
  return nullptr;
}

std::optional<IndexChoice> SupportingIndex(const TableMetadata& table,
                                           const ColumnRestriction& restriction) {
  auto try_op = [&](bool present, IndexOperator op) -> std::optional<IndexChoice> {
    if (!present) return std::nullopt;
    const IndexMetadata* index = FindSupportingIndex(table, restriction.column, op);
    if (index == nullptr) return std::nullopt;
    return IndexChoice{index->id, restriction.column, op};
  };
  // `c IN (v)` is prepared as `c = v`; an IN of several values or a marker
  // is answered by no index, nor is a slice.
  if (auto choice = try_op(restriction.eq.has_value(), IndexOperator::kEq)) return choice;
  if (auto choice = try_op(!restriction.contains.empty(), IndexOperator::kContains)) return choice;
  if (auto choice = try_op(!restriction.contains_key.empty(), IndexOperator::kContainsKey)) {
    return choice;
  }
  return try_op(!restriction.map_entries.empty(), IndexOperator::kMapEntry);
}

std::optional<IndexChoice> SupportingIndex(const TableMetadata& table,
                                           const MultiColumnRestriction& restriction) {
  if (restriction.kind != MultiColumnRestriction::Kind::kEq) return std::nullopt;
  for (size_t column = restriction.first; column <= restriction.last(); ++column) {
    if (const IndexMetadata* index = FindSupportingIndex(table, column, IndexOperator::kEq)) {
      return IndexChoice{index->id, column, IndexOperator::kEq};
    }
  }
  return std::nullopt;
}

}  // namespace sibyl::query
