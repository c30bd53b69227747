#include "storage/read/repair_diff.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "storage/cells/counter_context.h"
#include "storage/cells/reconcile.h"
#include "storage/codec/clustering_range.h"
#include "storage/codec/key_codec.h"

namespace sibyl::storage {
namespace {

// True when `a` is what reconciling it with `b` keeps, and is not `b`.
template <typename T>
bool Wins(const T& a, const T& b) {
  return !(a == b) && Reconcile(a, b) == a;
}

// A cell's identity in its row: the column, then the encoded path (so that
// equal elements spelled differently match); "" for a simple column.
using CellKey = std::pair<std::string, Bytes>;

CellKey KeyOf(const TableLayout& table, const CellWrite& cell) {
  Bytes path;
  if (cell.path) {
    AppendU8(path, 1);
    const ColumnLayout* column = table.FindColumn(cell.column);
    if (column != nullptr && column->is_multi_cell()) {
      AppendCellPath(*column, *cell.path, path);
    } else {
      path.append(*cell.path);  // a dropped column: bytes as they are
    }
  }
  return {cell.column, std::move(path)};
}

DeletionTime CollectionDeletionOf(const RowWrite& row, const std::string& column) {
  DeletionTime deletion;
  for (const auto& cd : row.collection_deletions) {
    if (cd.column == column) deletion = Reconcile(deletion, cd.deletion);
  }
  return deletion;
}

// One side (merged, or the replica) indexed by encoded keys.
class Side {
 public:
  struct Row {
    const RowWrite* write = nullptr;
    std::map<CellKey, const Cell*> cells;
  };

  Side(const TableLayout& table, const Mutation& m) : mutation_(m) {
    for (const auto& rt : m.range_tombstones) {
      ranges_.emplace_back(EncodeClusteringRange(table, rt.start, rt.end), rt.deletion);
    }
    for (const auto& write : m.rows) {
      Row& row = rows_[{write.is_static, EncodedClustering(table, write)}];
      if (row.write != nullptr) continue;  // the same row twice: the first is enough
      row.write = &write;
      for (const auto& cell : write.cells) row.cells.emplace(KeyOf(table, cell), &cell.cell);
    }
  }

  static Bytes EncodedClustering(const TableLayout& table, const RowWrite& row) {
    Bytes encoded;
    if (!row.is_static) AppendClustering(table, row.clustering, encoded);
    return encoded;
  }

  const DeletionTime& partition_deletion() const { return mutation_.partition_deletion; }
  const std::vector<std::pair<ClusteringRange, DeletionTime>>& ranges() const { return ranges_; }

  // The partition deletion and, for a regular row, the covering range tombstones.
  DeletionTime Shadow(bool is_static, BytesView encoded) const {
    DeletionTime shadow = mutation_.partition_deletion;
    if (is_static) return shadow;
    for (const auto& [range, deletion] : ranges_) {
      if (range.Contains(encoded)) shadow = Reconcile(shadow, deletion);
    }
    return shadow;
  }

  const Row* Find(bool is_static, const Bytes& encoded) const {
    auto it = rows_.find({is_static, encoded});
    return it == rows_.end() ? nullptr : &it->second;
  }

