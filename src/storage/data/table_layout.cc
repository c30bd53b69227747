#include "storage/data/table_layout.h"

#include <algorithm>

namespace sibyl::storage {

bool ColumnLayout::is_multi_cell() const {
  if (type->frozen()) return false;
  return type->is_collection() || type->kind() == types::Kind::kUdt;
}

const ColumnLayout* TableLayout::FindColumn(std::string_view column) const {
  for (const auto& c : columns) {
    if (c.name == column) return &c;
  }
  return nullptr;
}

bool ViewLayout::has_column_in_key() const {
  const auto is_column = [](const Source& s) { return s.kind == Source::Kind::kColumn; };
  return std::any_of(partition_key.begin(), partition_key.end(), is_column) ||
         std::any_of(clustering.begin(), clustering.end(), is_column);
}

}  // namespace sibyl::storage
