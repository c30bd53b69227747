#include "storage/read/row_builder.h"

#include <algorithm>
#include <stdexcept>

#include "storage/cells/counter_context.h"
#include "storage/cells/reconcile.h"
#include "storage/codec/cell_codec.h"
#include "storage/codec/key_codec.h"
#include "storage/data/storage_error.h"

namespace sibyl::storage {

RowBuilder::RowBuilder(const TableLayout& table,
                       const std::optional<std::vector<std::string>>& columns, int32_t now_seconds)
    : table_(table), columns_(columns), now_(now_seconds) {}

bool RowBuilder::Wanted(const std::string& column) const {
  return !columns_ || std::find(columns_->begin(), columns_->end(), column) != columns_->end();
}

void RowBuilder::Start(const DeletionTime& shadow) {
  row_deletion_ = shadow;
  marker_ = {};
  has_live_cell_ = false;
  cells_.clear();
  column_.clear();
  column_deletion_ = {};
}

void RowBuilder::Add(BytesView row_part_key, BytesView value) {
  auto part = ParseRowPart(row_part_key);
  if (!part) ThrowMalformedRecord();
  switch (part->part) {
    case RowPart::kDeletion: {
      auto deletion = DecodeDeletion(value);
      if (!deletion) ThrowMalformedRecord();
      ++tombstones_;
      row_deletion_ = Reconcile(row_deletion_, *deletion);
      return;
    }
    case RowPart::kMarker: {
      auto marker = DecodeLiveness(value);
      if (!marker) ThrowMalformedRecord();
      if (!row_deletion_.Shadows(marker->timestamp) && marker->IsLive(now_)) marker_ = *marker;
      return;
    }
    case RowPart::kCell:
      break;
  }
  if (part->column != column_) {
    column_ = part->column;
    column_deletion_ = {};
  }
  if (part->cell_part == CellPart::kCollectionDeletion) {
    auto deletion = DecodeDeletion(value);
    if (!deletion) ThrowMalformedRecord();
    ++tombstones_;
    column_deletion_ = *deletion;
    return;
  }
  auto cell = DecodeCell(value);
  if (!cell) ThrowMalformedRecord();
  bool element = part->cell_part == CellPart::kElement;
  if (row_deletion_.Shadows(cell->timestamp) ||
      (element && column_deletion_.Shadows(cell->timestamp)) || !cell->IsLive(now_)) {
    ++tombstones_;
    return;
  }
  const ColumnLayout* column = table_.FindColumn(part->column);
  if (column == nullptr) return;  // a column dropped since: its data is gone
  has_live_cell_ = true;
  if (!Wanted(part->column)) return;
  ReadCell& out = cells_.emplace_back();
  out.column = part->column;
  if (element) {
    BytesView path_key = part->encoded_path;
    out.path = ReadCellPath(*column, path_key);
  }
  if (cell->kind == Cell::Kind::kCounter) {
    AssignCounterReadValue(cell->value, out.value);
  } else {
    out.value.assign(cell->value);
  }
  out.timestamp = cell->timestamp;
  if (cell->is_expiring()) {
    out.ttl = cell->ttl;
    out.local_expiration_time = cell->local_deletion_time;
  }
}

std::optional<ReadRow> RowBuilder::Finish(Clustering clustering, bool is_static) {
  bool live = is_static ? !cells_.empty() : !marker_.is_empty() || has_live_cell_;
  if (!live) return std::nullopt;
  ReadRow row;
  row.clustering = std::move(clustering);
  row.marker = marker_;
  row.cells = std::move(cells_);
  cells_.clear();
  return row;
}

}  // namespace sibyl::storage
