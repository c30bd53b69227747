#include "storage/cells/mutation_merge.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <utility>

#include "storage/cells/reconcile.h"

namespace sibyl::storage {
namespace {

// Adds `item` to `items`, or merges it into the entry it is the same as.
template <typename T, typename Same, typename MergeFn>
void AddOrMerge(std::vector<T>& items, T&& item, Same same, MergeFn merge) {
  auto it = std::find_if(items.begin(), items.end(), [&](const T& e) { return same(e, item); });
  if (it == items.end()) {
    items.push_back(std::move(item));
  } else {
    merge(*it, std::move(item));
  }
}

void MergeRow(RowWrite& into, RowWrite&& other) {
  into.marker = Reconcile(into.marker, other.marker);
  into.deletion = Reconcile(into.deletion, other.deletion);
  for (CollectionDeletion& deletion : other.collection_deletions) {
    AddOrMerge(
        into.collection_deletions, std::move(deletion),
        [](const CollectionDeletion& a, const CollectionDeletion& b) {
          return a.column == b.column;
        },
        [](CollectionDeletion& a, CollectionDeletion&& b) {
          a.deletion = Reconcile(a.deletion, b.deletion);
        });
  }
  for (CellWrite& cell : other.cells) {
    AddOrMerge(
        into.cells, std::move(cell),
        [](const CellWrite& a, const CellWrite& b) {
          return a.column == b.column && a.path == b.path;
        },
        [](CellWrite& a, CellWrite&& b) { a.cell = Reconcile(a.cell, b.cell); });
  }
}

}  // namespace

void MergeMutation(Mutation& into, Mutation&& other) {
  into.partition_deletion = Reconcile(into.partition_deletion, other.partition_deletion);
  for (RangeTombstone& tombstone : other.range_tombstones) {
    into.range_tombstones.push_back(std::move(tombstone));
  }
  for (RowWrite& row : other.rows) {
    AddOrMerge(
        into.rows, std::move(row),
        [](const RowWrite& a, const RowWrite& b) {
          return a.is_static == b.is_static && a.clustering == b.clustering;
        },
        MergeRow);
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
