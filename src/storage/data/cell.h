#pragma once
// The versioned pieces of data the engine stores and reconciles, with
// Cassandra's meanings (org.apache.cassandra.db.{DeletionTime,LivenessInfo,
// rows.Cell}). All timestamps are write timestamps in microseconds; all
// "local" times are seconds since the epoch on the node's clock.

#include <cstdint>
#include <limits>

#include "common/bytes.h"

namespace sibyl::storage {

// No deletion / no expiry (Cassandra's Cell.NO_DELETION_TIME).
inline constexpr int32_t kNoDeletionTime = std::numeric_limits<int32_t>::max();
// No write timestamp (Cassandra's LivenessInfo.NO_TIMESTAMP).
inline constexpr int64_t kNoTimestamp = std::numeric_limits<int64_t>::min();

// A deletion of everything written at or before `marked_for_delete_at`:
// of a partition, a clustering range, a row, or a whole collection.
struct DeletionTime {
  int64_t marked_for_delete_at = kNoTimestamp;
  // When the deletion was written: it may be purged gc_grace_seconds later.
  int32_t local_deletion_time = kNoDeletionTime;

  bool is_live() const { return marked_for_delete_at == kNoTimestamp; }
  // True when this deletion shadows data written at `timestamp`.
  bool Deletes(int64_t timestamp) const { return timestamp <= marked_for_delete_at; }
  // Deletes, and is a deletion at all.
  bool Shadows(int64_t timestamp) const { return !is_live() && Deletes(timestamp); }
  // The later of two deletions (higher timestamp; on a tie, later local time).
  bool Supersedes(const DeletionTime& other) const {
    return marked_for_delete_at > other.marked_for_delete_at ||
           (marked_for_delete_at == other.marked_for_delete_at &&
            local_deletion_time > other.local_deletion_time);
  }
  friend bool operator==(const DeletionTime&, const DeletionTime&) = default;
};

// The primary-key liveness of a row (its "row marker"): INSERT writes one,
// UPDATE does not, so a row only UPDATE wrote lives only while a cell does.
struct LivenessInfo {
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;                                  // 0: does not expire
  int32_t local_expiration_time = kNoDeletionTime;  // when ttl > 0: write time + ttl

  bool is_empty() const { return timestamp == kNoTimestamp; }
  bool IsLive(int32_t now_seconds) const {
    return !is_empty() && (ttl == 0 || now_seconds < local_expiration_time);
  }
  friend bool operator==(const LivenessInfo&, const LivenessInfo&) = default;
};

struct Cell {
  enum class Kind : uint8_t {
    kRegular,    // a value
    kExpiring,   // a value with a TTL: dead from local_deletion_time on
    kTombstone,  // a deleted value (DELETE of a column, an element, null written)
    kCounter,    // a counter: an 8-byte delta or leaders' shards (counter_context.h)
  };
  Kind kind = Kind::kRegular;
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;  // kExpiring only
  // kExpiring: when it expires (write time + ttl); kTombstone: when deleted.
  int32_t local_deletion_time = kNoDeletionTime;
  Bytes value;  // empty for tombstones

  bool IsLive(int32_t now_seconds) const {
    return kind == Kind::kRegular || kind == Kind::kCounter ||
           (kind == Kind::kExpiring && now_seconds < local_deletion_time);
  }
  friend bool operator==(const Cell&, const Cell&) = default;
};

}  // namespace sibyl::storage
