#pragma once
// A cluster node's own copy of the metadata it last applied, so that it can
// start and serve its data while etcd is unreachable: the latest schema
// entry and directory entry of the log, as they are in etcd, and the epoch
// they bring the node to. etcd stays the authority: a node that reaches it
// at start-up loads from it and overwrites this copy; the copy is only read
// when etcd cannot be reached. A node started from it serves reads and
// writes, refuses DDL until etcd is back, and then catches up.
//
// File `<directory>/metadata.db`, replaced durably (schema/durable_file.h)
// after each batch of changes applied. Format, version 1 (big-endian):
//
//   file := magic "SIBYLMDC" | u32 format_version (1) | u64 epoch
//           | u32 n | (u32 length | log entry) × n | u32 crc32(everything before)
//
// with the entries in metadata_log_entry.h's format (at most one per kind).
//
// Thread-safety: free functions; two writers of one directory must not overlap.

#include <cstdint>
#include <filesystem>
#include <optional>

#include "metadata/metadata_log_entry.h"

namespace sibyl::metadata {

struct CachedMetadata {
  uint64_t epoch = 0;
  std::optional<LogEntry> schema;
  std::optional<LogEntry> directory;

  bool operator==(const CachedMetadata&) const = default;
};

[[nodiscard]] Bytes EncodeMetadataCache(const CachedMetadata& cached);
// Throws std::runtime_error saying what is wrong.
[[nodiscard]] CachedMetadata DecodeMetadataCache(BytesView data);

// Creates `directory` if needed. Throws std::runtime_error naming the file.
void SaveMetadataCache(const std::filesystem::path& directory, const CachedMetadata& cached);
// nullopt when there is no copy; throws std::runtime_error naming the file
// when there is one that cannot be read.
[[nodiscard]] std::optional<CachedMetadata> LoadMetadataCache(
    const std::filesystem::path& directory);

}  // namespace sibyl::metadata
