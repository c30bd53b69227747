#include "storage/compaction/purge_compaction_filter.h"

#include <vector>

#include "storage/cells/reconcile.h"
#include "storage/codec/cell_codec.h"
#include "storage/codec/clustering_range.h"
#include "storage/codec/key_codec.h"

namespace sibyl::storage {
namespace {

using Decision = rocksdb::CompactionFilter::Decision;

// One filter serves one compaction (sub)job, called by one thread with keys
// in ascending order: it remembers the deletions of the current partition,
// row and column to drop what they shadow.
class PurgeCompactionFilter final : public rocksdb::CompactionFilter {
 public:
  PurgeCompactionFilter(std::shared_ptr<const TableLayout> layout, int32_t now_seconds,
                        bool full_compaction)
      : layout_(std::move(layout)),
        now_(now_seconds),
        gc_before_(static_cast<int32_t>(static_cast<int64_t>(now_seconds) -
                                        layout_->options.gc_grace_seconds)),
        full_compaction_(full_compaction) {}

  const char* Name() const override { return "SibylPurgeCompactionFilter"; }

  Decision FilterV2(int /*level*/, const rocksdb::Slice& key, ValueType value_type,
                    const rocksdb::Slice& existing_value, std::string* new_value,
                    std::string* /*skip_until*/) const override {
    if (value_type != ValueType::kValue && value_type != ValueType::kMergeOperand) {
      return Decision::kKeep;
    }
    try {
      return Decide(BytesView(key.data(), key.size()),
                    BytesView(existing_value.data(), existing_value.size()),
                    value_type == ValueType::kValue, *new_value);
    } catch (...) {
      return Decision::kKeep;  // unparseable: keeping is always safe
    }
  }

 private:
  static bool Shadows(const DeletionTime& deletion, int64_t timestamp) {
    return !deletion.is_live() && deletion.Deletes(timestamp);
  }
  // Only a fully merged value of a compaction over every file may go.
  bool MayPurge(bool fully_merged, int32_t local_deletion_time) const {
    return full_compaction_ && fully_merged && local_deletion_time < gc_before_;
  }
  Decision KeepUnlessPurgeable(bool fully_merged, const DeletionTime& deletion) const {
    return MayPurge(fully_merged, deletion.local_deletion_time) ? Decision::kRemove
                                                                : Decision::kKeep;
  }

  void EnterPartition(BytesView prefix) const {
    if (prefix == BytesView(partition_)) return;
    partition_.assign(prefix);
    partition_deletion_ = {};
    range_deletions_.clear();
    row_.clear();
  }

  // `row_key` is the key up to the row part; `clustering` its encoded
  // clustering (empty for the static row, which range tombstones skip).
  void EnterRow(BytesView row_key, BytesView clustering, bool is_static) const {
    if (row_key == BytesView(row_)) return;
    row_.assign(row_key);
    row_shadow_ = partition_deletion_;
    if (!is_static) {
      for (const auto& rt : range_deletions_) {
        if (rt.range.Contains(clustering)) row_shadow_ = Reconcile(row_shadow_, rt.deletion);
      }
    }
    row_deletion_ = {};
    column_.clear();
    column_deletion_ = {};
  }

  Decision Decide(BytesView key, BytesView value, bool fully_merged, Bytes& new_value) const {
    size_t prefix_length = PartitionPrefixLength(key);
    if (prefix_length == 0 || prefix_length >= key.size()) return Decision::kKeep;
    EnterPartition(key.substr(0, prefix_length));
    BytesView rest = key.substr(prefix_length + 1);
    switch (static_cast<KeyKind>(key[prefix_length])) {
      case KeyKind::kPartitionDeletion: {
        auto deletion = DecodeDeletion(value);
        if (!deletion) return Decision::kKeep;
        partition_deletion_ = Reconcile(partition_deletion_, *deletion);
        return KeepUnlessPurgeable(fully_merged, *deletion);
      }
      case KeyKind::kRangeTombstone: {
        auto deletion = DecodeDeletion(value);
        auto bounds = ReadRangeTombstoneBounds(rest);
        if (!deletion || !bounds) return Decision::kKeep;
        if (Shadows(partition_deletion_, deletion->marked_for_delete_at)) {
          return Decision::kRemove;
        }
        range_deletions_.push_back(
            {EncodeClusteringRange(*layout_, bounds->first, bounds->second), *deletion});
        return KeepUnlessPurgeable(fully_merged, *deletion);
      }
      case KeyKind::kStaticRow:
        EnterRow(key.substr(0, prefix_length + 1), {}, /*is_static=*/true);
        return DecideRowPart(rest, value, fully_merged, new_value);
      case KeyKind::kRow: {
        BytesView clustering = SkipClustering(*layout_, rest);
        EnterRow(key.substr(0, key.size() - rest.size()), clustering, /*is_static=*/false);
        return DecideRowPart(rest, value, fully_merged, new_value);
      }
    }
    return Decision::kKeep;
  }

