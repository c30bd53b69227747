#include "storage/mutation_merge.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <utility>

#include "storage/reconcile.h"

namespace sibyl::storage {
namespace {

void MergeRow(RowWrite& into, RowWrite&& other) {
  into.marker = Reconcile(into.marker, other.marker);
  into.deletion = Reconcile(into.deletion, other.deletion);
  for (CollectionDeletion& deletion : other.collection_deletions) {
    auto same =
        std::find_if(into.collection_deletions.begin(), into.collection_deletions.end(),
                     [&](const CollectionDeletion& d) { return d.column == deletion.column; });
    if (same == into.collection_deletions.end()) {
      into.collection_deletions.push_back(std::move(deletion));
    } else {
      same->deletion = Reconcile(same->deletion, deletion.deletion);
    }
  }
  for (CellWrite& cell : other.cells) {
    auto same = std::find_if(into.cells.begin(), into.cells.end(), [&](const CellWrite& c) {
      return c.column == cell.column && c.path == cell.path;
    });
    if (same == into.cells.end()) {
      into.cells.push_back(std::move(cell));
    } else {
      same->cell = Reconcile(same->cell, cell.cell);
    }
  }
}

}  // namespace

void MergeMutation(Mutation& into, Mutation&& other) {
  into.partition_deletion = Reconcile(into.partition_deletion, other.partition_deletion);
  for (RangeTombstone& tombstone : other.range_tombstones) {
    into.range_tombstones.push_back(std::move(tombstone));
  }
  for (RowWrite& row : other.rows) {
    auto same = std::find_if(into.rows.begin(), into.rows.end(), [&](const RowWrite& r) {
      return r.is_static == row.is_static && r.clustering == row.clustering;
    });
    if (same == into.rows.end()) {
      into.rows.push_back(std::move(row));
    } else {
      MergeRow(*same, std::move(row));
    }
  }
}

std::vector<Mutation> MergeByPartition(std::vector<Mutation> mutations) {
  std::vector<Mutation> merged;
  merged.reserve(mutations.size());
  // (table, token, key) → index in `merged`.
  std::map<std::tuple<std::array<uint8_t, 16>, int64_t, Bytes>, size_t> index;
  for (Mutation& mutation : mutations) {
    auto key =
        std::make_tuple(mutation.table_id.bytes, mutation.partition.token, mutation.partition.key);
    auto [it, inserted] = index.emplace(std::move(key), merged.size());
    if (inserted) {
      merged.push_back(std::move(mutation));
    } else {
      MergeMutation(merged[it->second], std::move(mutation));
    }
  }
  return merged;
}

}  // namespace sibyl::storage
