#pragma once
// The layout of storage values (docs/dev/storage.md). Every value starts with
// a tag saying what the key holds, so the merge operator and the compaction
// filter can reconcile and judge a value without knowing its key's layout:
//
//   value := 'C' kind(1) timestamp(8) ttl(4) local_deletion_time(4) bytes  -- a cell
//          | 'D' marked_for_delete_at(8) local_deletion_time(4)           -- a deletion
//          | 'L' timestamp(8) ttl(4) local_expiration_time(4)             -- a row marker
//
// Integers are big-endian two's complement; `kind` is Cell::Kind's value.
// The tags and kinds are on disk: do not change them.

#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "storage/data/cell.h"

namespace sibyl::storage {

enum class ValueTag : char { kCell = 'C', kDeletion = 'D', kLiveness = 'L' };

// A cell as stored: its value is a view into the stored bytes.
struct StoredCell {
  Cell::Kind kind = Cell::Kind::kRegular;
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;
  int32_t local_deletion_time = kNoDeletionTime;
  BytesView value;

  bool is_tombstone() const { return kind == Cell::Kind::kTombstone; }
  bool is_expiring() const { return kind == Cell::Kind::kExpiring; }
  bool IsLive(int32_t now_seconds) const {
    return kind == Cell::Kind::kRegular || kind == Cell::Kind::kCounter ||
           (kind == Cell::Kind::kExpiring && now_seconds < local_deletion_time);
  }
  static StoredCell Of(const Cell& cell) {
    return {cell.kind, cell.timestamp, cell.ttl, cell.local_deletion_time, cell.value};
  }
  Cell ToCell() const { return {kind, timestamp, ttl, local_deletion_time, Bytes(value)}; }
};

std::optional<ValueTag> PeekValueTag(BytesView value);

void EncodeCell(const StoredCell& cell, Bytes& out);
inline void EncodeCell(const Cell& cell, Bytes& out) { EncodeCell(StoredCell::Of(cell), out); }
// nullopt when `value` is not a well-formed cell value.
std::optional<StoredCell> DecodeCell(BytesView value);

void EncodeDeletion(const DeletionTime& deletion, Bytes& out);
std::optional<DeletionTime> DecodeDeletion(BytesView value);

void EncodeLiveness(const LivenessInfo& liveness, Bytes& out);
std::optional<LivenessInfo> DecodeLiveness(BytesView value);

}  // namespace sibyl::storage
