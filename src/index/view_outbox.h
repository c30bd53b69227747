#pragma once
// The view outbox: view updates on their way to a remote view replica
// (view_update_router.h). A base replica writes each such update here in
// the same atomic batch as the base write that caused it, so a crash
// loses neither or both; a dispatcher (cluster/views/) sends them, oldest
// first, and deletes each once its view replica acknowledged it. Sending
// one twice is harmless: it carries its timestamps.
//
// Stored as a table of the engine:
//   partition key: the target's host id (uuid)
//   clustering:    the update's sequence (bigint, increasing per node)
//   column:        mutation (blob): storage::Mutation::SerializeTo's bytes

#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"
#include "types/uuid.h"

namespace sibyl::index {

[[nodiscard]] const storage::TableLayout& ViewOutboxTable();

// The outbox partition of `target`.
[[nodiscard]] storage::PartitionKey ViewOutboxPartition(const types::Uuid& target);

// The outbox record of `update` for `target`, written at `timestamp`.
[[nodiscard]] storage::Mutation ViewOutboxRecord(const types::Uuid& target, int64_t sequence,
                                                 const storage::Mutation& update,
                                                 int64_t timestamp);

// A view update waiting in the outbox.
struct PendingViewUpdate {
  int64_t sequence = 0;
  Bytes mutation;  // serialized
};

}  // namespace sibyl::index
