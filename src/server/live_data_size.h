#pragma once
// The node's "load" as nodetool status shows it: the bytes of live data on
// disk. Cassandra counts its live SSTables; Sibyl's tables are RocksDB
// column families whose sorted tables are the *.sst files of the engine's
// directory, so those are what is counted (neither the write-ahead log nor
// memtables, as Cassandra counts neither its commit log nor its memtables).

#include <cstdint>
#include <filesystem>
#include <optional>

namespace sibyl::server {

// The total size of the *.sst files directly in `engine_directory`; nullopt
// when the directory cannot be listed. Files that vanish while being counted
// (a compaction finishing) are skipped. Thread-safe.
[[nodiscard]] std::optional<int64_t> LiveDataSize(const std::filesystem::path& engine_directory);

}  // namespace sibyl::server
