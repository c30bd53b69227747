#pragma once
// One entry of the cluster's metadata log (metadata_log.h): what epoch E
// changed, as a full snapshot of the part that changed — the whole schema
// or the whole directory — rather than a delta.
//
// Why snapshots: applying entry E needs nothing but entry E and the kind of
// state it replaces, so a node that is behind reads the entries after its
// epoch and applies them without replaying how each was made, and a node
// that starts (or finds the entries it needs compacted away) reads only the
// latest entry of each kind: the header of every entry names the epochs of
// the entries holding the current schema and directory. Schemas are
// kilobytes, so the cost is small. The consequence of etcd's limit on a
// request (--max-request-bytes, 1.5 MiB by default): the encoded schema or
// directory must stay below it (about 1.4 MiB with the txn's overhead);
// past it a DDL statement fails with etcd's "request is too large" and
// nothing changes. A directory of 100 nodes of 256 tokens is about 210 KiB.
//
// Format, version 1 (integers big-endian):
//
//   entry := magic "SIBYLLOG" | u32 format_version (1) | u64 epoch | u8 kind
//            | u64 schema_epoch | u64 directory_epoch
//            | u32 payload_length | payload | u32 crc32(everything before)
//   kind  := 1 schema (payload: schema_snapshot_codec.h's snapshot, at `epoch`)
//          | 2 directory (payload: directory.h's encoding)
//
// schema_epoch / directory_epoch: the epochs of the entries holding the
// schema and the directory in force after this entry (one of them is
// `epoch` itself; 0 when there is none yet: the built-in schema, or no
// member). Kind values are stored: do not renumber them.

#include <cstdint>

#include "common/bytes.h"

namespace sibyl::metadata {

inline constexpr uint32_t kLogEntryFormatVersion = 1;

enum class EntryKind : uint8_t { kSchema = 1, kDirectory = 2 };

struct LogEntry {
  uint64_t epoch = 0;
  EntryKind kind = EntryKind::kSchema;
  uint64_t schema_epoch = 0;
  uint64_t directory_epoch = 0;
  Bytes payload;

  bool operator==(const LogEntry&) const = default;
};

[[nodiscard]] Bytes EncodeLogEntry(const LogEntry& entry);
// Throws std::runtime_error saying what is wrong when `data` is not an
// entry this version can read (bad magic, unknown version or kind, checksum).
[[nodiscard]] LogEntry DecodeLogEntry(BytesView data);

}  // namespace sibyl::metadata