 private:
  const Mutation& mutation_;
  std::vector<std::pair<ClusteringRange, DeletionTime>> ranges_;
  std::map<std::pair<bool, Bytes>, Row> rows_;
};

// Shards reconcile idempotently and can be copied; a delta would count
// again on the replica that gets it.
void RefuseCounterDelta(const Cell* cell, const std::string& column) {
  if (cell != nullptr && cell->kind == Cell::Kind::kCounter && HoldsCounterDelta(cell->value)) {
    throw std::invalid_argument("read repair of counter column " + column +
                                ": a counter delta is not reconciled across replicas");
  }
}

void DiffRangeTombstones(const Side& merged, const Side& replica, const Mutation& from,
                         Mutation& diff) {
  for (size_t i = 0; i < from.range_tombstones.size(); ++i) {
    const RangeTombstone& rt = from.range_tombstones[i];
    const ClusteringRange& range = merged.ranges()[i].first;
    const int64_t at = rt.deletion.marked_for_delete_at;
    if (rt.deletion.is_live() || range.empty || merged.partition_deletion().Shadows(at) ||
        replica.partition_deletion().Shadows(at)) {
      continue;
    }
    const bool replica_has_it =
        std::any_of(replica.ranges().begin(), replica.ranges().end(), [&](const auto& theirs) {
          return theirs.first.Covers(range) && !rt.deletion.Supersedes(theirs.second);
        });
    if (replica_has_it || std::find(diff.range_tombstones.begin(), diff.range_tombstones.end(),
                                    rt) != diff.range_tombstones.end()) {
      continue;
    }
    diff.range_tombstones.push_back(rt);
  }
}

// The part of `row` (of merged) the replica lacks.
RowWrite DiffRow(const TableLayout& table, const Side& merged, const Side& replica,
                 const RowWrite& row) {
  const Bytes encoded = Side::EncodedClustering(table, row);
  const Side::Row* theirs = replica.Find(row.is_static, encoded);
  const RowWrite none;
  const RowWrite& their_row = theirs ? *theirs->write : none;
  const DeletionTime our_shadow = merged.Shadow(row.is_static, encoded);
  const DeletionTime their_shadow = replica.Shadow(row.is_static, encoded);
  auto alive = [](int64_t timestamp, const DeletionTime& ours, const DeletionTime& theirs) {
    return !ours.Shadows(timestamp) && !theirs.Shadows(timestamp);
  };

  RowWrite out;
  out.is_static = row.is_static;
  out.clustering = row.clustering;
  if (!row.deletion.is_live() &&
      alive(row.deletion.marked_for_delete_at, our_shadow, their_shadow) &&
      Wins(row.deletion, their_row.deletion)) {
    out.deletion = row.deletion;
  }
  const DeletionTime our_row = Reconcile(our_shadow, row.deletion);
  const DeletionTime their_row_deletion = Reconcile(their_shadow, their_row.deletion);
  if (!row.marker.is_empty() && alive(row.marker.timestamp, our_row, their_row_deletion) &&
      Wins(row.marker, their_row.marker)) {
    out.marker = row.marker;
  }
  for (const auto& cd : row.collection_deletions) {
    if (alive(cd.deletion.marked_for_delete_at, our_row, their_row_deletion) &&
        Wins(cd.deletion, CollectionDeletionOf(their_row, cd.column))) {
      out.collection_deletions.push_back(cd);
    }
  }
  for (const auto& cw : row.cells) {
    DeletionTime ours = our_row, theirs_deletion = their_row_deletion;
    if (cw.path) {  // an element: its collection's deletion counts too
      ours = Reconcile(ours, CollectionDeletionOf(row, cw.column));
      theirs_deletion = Reconcile(theirs_deletion, CollectionDeletionOf(their_row, cw.column));
    }
    const Cell* their_cell = nullptr;
    if (theirs) {
      auto it = theirs->cells.find(KeyOf(table, cw));
      if (it != theirs->cells.end()) their_cell = it->second;
    }
    RefuseCounterDelta(&cw.cell, cw.column);
    RefuseCounterDelta(their_cell, cw.column);
    if (!alive(cw.cell.timestamp, ours, theirs_deletion)) continue;
    if (their_cell == nullptr || Wins(cw.cell, *their_cell)) out.cells.push_back(cw);
  }
  return out;
}

}  // namespace

Mutation RepairDiff(const TableLayout& table, const Mutation& merged, const Mutation& replica) {
  const Side ours(table, merged);
  const Side theirs(table, replica);
  Mutation diff;
  diff.table_id = merged.table_id;
  diff.partition = merged.partition;
  if (!merged.partition_deletion.is_live() &&
      merged.partition_deletion.Supersedes(replica.partition_deletion)) {
    diff.partition_deletion = merged.partition_deletion;
  }
  DiffRangeTombstones(ours, theirs, merged, diff);
  for (const auto& row : merged.rows) {
    RowWrite out = DiffRow(table, ours, theirs, row);
    if (!out.empty()) diff.rows.push_back(std::move(out));
  }
  return diff;
}

}  // namespace sibyl::storage
