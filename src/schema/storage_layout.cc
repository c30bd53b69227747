#include "schema/storage_layout.h"

#include <charconv>
#include <string_view>

#include "schema/index_target.h"
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

// The index's storage layout, or nullopt for an index Sibyl does not keep
// (a custom class other than SAI; DDL refuses those).
std::optional<storage::IndexLayout> MakeIndexLayout(const schema::TableMetadata& table,
                                                    const schema::IndexMetadata& metadata) {
  if (metadata.kind == "CUSTOM") {
    auto it = metadata.options.find("class_name");
    if (it == metadata.options.end() || !EndsWith(it->second, "StorageAttachedIndex")) {
      return std::nullopt;
    }
  }
  auto target_option = metadata.options.find("target");
  if (target_option == metadata.options.end()) return std::nullopt;
  const auto target = ParseIndexTarget(target_option->second);
  if (!target) return std::nullopt;
  const schema::ColumnMetadata* column = table.FindColumn(target->column);
  if (column == nullptr) return std::nullopt;
  storage::IndexLayout index;
  index.id = metadata.id;
  index.name = metadata.name;
  index.column = column->name;
  index.type = column->type;
  switch (target->kind) {
    case IndexTargetSpec::Kind::kSimple:
      index.target = storage::IndexLayout::Target::kSimple;
      break;
    case IndexTargetSpec::Kind::kValues:
      index.target = storage::IndexLayout::Target::kValues;
      break;
    case IndexTargetSpec::Kind::kKeys:
      index.target = storage::IndexLayout::Target::kKeys;
      break;
    case IndexTargetSpec::Kind::kEntries:
      index.target = storage::IndexLayout::Target::kEntries;
      break;
    case IndexTargetSpec::Kind::kFull:
      index.target = storage::IndexLayout::Target::kFull;
      break;
  }
  switch (column->kind) {
    case schema::ColumnKind::kPartitionKey:
      index.source = storage::IndexLayout::Source::kPartitionKey;
      index.key_position = static_cast<size_t>(column->position);
      break;
    case schema::ColumnKind::kClustering:
      index.source = storage::IndexLayout::Source::kClustering;
      index.key_position = static_cast<size_t>(column->position);
      break;
    case schema::ColumnKind::kStatic:
    case schema::ColumnKind::kRegular:
      index.source = storage::IndexLayout::Source::kColumn;
      break;
  }
  return index;
}

storage::ViewLayout::Source ViewKeySource(const schema::TableMetadata& base,
                                          const std::string& name) {
  const schema::ColumnMetadata* column = base.FindColumn(name);
  storage::ViewLayout::Source source;
  source.column = name;
  if (column == nullptr) return source;  // DDL keeps view key columns in the base
  source.type = column->type;
  switch (column->kind) {
    case schema::ColumnKind::kPartitionKey:
      source.kind = storage::ViewLayout::Source::Kind::kPartitionKey;
      source.position = static_cast<size_t>(column->position);
      break;
    case schema::ColumnKind::kClustering:
      source.kind = storage::ViewLayout::Source::Kind::kClustering;
      source.position = static_cast<size_t>(column->position);
      break;
    case schema::ColumnKind::kStatic:
    case schema::ColumnKind::kRegular:
      source.kind = storage::ViewLayout::Source::Kind::kColumn;
      break;
  }
  return source;
}

storage::ViewLayout::Filter::Op FilterOp(schema::ViewRestriction::Op op) {
  using Op = storage::ViewLayout::Filter::Op;
  switch (op) {
    case schema::ViewRestriction::Op::kIn:
      return Op::kIn;
    case schema::ViewRestriction::Op::kLt:
      return Op::kLt;
    case schema::ViewRestriction::Op::kLte:
      return Op::kLte;
    case schema::ViewRestriction::Op::kGt:
      return Op::kGt;
    case schema::ViewRestriction::Op::kGte:
      return Op::kGte;
    case schema::ViewRestriction::Op::kEq:
    case schema::ViewRestriction::Op::kIsNotNull:
      break;
  }
  return Op::kEq;
}

}  // namespace

storage::ViewLayout MakeViewLayout(const schema::TableMetadata& base,
                                   const schema::TableMetadata& view) {
  storage::ViewLayout layout;
  layout.id = view.id;
  layout.name = view.name;
  for (const schema::ColumnMetadata& column : view.columns) {
    switch (column.kind) {
      case schema::ColumnKind::kPartitionKey:
        layout.partition_key.push_back(ViewKeySource(base, column.name));
        break;
      case schema::ColumnKind::kClustering:
        layout.clustering.push_back(ViewKeySource(base, column.name));
        break;
      case schema::ColumnKind::kStatic:
      case schema::ColumnKind::kRegular:
        layout.columns.push_back(column.name);
        break;
    }
  }
  if (view.view) {
    for (const schema::ViewRestriction& restriction : view.view->restrictions) {
      if (restriction.op == schema::ViewRestriction::Op::kIsNotNull) continue;
      const schema::ColumnMetadata* column = base.FindColumn(restriction.column);
      if (column == nullptr || !column->is_primary_key()) continue;
      layout.filters.push_back(storage::ViewLayout::Filter{
          ViewKeySource(base, restriction.column), FilterOp(restriction.op), restriction.values});
    }
  }
  return layout;
}

bool IsStoredTable(const schema::TableMetadata& table) {
  if (table.is_virtual) return false;
  if (!schema::IsSystemKeyspace(table.keyspace)) return true;
  return table.keyspace == "system" && table.name == "paxos";
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
  for (const schema::IndexMetadata& index : table.indexes) {
    if (auto index_layout = MakeIndexLayout(table, index)) {
      layout.indexes.push_back(std::move(*index_layout));
    }
  }
  return layout;
}

std::vector<storage::TableLayout> StoredTableLayouts(const schema::Schema& schema) {
  std::vector<storage::TableLayout> layouts;
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    if (keyspace->is_virtual) continue;
    for (const auto& [table_name, table] : keyspace->tables) {
      if (!IsStoredTable(*table)) continue;
      storage::TableLayout& layout = layouts.emplace_back(MakeTableLayout(*table));
      for (const auto& [view_name, view] : keyspace->views) {
        if (view->view && view->view->base_table_id == table->id) {
          layout.views.push_back(MakeViewLayout(*table, *view));
        }
      }
    }
    for (const auto& [view_name, view] : keyspace->views) {
      if (IsStoredTable(*view)) layouts.push_back(MakeTableLayout(*view));
    }
  }
  return layouts;
}

}  // namespace sibyl::schema
