#include "query/statements/write_guardrails.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "schema/storage_layout.h"

namespace sibyl::query {
namespace {

using guardrails::GuardrailId;

// Cassandra's Cell.dataSize(): the value, the path, and a timestamp, a TTL
// and a local deletion time (8 + 4 + 4 bytes in 4.1).
constexpr int64_t kCellOverhead = 16;

// The elements of a frozen collection: its serialized form starts with
// their count (a 4-byte big-endian int, protocol v3 and later).
int64_t FrozenElementCount(const Bytes& value) {
  if (value.size() < 4) return 0;
  uint32_t count = 0;
  for (size_t i = 0; i < 4; ++i) count = (count << 8) | static_cast<uint8_t>(value[i]);
  return static_cast<int32_t>(count);
}

// The elements one row write adds to one collection column.
struct CollectionWrite {
  const std::string* column = nullptr;
  int64_t items = 0;
  int64_t bytes = 0;
};

void GuardRow(const schema::TableMetadata& table, const storage::RowWrite& row,
              const WriteGuardrails& checks) {
  const guardrails::Guardrails& g = *checks.guardrails;
  const bool value_size = g.Active(GuardrailId::kColumnValueSize);
  const bool collections =
      g.Active(GuardrailId::kCollectionSize) || g.Active(GuardrailId::kItemsPerCollection);
  std::vector<CollectionWrite> written;  // in the order the cells come
  for (const storage::CellWrite& cell : row.cells) {
    const bool tombstone = cell.cell.kind == storage::Cell::Kind::kTombstone;
    const int64_t path_size = cell.path ? static_cast<int64_t>(cell.path->size()) : 0;
    if (value_size && (!tombstone || cell.path)) {
      // UpdateParameters.addCell / addTombstone(column, path).
      g.Guard(GuardrailId::kColumnValueSize,
              static_cast<int64_t>(cell.cell.value.size()) + path_size, cell.column,
              checks.warnings);
    }
    if (!collections || tombstone) continue;
    const schema::ColumnMetadata* column = table.FindColumn(cell.column);
    if (column == nullptr || !column->type->is_collection()) continue;
    const int64_t size = static_cast<int64_t>(cell.cell.value.size()) + path_size + kCellOverhead;
    if (column->type->frozen()) {
      g.Guard(GuardrailId::kItemsPerCollection, FrozenElementCount(cell.cell.value), cell.column,
              checks.warnings);
      g.Guard(GuardrailId::kCollectionSize, size, cell.column, checks.warnings);
      continue;
    }
    if (written.empty() || *written.back().column != cell.column) {
      written.push_back({&cell.column, 0, 0});
    }
    ++written.back().items;
    written.back().bytes += size;
  }
  for (const CollectionWrite& collection : written) {
    g.Guard(GuardrailId::kItemsPerCollection, collection.items, *collection.column,
            checks.warnings);
    g.Guard(GuardrailId::kCollectionSize, collection.bytes, *collection.column, checks.warnings);
  }
}

// Cassandra's texts for the list operations that read the list first.
std::string_view ReadBeforeWriteText(UpdateOperation::Kind kind) {
  switch (kind) {
    case UpdateOperation::Kind::kListSetIndex:
      return "Setting of list items by index requiring read before write";
    case UpdateOperation::Kind::kListRemove:
      return "Removal of list items requiring read before write";
    case UpdateOperation::Kind::kDeleteListIndex:
      return "Removal of list items by index requiring read before write";
    default:
      return {};
  }
}

}  // namespace

void GuardWriteStatement(const ModificationStatement& statement, const WriteGuardrails& checks) {
  if (checks.guardrails == nullptr) return;
  const guardrails::Guardrails& g = *checks.guardrails;
  if (statement.attributes().has_timestamp()) {
    g.EnsureEnabled(GuardrailId::kUserTimestamps, checks.warnings);
  }
  if (statement.requires_read()) {
    for (const auto* operations :
         {&statement.regular_operations(), &statement.static_operations()}) {
      for (const UpdateOperation& operation : *operations) {
        const std::string_view text = ReadBeforeWriteText(operation.kind());
        if (!text.empty()) {
          g.EnsureEnabled(GuardrailId::kReadBeforeWriteListOperations, checks.warnings, text);
        }
      }
    }
  }
}

void GuardWriteConsistency(const protocol::QueryParameters& params, const WriteGuardrails& checks) {
  if (checks.guardrails == nullptr) return;
  // The serial consistency is always among them (SERIAL when not given), as
  // 5.0's ModificationStatement.execute guards both.
  const std::array<uint16_t, 2> levels{
      params.consistency,
      params.serial_consistency.value_or(static_cast<uint16_t>(protocol::Consistency::kSerial))};
  checks.guardrails->GuardConsistencyLevels(GuardrailId::kWriteConsistencyLevels, levels,
                                            checks.warnings);
}

void GuardReplicaDiskUsage(const ModificationStatement& statement, const BoundValues& values,
                           const cluster::Coordinator& coordinator, const WriteGuardrails& checks) {
  if (checks.guardrails == nullptr || !coordinator.AnyReplicaStuffedOrFull()) return;
  // Virtual and system tables have no replicas (their writes are refused elsewhere).
  if (!schema::IsStoredTable(*statement.table())) return;
  const BoundWrite write = statement.Bind(values);
  for (const storage::PartitionKey& partition : write.partition_keys()) {
    coordinator.VisitStuffedOrFullReplicas(
        statement.table()->id, partition.token, [&](guardrails::DiskUsageState replica) {
          checks.guardrails->GuardReplicaDiskUsage(replica, checks.warnings);
        });
  }
}

void GuardWriteTimestamp(const schema::TableMetadata& table, int64_t timestamp, int64_t now_micros,
                         const WriteGuardrails& checks) {
  if (checks.guardrails == nullptr) return;
  const guardrails::Guardrails& g = *checks.guardrails;
  for (GuardrailId id : {GuardrailId::kMaximumTimestamp, GuardrailId::kMinimumTimestamp}) {
    if (!g.Active(id)) continue;
    const int64_t sign = id == GuardrailId::kMaximumTimestamp ? 1 : -1;
    const auto threshold = [&](int64_t micros) -> std::optional<int64_t> {
      if (micros == guardrails::kDisabled) return std::nullopt;
      return now_micros + sign * micros;
    };
    g.GuardAgainst(id, timestamp, table.name, threshold(g.WarnThreshold(id)),
                   threshold(g.FailThreshold(id)), checks.warnings);
  }
}

void GuardWrittenValues(const schema::TableMetadata& table,
                        const std::vector<storage::Mutation>& mutations,
                        const WriteGuardrails& checks) {
  if (checks.guardrails == nullptr) return;
  const guardrails::Guardrails& g = *checks.guardrails;
  if (!g.Active(GuardrailId::kColumnValueSize)) {
    // Only the collection guardrails: nothing to look at without a collection.
    if (!g.Active(GuardrailId::kCollectionSize) && !g.Active(GuardrailId::kItemsPerCollection)) {
      return;
    }
    if (std::none_of(table.columns.begin(), table.columns.end(),
                     [](const schema::ColumnMetadata& c) { return c.type->is_collection(); })) {
      return;
    }
  }
  for (const storage::Mutation& mutation : mutations) {
    for (const storage::RowWrite& row : mutation.rows) GuardRow(table, row, checks);
  }
}

}  // namespace sibyl::query
