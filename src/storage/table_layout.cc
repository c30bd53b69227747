#include "storage/table_layout.h"

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

}  // namespace sibyl::storage
