#pragma once
// Recomputes a materialized view from its base table and compares it with
// the rows the view holds: the oracle of the randomized tests, and what
// `sibyl admin verify-view` runs on live data. Reads without locks: on a
// live table a concurrent write can show as a difference, so a caller
// checking live data checks again what it finds.

#include <cstdint>
#include <functional>
#include <vector>

#include "index/view_rows.h"
#include "storage/engine.h"

namespace sibyl::index {

struct ViewDifferences {
  int64_t rows_expected = 0;
  std::vector<ViewRowKey> missing;     // the base says so, the view lacks it
  std::vector<ViewRowKey> unexpected;  // the view has it, the base does not say so
  std::vector<ViewRowKey> different;   // both, with other cells, values or expiries
  bool empty() const { return missing.empty() && unexpected.empty() && different.empty(); }
};

// Which view rows a check covers: on a ring, only those this node derives
// for itself (its base replica is paired with its view replica).
using ViewRowFilter =
    std::function<bool(const storage::PartitionKey& base_partition, const ViewRowKey& key)>;

// `engine` answers reads of both the base table and the view's table.
// Without `covered`, every row.
[[nodiscard]] ViewDifferences CheckView(const storage::Engine& engine,
                                        const storage::TableLayout& base,
                                        const storage::ViewLayout& view, int32_t now_seconds,
                                        const ViewRowFilter& covered = nullptr);

// The view rows `engine` holds for `view`, as CollectViewRows would derive
// them (cells in column and path order).
[[nodiscard]] ViewRows StoredViewRows(const storage::Engine& engine,
                                      const storage::ViewLayout& view, int32_t now_seconds);

}  // namespace sibyl::index
