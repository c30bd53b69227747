#include "storage/read/unfiltered_row_builder.h"

#include <algorithm>
#include <utility>

#include "storage/cells/reconcile.h"
#include "storage/codec/cell_codec.h"
#include "storage/data/storage_error.h"

namespace sibyl::storage {
namespace {}  // namespace

UnfilteredRowBuilder::UnfilteredRowBuilder(const TableLayout& table,
                                           const std::optional<std::vector<std::string>>& columns,
                                           const UnfilteredPurger& purger)
    : table_(table), columns_(columns), purger_(purger) {}

bool UnfilteredRowBuilder::Wanted(const ColumnLayout& column) const {
  if (column.is_static != row_.is_static) return false;
  return !row_.is_static || !columns_ ||
         std::find(columns_->begin(), columns_->end(), column.name) != columns_->end();
}

void UnfilteredRowBuilder::Start(const DeletionTime& shadow, bool is_static) {
  row_ = {};
  row_.is_static = is_static;
  shadow_ = shadow;
  row_deletion_ = shadow;
  column_.clear();
  column_deletion_ = {};
}

void UnfilteredRowBuilder::Add(BytesView row_part_key, BytesView value) {
  auto part = ParseRowPart(row_part_key);
  if (!part) ThrowMalformedRecord();
  switch (part->part) {
    case RowPart::kDeletion: {
      auto deletion = DecodeDeletion(value);
      if (!deletion) ThrowMalformedRecord();
      if (purger_.KeepDeletion(*deletion, shadow_)) row_.deletion = *deletion;
      // Shadowing counts a purgeable deletion too: what it shadows is dead.
      row_deletion_ = Reconcile(row_deletion_, *deletion);
      return;
    }
    case RowPart::kMarker: {
      auto marker = DecodeLiveness(value);
      if (!marker) ThrowMalformedRecord();
      if (!UnfilteredPurger::Shadows(row_deletion_, marker->timestamp) &&
          purger_.KeepMarker(*marker)) {
        row_.marker = *marker;
      }
      return;
    }
    case RowPart::kCell:
      AddCell(*part, value);
      return;
  }
  ThrowMalformedRecord();
}

void UnfilteredRowBuilder::AddCell(const RowPartKey& part, BytesView value) {
  if (part.column != column_) {
    column_ = part.column;
    column_deletion_ = {};
  }
  const ColumnLayout* column = table_.FindColumn(part.column);
  if (column == nullptr || !Wanted(*column)) return;  // dropped since, or not asked for
  if (part.cell_part == CellPart::kCollectionDeletion) {
    auto deletion = DecodeDeletion(value);
    if (!deletion) ThrowMalformedRecord();
    column_deletion_ = *deletion;
    if (purger_.KeepDeletion(*deletion, row_deletion_)) {
      row_.collection_deletions.push_back({part.column, *deletion});
    }
    return;
  }
  auto cell = DecodeCell(value);
  if (!cell) ThrowMalformedRecord();
  const bool element = part.cell_part == CellPart::kElement;
  if (UnfilteredPurger::Shadows(row_deletion_, cell->timestamp) ||
      (element && UnfilteredPurger::Shadows(column_deletion_, cell->timestamp)) ||
      !purger_.KeepCell(*cell)) {
    return;
  }
  CellWrite& out = row_.cells.emplace_back();
  out.column = part.column;
  if (element) {
    BytesView path_key = part.encoded_path;
    out.path = ReadCellPath(*column, path_key);
  }
  out.cell = cell->ToCell();
}

std::optional<RowWrite> UnfilteredRowBuilder::Finish(Clustering clustering) {
  if (row_.marker.is_empty() && row_.deletion.is_live() && row_.collection_deletions.empty() &&
      row_.cells.empty()) {
    return std::nullopt;
  }
  row_.clustering = std::move(clustering);
  return std::move(row_);
}

}  // namespace sibyl::storage
