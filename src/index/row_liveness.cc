#include "index/row_liveness.h"

#include "storage/cells/reconcile.h"
#include "storage/data/clustering_order.h"

namespace sibyl::index {

using storage::Cell;
using storage::DeletionTime;
using storage::RowWrite;

Liveness Longer(const Liveness& a, const Liveness& b) {
  if (a.ttl == 0 || b.ttl == 0) return {};
  if (a.local_expiration_time != b.local_expiration_time) {
    return a.local_expiration_time > b.local_expiration_time ? a : b;
  }
  return a.ttl >= b.ttl ? a : b;
}

Liveness Shorter(const Liveness& a, const Liveness& b) {
  if (a.ttl == 0) return b;
  if (b.ttl == 0) return a;
  if (a.local_expiration_time != b.local_expiration_time) {
    return a.local_expiration_time < b.local_expiration_time ? a : b;
  }
  return a.ttl <= b.ttl ? a : b;
}

Liveness LivenessOf(const Cell& cell) {
  if (cell.kind != Cell::Kind::kExpiring) return {};
  return {cell.ttl, cell.local_deletion_time};
}

bool CellLives(const Cell& cell, const DeletionTime& shadow, int32_t now) {
  return cell.kind != Cell::Kind::kTombstone && cell.IsLive(now) && !shadow.Deletes(cell.timestamp);
}

DeletionTime CollectionDeletionOf(const RowWrite& row, const std::string& column) {
  for (const auto& deletion : row.collection_deletions) {
    if (deletion.column == column) return deletion.deletion;
  }
  return {};
}

DeletionTime RowShadow(const storage::TableLayout& table, const storage::Mutation& partition,
                       const RowWrite& row) {
  DeletionTime shadow = partition.partition_deletion;
  if (!row.is_static) {
    for (const auto& rt : partition.range_tombstones) {
      if (storage::ClusteringWithin(storage::ClusteringColumnsOf(table), rt.start, rt.end,
                                    row.clustering)) {
        shadow = storage::Reconcile(shadow, rt.deletion);
      }
    }
  }
  return storage::Reconcile(shadow, row.deletion);
}

std::optional<Liveness> RowLiveness(const RowWrite& row, const DeletionTime& shadow, int32_t now) {
  std::optional<Liveness> liveness;
  auto extend = [&](const Liveness& l) { liveness = liveness ? Longer(*liveness, l) : l; };
  if (!row.marker.is_empty() && row.marker.IsLive(now) && !shadow.Deletes(row.marker.timestamp)) {
    extend(row.marker.ttl == 0 ? Liveness{}
                               : Liveness{row.marker.ttl, row.marker.local_expiration_time});
  }
  for (const auto& write : row.cells) {
    DeletionTime deletion = shadow;
    if (write.path) deletion = storage::Reconcile(shadow, CollectionDeletionOf(row, write.column));
    if (CellLives(write.cell, deletion, now)) extend(LivenessOf(write.cell));
  }
  return liveness;
}

}  // namespace sibyl::index
