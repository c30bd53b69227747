#include "storage/rocksdb/mutation_writer.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "storage/cells/counter_context.h"
#include "storage/codec/cell_codec.h"
#include "storage/codec/key_codec.h"
#include "storage/data/storage_error.h"

namespace sibyl::storage {
namespace {

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
    if (cell.kind == Cell::Kind::kCounter && !IsValidCounterValue(cell.value)) {
      Invalid(table, "a counter value that is neither an 8-byte delta nor shards");
    }
  } else if (cell.kind == Cell::Kind::kCounter) {
    Invalid(table, "a counter delta to non-counter column " + column.name);
  }
}

// Checks `row` against the table without encoding anything: a mutation is
// checked whole before any of it goes into the batch, so an invalid one adds
// nothing.
void CheckRow(const TableLayout& table, const RowWrite& row) {
  if (row.is_static ? !row.clustering.empty() : row.clustering.size() != table.clustering.size()) {
    Invalid(table, "a clustering of " + std::to_string(row.clustering.size()) + " values");
  }
  for (const auto& deletion : row.collection_deletions) {
    const ColumnLayout& column = FindColumnOrThrow(table, deletion.column, row.is_static);
    if (!column.is_multi_cell()) Invalid(table, deletion.column + " is not a multi-cell column");
  }
  for (const auto& write : row.cells) {
    const ColumnLayout& column = FindColumnOrThrow(table, write.column, row.is_static);
    if (column.is_multi_cell() != write.path.has_value()) {
      Invalid(table, write.path ? "a path on simple column " + write.column
                                : "no path on multi-cell column " + write.column);
    }
    CheckCellKind(table, column, write.cell);
  }
}

void CheckMutation(const TableLayout& table, const Mutation& mutation) {
  for (const auto& rt : mutation.range_tombstones) {
    if (rt.start.prefix.size() > table.clustering.size() ||
        rt.end.prefix.size() > table.clustering.size()) {
      Invalid(table, "a range tombstone bound longer than the clustering key");
    }
  }
  for (const auto& row : mutation.rows) CheckRow(table, row);
}

// Adds one record after another to the batch, each key built on a common
// prefix in one buffer and each value in another: no allocation per record
// once the buffers have grown.
class RecordWriter {
 public:
  RecordWriter(rocksdb::ColumnFamilyHandle* family, rocksdb::WriteBatch& batch)
      : family_(family), batch_(batch) {}

  // The key of the next records starts with `prefix`.
  void SetPrefix(BytesView prefix) { prefix_.assign(prefix); }
  const Bytes& prefix() const { return prefix_; }

  template <typename AppendSuffix, typename EncodeValue>
  void Add(AppendSuffix&& append_suffix, EncodeValue&& encode_value) {
    key_.assign(prefix_);
    append_suffix(key_);
    value_.clear();
    encode_value(value_);
    rocksdb::Status status = batch_.Merge(family_, key_, value_);
    if (!status.ok()) {
      throw StorageError("write", {}, "adding a write to a batch: " + status.ToString());
    }
  }

 private:
  rocksdb::ColumnFamilyHandle* family_;
  rocksdb::WriteBatch& batch_;
  Bytes prefix_, key_, value_;
};

// REQUIRES: CheckRow(table, row) passed.
void AddRow(const TableLayout& table, BytesView partition_prefix, const RowWrite& row,
            RecordWriter& out) {
  Bytes row_key(partition_prefix);
  if (row.is_static) {
    AppendU8(row_key, static_cast<uint8_t>(KeyKind::kStaticRow));
  } else {
    AppendU8(row_key, static_cast<uint8_t>(KeyKind::kRow));
    AppendClustering(table, row.clustering, row_key);
  }
  out.SetPrefix(row_key);
  if (!row.deletion.is_live()) {
    out.Add([](Bytes& k) { AppendU8(k, static_cast<uint8_t>(RowPart::kDeletion)); },
            [&](Bytes& v) { EncodeDeletion(row.deletion, v); });
  }
  if (!row.marker.is_empty()) {
    out.Add([](Bytes& k) { AppendU8(k, static_cast<uint8_t>(RowPart::kMarker)); },
            [&](Bytes& v) { EncodeLiveness(row.marker, v); });
  }
  auto append_column = [](Bytes& k, const std::string& column, CellPart part) {
    AppendU8(k, static_cast<uint8_t>(RowPart::kCell));
    AppendEscaped(column, k);
    AppendU8(k, static_cast<uint8_t>(part));
  };
  for (const auto& deletion : row.collection_deletions) {
    out.Add([&](Bytes& k) { append_column(k, deletion.column, CellPart::kCollectionDeletion); },
            [&](Bytes& v) { EncodeDeletion(deletion.deletion, v); });
  }
  for (const auto& write : row.cells) {
    out.Add(
        [&](Bytes& k) {
          append_column(k, write.column, write.path ? CellPart::kElement : CellPart::kSimple);
          if (write.path) AppendCellPath(*table.FindColumn(write.column), *write.path, k);
        },
        [&](Bytes& v) { EncodeCell(write.cell, v); });
  }
}

}  // namespace

void AddMutationToBatch(const TableLayout& table, rocksdb::ColumnFamilyHandle* family,
                        const Mutation& mutation, rocksdb::WriteBatch& batch) {
  CheckMutation(table, mutation);
  Bytes prefix;
  AppendPartitionPrefix(mutation.partition, prefix);
  RecordWriter out(family, batch);
  out.SetPrefix(prefix);
  if (!mutation.partition_deletion.is_live()) {
    out.Add([](Bytes& k) { AppendU8(k, static_cast<uint8_t>(KeyKind::kPartitionDeletion)); },
            [&](Bytes& v) { EncodeDeletion(mutation.partition_deletion, v); });
  }
  for (const auto& rt : mutation.range_tombstones) {
    out.Add(
        [&](Bytes& k) {
          AppendU8(k, static_cast<uint8_t>(KeyKind::kRangeTombstone));
          AppendRangeTombstoneBounds(rt.start, rt.end, k);
        },
        [&](Bytes& v) { EncodeDeletion(rt.deletion, v); });
  }
  for (const auto& row : mutation.rows) AddRow(table, prefix, row, out);
}

}  // namespace sibyl::storage
