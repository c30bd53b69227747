#include "index/view_checker.h"

#include <algorithm>
#include <tuple>

#include "index/derived_check.h"

namespace sibyl::index {
namespace {

constexpr int32_t kRowsPerPage = 1024;

void SortCells(ViewRow& row) {
  std::sort(row.cells.begin(), row.cells.end(), [](const ViewCell& a, const ViewCell& b) {
    return std::tie(a.column, a.path) < std::tie(b.column, b.path);
  });
}

ViewRows ExpectedRows(const storage::Engine& engine, const storage::TableLayout& base,
                      const storage::ViewLayout& view, int32_t now, const ViewRowFilter& covered) {
  ViewRows expected;
  ForEachHeldPartition(engine, base, now,
                       [&](const storage::PartitionKey& partition, const storage::Mutation& held) {
                         ViewRows rows;
                         CollectViewRows(base, view, held, now, rows);
                         for (auto& [key, row] : rows) {
                           if (!covered || covered(partition, key)) expected[key] = std::move(row);
                         }
                       });
  for (auto& [key, row] : expected) SortCells(row);
  return expected;
}

Liveness LivenessOfStored(int32_t ttl, int32_t local_expiration_time) {
  return ttl == 0 ? Liveness{} : Liveness{ttl, local_expiration_time};
}

}  // namespace

ViewRows StoredViewRows(const storage::Engine& engine, const storage::ViewLayout& view,
                        int32_t now_seconds) {
  ViewRows actual;
  storage::ReadCommand scan;
  scan.table_id = view.id;
  scan.row_limit = kRowsPerPage;
  scan.now_seconds = now_seconds;
  for (;;) {
    const storage::ReadResult page = engine.Read(scan);
    for (const storage::ReadPartition& partition : page.partitions) {
      for (const storage::ReadRow& stored : partition.rows) {
        ViewRow row;
        row.marker = LivenessOfStored(stored.marker.ttl, stored.marker.local_expiration_time);
        for (const auto& cell : stored.cells) {
          row.cells.push_back(ViewCell{cell.column, cell.path, cell.value,
                                       LivenessOfStored(cell.ttl, cell.local_expiration_time)});
        }
        SortCells(row);
        actual[ViewRowKey(partition.key.key, stored.clustering)] = std::move(row);
      }
    }
    if (!page.next) return actual;
    scan.resume_after = page.next;
  }
}

ViewDifferences CheckView(const storage::Engine& engine, const storage::TableLayout& base,
                          const storage::ViewLayout& view, int32_t now_seconds,
                          const ViewRowFilter& covered) {
  const ViewRows expected = ExpectedRows(engine, base, view, now_seconds, covered);
  ViewRows actual = StoredViewRows(engine, view, now_seconds);
  if (covered) {
    std::erase_if(actual, [&](const auto& entry) {
      return !covered(BasePartitionOf(base, view, entry.first), entry.first);
    });
  }
  ViewDifferences differences;
  differences.rows_expected = static_cast<int64_t>(expected.size());
  CompareDerived(expected, actual, differences.missing, differences.unexpected,
                 differences.different);
  return differences;
}

}  // namespace sibyl::index
