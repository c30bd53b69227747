#include "storage/mutation_writer.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "storage/cell_codec.h"
#include "storage/key_codec.h"

namespace sibyl::storage {
namespace {

using Record = std::pair<Bytes, Bytes>;  // key, value

[[noreturn]] void Invalid(const TableLayout& table, const std::string& what) {
  throw std::invalid_argument("Mutation of " + table.keyspace + "." + table.name + ": " + what);
}

const ColumnLayout& FindColumnOrThrow(const TableLayout& table, const std::string& column,
                                      bool is_static) {
  const ColumnLayout* layout = table.FindColumn(column);
  if (layout == nullptr) Invalid(table, "unknown column " + column);
  if (layout->is_static != is_static) {
    Invalid(table, "column " + column + (is_static ? " is not static" : " is static"));
  }
  return *layout;
}

void CheckCellKind(const TableLayout& table, const ColumnLayout& column, const Cell& cell) {
  if (column.is_counter()) {
    if (cell.kind != Cell::Kind::kCounter && cell.kind != Cell::Kind::kTombstone) {
      Invalid(table, "a non-counter write to counter column " + column.name);
    }
    if (cell.kind == Cell::Kind::kCounter && cell.value.size() != 8) {
      Invalid(table, "a counter delta that is not 8 bytes");
    }
  } else if (cell.kind == Cell::Kind::kCounter) {
    Invalid(table, "a counter delta to non-counter column " + column.name);
  }
}

void AddRow(const TableLayout& table, const Bytes& partition_prefix, const RowWrite& row,
            std::vector<Record>& records) {
  Bytes row_key = partition_prefix;
  if (row.is_static ? !row.clustering.empty() : row.clustering.size() != table.clustering.size()) {
    Invalid(table, "a clustering of " + std::to_string(row.clustering.size()) + " values");
  }
  if (row.is_static) {
    AppendU8(row_key, static_cast<uint8_t>(KeyKind::kStaticRow));
  } else {
    AppendU8(row_key, static_cast<uint8_t>(KeyKind::kRow));
    AppendClustering(table, row.clustering, row_key);
  }
  auto add = [&](auto&& append_suffix, auto&& encode_value) {
    Record record{row_key, {}};
    append_suffix(record.first);
    encode_value(record.second);
    records.push_back(std::move(record));
  };
  if (!row.deletion.is_live()) {
    add([](Bytes& k) { AppendU8(k, static_cast<uint8_t>(RowPart::kDeletion)); },
        [&](Bytes& v) { EncodeDeletion(row.deletion, v); });
  }
  if (!row.marker.is_empty()) {
    add([](Bytes& k) { AppendU8(k, static_cast<uint8_t>(RowPart::kMarker)); },
        [&](Bytes& v) { EncodeLiveness(row.marker, v); });
  }
  auto append_column = [](Bytes& k, const std::string& column, CellPart part) {
    AppendU8(k, static_cast<uint8_t>(RowPart::kCell));
    AppendEscaped(column, k);
    AppendU8(k, static_cast<uint8_t>(part));
  };
  for (const auto& deletion : row.collection_deletions) {
    const ColumnLayout& column = FindColumnOrThrow(table, deletion.column, row.is_static);
    if (!column.is_multi_cell()) Invalid(table, deletion.column + " is not a multi-cell column");
    add([&](Bytes& k) { append_column(k, deletion.column, CellPart::kCollectionDeletion); },
        [&](Bytes& v) { EncodeDeletion(deletion.deletion, v); });
  }
  for (const auto& write : row.cells) {
    const ColumnLayout& column = FindColumnOrThrow(table, write.column, row.is_static);
    if (column.is_multi_cell() != write.path.has_value()) {
      Invalid(table, write.path ? "a path on simple column " + write.column
                                : "no path on multi-cell column " + write.column);
    }
    CheckCellKind(table, column, write.cell);
    add(
        [&](Bytes& k) {
          append_column(k, write.column, write.path ? CellPart::kElement : CellPart::kSimple);
          if (write.path) AppendCellPath(column, *write.path, k);
        },
        [&](Bytes& v) { EncodeCell(write.cell, v); });
  }
}

}  // namespace

void AddMutationToBatch(const TableLayout& table, rocksdb::ColumnFamilyHandle* family,
                        const Mutation& mutation, rocksdb::WriteBatch& batch) {
  // Encode everything first so that an invalid mutation adds nothing.
  std::vector<Record> records;
  Bytes prefix;
  AppendPartitionPrefix(mutation.partition, prefix);
  if (!mutation.partition_deletion.is_live()) {
    Record record{prefix, {}};
    AppendU8(record.first, static_cast<uint8_t>(KeyKind::kPartitionDeletion));
    EncodeDeletion(mutation.partition_deletion, record.second);
    records.push_back(std::move(record));
  }
  for (const auto& rt : mutation.range_tombstones) {
    if (rt.start.prefix.size() > table.clustering.size() ||
        rt.end.prefix.size() > table.clustering.size()) {
      Invalid(table, "a range tombstone bound longer than the clustering key");
    }
    Record record{prefix, {}};
    AppendU8(record.first, static_cast<uint8_t>(KeyKind::kRangeTombstone));
    AppendRangeTombstoneBounds(rt.start, rt.end, record.first);
    EncodeDeletion(rt.deletion, record.second);
    records.push_back(std::move(record));
  }
  for (const auto& row : mutation.rows) AddRow(table, prefix, row, records);
  for (const auto& [key, value] : records) {
    rocksdb::Status status = batch.Merge(family, key, value);
    if (!status.ok())
      throw std::runtime_error("cannot add a write to a batch: " + status.ToString());
  }
}

}  // namespace sibyl::storage
