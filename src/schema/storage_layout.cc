#include "schema/storage_layout.h"

#include <charconv>
#include <string_view>

#include "schema/system_keyspaces.h"

namespace sibyl::schema {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

int32_t ChunkLengthKb(const schema::TableParams& params, int32_t fallback) {
  auto it = params.compression.find("chunk_length_in_kb");
  if (it == params.compression.end()) return fallback;
  int32_t kb = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), kb);
  if (ec != std::errc() || end != text.data() + text.size() || kb <= 0) return fallback;
  return kb;
}

}  // namespace

bool IsStoredTable(const schema::TableMetadata& table) {
  return !table.is_virtual && !schema::IsSystemKeyspace(table.keyspace);
}

std::string CompactionName(const schema::TableParams& params) {
  auto it = params.compaction.find("class");
  // The schema layer stores the class resolved to its full name; match the
  // simple name so a custom package prefix does not matter.
  const std::string_view name = it == params.compaction.end() ? "" : std::string_view(it->second);
  if (EndsWith(name, "LeveledCompactionStrategy")) return "leveled";
  if (EndsWith(name, "TimeWindowCompactionStrategy")) return "time_window";
  return "size_tiered";
}

std::string CompressionName(const schema::TableParams& params) {
  const auto& options = params.compression;
  if (auto enabled = options.find("enabled");
      enabled != options.end() && enabled->second == "false") {
    return "none";
  }
  auto it = options.find("class");
  if (it == options.end()) return "none";
  const std::string_view name = it->second;
  if (EndsWith(name, "LZ4Compressor")) return "lz4";
  if (EndsWith(name, "SnappyCompressor")) return "snappy";
  if (EndsWith(name, "ZstdCompressor")) return "zstd";
  if (EndsWith(name, "DeflateCompressor")) return "deflate";
  return "none";  // NoopCompressor, and classes the engine has no codec for
}

storage::TableLayout MakeTableLayout(const schema::TableMetadata& table) {
  storage::TableLayout layout;
  layout.id = table.id;
  layout.keyspace = table.keyspace;
  layout.name = table.name;
  for (const auto& column : table.columns) {
    switch (column.kind) {
      case schema::ColumnKind::kPartitionKey:
        layout.partition_key_types.push_back(column.type);
        break;
      case schema::ColumnKind::kClustering:
        layout.clustering.push_back(storage::ClusteringColumnLayout{
            column.type, column.order == schema::ClusteringOrder::kDesc});
        break;
      case schema::ColumnKind::kStatic:
      case schema::ColumnKind::kRegular:
        layout.columns.push_back(storage::ColumnLayout{column.name, column.type,
                                                       column.kind == schema::ColumnKind::kStatic});
        break;
    }
  }
  storage::StorageOptions& options = layout.options;
  options.gc_grace_seconds = table.params.gc_grace_seconds;
  options.bloom_filter_fp_chance = table.params.bloom_filter_fp_chance;
  options.compaction = CompactionName(table.params);
  options.compression = CompressionName(table.params);
  options.chunk_length_kb = ChunkLengthKb(table.params, options.chunk_length_kb);
  return layout;
}

std::vector<storage::TableLayout> StoredTableLayouts(const schema::Schema& schema) {
  std::vector<storage::TableLayout> layouts;
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    if (keyspace->is_virtual) continue;
    for (const auto& [table_name, table] : keyspace->tables) {
      if (IsStoredTable(*table)) layouts.push_back(MakeTableLayout(*table));
    }
  }
  return layouts;
}

}  // namespace sibyl::schema
