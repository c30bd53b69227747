#pragma once
// Recomputes an index from its base table and compares it with the entries
// the index holds: the oracle of the randomized tests, and what `sibyl admin
// verify-index` runs on live data. Reads partition by partition (pages of
// base partitions, then each partition whole), without locks: on a live
// table a concurrent write can show as a difference, so a caller checking
// live data checks again what it finds.

#include <cstdint>
#include <vector>

#include "index/index_entries.h"
#include "storage/engine.h"

namespace sibyl::index {

struct IndexDifferences {
  int64_t entries_expected = 0;
  std::vector<EntryKey> missing;       // the base says so, the index lacks it
  std::vector<EntryKey> unexpected;    // the index has it, the base does not say so
  std::vector<EntryKey> wrong_expiry;  // both, with another TTL or expiry
  bool empty() const { return missing.empty() && unexpected.empty() && wrong_expiry.empty(); }
};

// `engine` answers reads of both the base table and the index's table (an
// IndexingEngine, or the engine it wraps).
[[nodiscard]] IndexDifferences CheckIndex(const storage::Engine& engine,
                                          const storage::TableLayout& base,
                                          const storage::IndexLayout& index, int32_t now_seconds);

}  // namespace sibyl::index
