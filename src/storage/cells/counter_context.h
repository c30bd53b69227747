#pragma once
// What a counter cell holds (Cassandra's CounterContext, simplified).
//
// Two forms share Cell::Kind::kCounter, told apart by size:
//  * a delta: 8 bytes, a big-endian signed amount. A single node (no
//    cluster) writes counters this way, blindly; deltas add up.
//  * shards: one or more 32-byte entries sorted by id, each
//    id (16 bytes) | clock (i64 BE) | value (i64 BE). On a cluster the
//    counter leader of an update (cluster/write/counter_leader.h) reads its
//    own shard, writes it back with clock + 1 and the new value, and sends
//    that shard to the other replicas. Two versions of one shard reconcile
//    to the one with the higher clock (on a tie, the higher value, so the
//    result never depends on arrival order): applying a shard twice, by a
//    retry, hint or read repair, counts it once.
// The counter's value is the sum of its shards' values (or the delta).
// A delta merged with shards becomes the shard whose id is all zeros,
// whose entries add instead (a node's pre-cluster deltas); repair refuses
// to copy it across replicas (repair_diff.h), where it would count twice.
//
// Every function is pure; the merge is commutative, associative and
// idempotent for shards, commutative and associative for deltas.

#include <cstdint>
#include <optional>
#include <vector>

#include "common/bytes.h"
#include "types/uuid.h"

namespace sibyl::storage {

inline constexpr size_t kCounterDeltaSize = 8;
inline constexpr size_t kCounterShardSize = 32;

struct CounterShard {
  types::Uuid id;
  int64_t clock = 0;
  int64_t value = 0;
  bool operator==(const CounterShard&) const = default;
};

// An 8-byte delta, or shards in strictly increasing id order.
[[nodiscard]] bool IsValidCounterValue(BytesView value);
// True when copying `value` to another replica could count it twice: a
// delta, or shards holding the all-zero (delta) id.
[[nodiscard]] bool HoldsCounterDelta(BytesView value);

// REQUIRES: both IsValidCounterValue.
void MergeCounterValues(BytesView a, BytesView b, Bytes& out);

// The counter's value. REQUIRES: IsValidCounterValue.
[[nodiscard]] int64_t CounterTotal(BytesView value);

// The value a read returns for a counter cell: the 8-byte total, into `out`.
// An empty or malformed value is returned as it is.
void AssignCounterReadValue(BytesView stored, Bytes& out);

// The shard `id` holds, if any. REQUIRES: IsValidCounterValue.
[[nodiscard]] std::optional<CounterShard> FindCounterShard(BytesView value, const types::Uuid& id);

// REQUIRES: `shards` sorted by id, ids distinct.
[[nodiscard]] Bytes EncodeCounterShards(const std::vector<CounterShard>& shards);
// REQUIRES: IsValidCounterValue; a delta decodes as the all-zero id's shard.
[[nodiscard]] std::vector<CounterShard> DecodeCounterShards(BytesView value);

}  // namespace sibyl::storage
