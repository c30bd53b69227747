#pragma once
// Whether, and how long, the pieces of a base row live at a given time, as
// the storage's reconciliation decides it: what index entries and view rows
// are derived from. A row here is a storage::RowWrite of a partition as the
// replica holds it (ReadUnfiltered's answer, possibly merged with a write),
// so deletions arrive beside the data they shadow.

#include <optional>

#include "storage/data/cell.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::index {

// How long something lives: ttl 0 is forever; else until
// local_expiration_time (seconds), as a cell's or a row marker's TTL says.
struct Liveness {
  int32_t ttl = 0;
  int32_t local_expiration_time = storage::kNoDeletionTime;
  friend bool operator==(const Liveness&, const Liveness&) = default;
};

// The longer-lived of two: no expiry beats any, else the later, then the
// larger ttl (so an answer never depends on the order of cells).
[[nodiscard]] Liveness Longer(const Liveness& a, const Liveness& b);
// The shorter-lived of two (the same order, reversed).
[[nodiscard]] Liveness Shorter(const Liveness& a, const Liveness& b);

// A live cell's liveness.
[[nodiscard]] Liveness LivenessOf(const storage::Cell& cell);

// True when `cell` holds a value at `now` that `shadow` does not delete.
[[nodiscard]] bool CellLives(const storage::Cell& cell, const storage::DeletionTime& shadow,
                             int32_t now);

// The deletion of a whole non-frozen collection `column` in `row`, if any.
[[nodiscard]] storage::DeletionTime CollectionDeletionOf(const storage::RowWrite& row,
                                                         const std::string& column);

// What deletes data of `row` from above it: the partition's deletion, the
// range tombstones covering it (a clustering row's), and its own.
[[nodiscard]] storage::DeletionTime RowShadow(const storage::TableLayout& table,
                                              const storage::Mutation& partition,
                                              const storage::RowWrite& row);

// How long the row lives — while its marker or any of its cells does — or
// nullopt when it is dead at `now` (a CQL row exists exactly then).
[[nodiscard]] std::optional<Liveness> RowLiveness(const storage::RowWrite& row,
                                                  const storage::DeletionTime& shadow, int32_t now);

}  // namespace sibyl::index
