#pragma once
// What the checkers of indexes and views (index_checker.h, view_checker.h)
// share: a walk of the base table partition by partition, each as the
// replica holds it, and the comparison of what the base gives with what is
// stored.

#include <vector>

#include "storage/engine.h"

namespace sibyl::index {

// A read of one whole partition of `table_id` as the replica holds it.
[[nodiscard]] inline storage::ReadCommand WholePartition(const types::Uuid& table_id,
                                                         const storage::PartitionKey& partition,
                                                         int32_t now_seconds) {
  storage::ReadCommand read;
  read.table_id = table_id;
  read.partitions = {partition};
  read.now_seconds = now_seconds;
  return read;
}

// Calls `f(partition key, held)` for each partition of `base`, in token
// order, `held` being the partition with its deletions (ReadUnfiltered).
// Reads pages of partitions without locks.
template <typename F>
void ForEachHeldPartition(const storage::Engine& engine, const storage::TableLayout& base,
                          int32_t now_seconds, F&& f) {
  constexpr int32_t kPartitionsPerPage = 64;
  storage::ReadCommand scan;
  scan.table_id = base.id;
  scan.partition_limit = kPartitionsPerPage;
  scan.now_seconds = now_seconds;
  for (;;) {
    const storage::ReadResult page = engine.Read(scan);
    for (const storage::ReadPartition& partition : page.partitions) {
      for (const storage::Mutation& held :
           engine.ReadUnfiltered(WholePartition(base.id, partition.key, now_seconds))) {
        f(partition.key, held);
      }
    }
    if (!page.next) return;
    scan.resume_after = page.next;
  }
}

// The keys of `expected` missing from `actual`, those of `actual` not in
// `expected`, and those in both with different values.
template <typename Map, typename Key>
void CompareDerived(const Map& expected, const Map& actual, std::vector<Key>& missing,
                    std::vector<Key>& unexpected, std::vector<Key>& different) {
  for (const auto& [key, value] : expected) {
    auto found = actual.find(key);
    if (found == actual.end()) {
      missing.push_back(key);
    } else if (!(found->second == value)) {
      different.push_back(key);
    }
  }
  for (const auto& [key, value] : actual) {
    if (!expected.contains(key)) unexpected.push_back(key);
  }
}

}  // namespace sibyl::index