  Decision DecideRowPart(BytesView part_key, BytesView value, bool fully_merged,
                         Bytes& new_value) const {
    auto part = ParseRowPart(part_key);
    if (!part) return Decision::kKeep;
    DeletionTime row_deletion = Reconcile(row_shadow_, row_deletion_);
    switch (part->part) {
      case RowPart::kDeletion: {
        auto deletion = DecodeDeletion(value);
        if (!deletion) return Decision::kKeep;
        if (Shadows(row_shadow_, deletion->marked_for_delete_at)) return Decision::kRemove;
        row_deletion_ = Reconcile(row_deletion_, *deletion);
        return KeepUnlessPurgeable(fully_merged, *deletion);
      }
      case RowPart::kMarker: {
        auto marker = DecodeLiveness(value);
        if (!marker) return Decision::kKeep;
        if (Shadows(row_deletion, marker->timestamp)) return Decision::kRemove;
        bool expired = marker->ttl != 0 && marker->local_expiration_time <= now_;
        return expired && MayPurge(fully_merged, marker->local_expiration_time) ? Decision::kRemove
                                                                                : Decision::kKeep;
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
      if (!deletion) return Decision::kKeep;
      if (Shadows(row_deletion, deletion->marked_for_delete_at)) return Decision::kRemove;
      column_deletion_ = Reconcile(column_deletion_, *deletion);
      return KeepUnlessPurgeable(fully_merged, *deletion);
    }
    auto cell = DecodeCell(value);
    if (!cell) return Decision::kKeep;
    // A counter's deltas merge into one cell dated by the latest of them, and
    // only that merged cell is judged against deletions; and a counter's
    // tombstone beats every delta whatever the timestamps. Dropping a single
    // shadowed delta or tombstone here would change the result.
    const ColumnLayout* column = layout_->FindColumn(part->column);
    if (cell->kind == Cell::Kind::kCounter || (column != nullptr && column->is_counter())) {
      return cell->is_tombstone() && MayPurge(fully_merged, cell->local_deletion_time)
                 ? Decision::kRemove
                 : Decision::kKeep;
    }
    if (Shadows(row_deletion, cell->timestamp)) return Decision::kRemove;
    if (part->cell_part == CellPart::kElement && Shadows(column_deletion_, cell->timestamp)) {
      return Decision::kRemove;
    }
    bool converted = false;
    if (cell->is_expiring() && cell->local_deletion_time <= now_) {
      // Cassandra turns an expired cell into a tombstone dated at its write.
      cell = StoredCell{
          Cell::Kind::kTombstone, cell->timestamp, 0, cell->local_deletion_time - cell->ttl, {}};
      converted = true;
    }
    if (cell->is_tombstone() && MayPurge(fully_merged, cell->local_deletion_time)) {
      return Decision::kRemove;
    }
    if (!converted) return Decision::kKeep;
    new_value.clear();
    EncodeCell(*cell, new_value);
    return Decision::kChangeValue;
  }

  std::shared_ptr<const TableLayout> layout_;
  int32_t now_;
  int32_t gc_before_;
  bool full_compaction_;
  // The deletions in force at the current key (keys arrive in order).
  mutable Bytes partition_;
  mutable DeletionTime partition_deletion_;
  mutable std::vector<RangeDeletion> range_deletions_;
  mutable Bytes row_;
  mutable DeletionTime row_shadow_;    // partition and range deletions over the row
  mutable DeletionTime row_deletion_;  // the row's own deletion
  mutable std::string column_;
  mutable DeletionTime column_deletion_;
};

}  // namespace

std::unique_ptr<rocksdb::CompactionFilter> PurgeCompactionFilterFactory::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& context) {
  auto layout = state_->layout();
  if (!layout) return nullptr;  // layout not known yet: keep everything
  return std::make_unique<PurgeCompactionFilter>(std::move(layout), state_->clock().NowSeconds(),
                                                 context.is_full_compaction);
}

}  // namespace sibyl::storage
