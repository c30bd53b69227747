#include "storage/ledger/ledger_properties_collector.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "storage/codec/cell_codec.h"
#include "storage/codec/key_codec.h"
#include "storage/ledger/partition_figures.h"

namespace sibyl::storage::ledger {
namespace {

// The bytes of a cell value before its payload: tag, kind, timestamp, ttl,
// local deletion time (cell_codec.h).
constexpr size_t kCellHeaderBytes = 1 + 1 + 8 + 4 + 4;

// Keeps the `limit` largest of `list` by `size`, in their first order.
template <typename T, typename Size>
void KeepLargest(std::vector<T>& list, size_t limit, Size size) {
  if (list.size() <= limit) return;
  std::vector<size_t> order(list.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::nth_element(order.begin(), order.begin() + limit, order.end(),
                   [&](size_t a, size_t b) { return size(list[a]) > size(list[b]); });
  order.resize(limit);
  std::sort(order.begin(), order.end());
  std::vector<T> kept;
  kept.reserve(limit);
  for (size_t i : order) kept.push_back(std::move(list[i]));
  list = std::move(kept);
}

// How far over its floors a partition is: what ranks it among the named.
double PartitionWeight(const PartitionFigures& p) {
  return std::max({double(p.bytes) / Floors::kPartitionBytes,
                   double(p.rows) / Floors::kPartitionRows,
                   double(p.tombstones) / Floors::kPartitionTombstones,
                   double(p.largest_collection_items) / Floors::kCollectionItems});
}

class LedgerPropertiesCollector final : public rocksdb::TablePropertiesCollector {
 public:
  explicit LedgerPropertiesCollector(std::shared_ptr<const TableLayout> layout)
      : layout_(std::move(layout)) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& key, const rocksdb::Slice& value,
                             rocksdb::EntryType type, rocksdb::SequenceNumber /*seq*/,
                             uint64_t /*file_size*/) override {
    // Every record is a Merge or, once merged with its base, a Put.
    if (type == rocksdb::kEntryPut || type == rocksdb::kEntryMerge) {
      try {
        Add(BytesView(key.data(), key.size()), BytesView(value.data(), value.size()));
      } catch (const std::exception&) {
        malformed_ = true;  // a key the layout cannot read: the file is not measured
      }
    }
    return rocksdb::Status::OK();
  }

  rocksdb::Status Finish(rocksdb::UserCollectedProperties* properties) override {
    if (malformed_ || !layout_) return rocksdb::Status::OK();
    FinishPartition();
    KeepLargest(ledger_.partitions, Floors::kMaxNamedPerFile, PartitionWeight);
    KeepLargest(ledger_.rows, Floors::kMaxNamedPerFile,
                [](const RowFigures& r) { return r.bytes; });
    KeepLargest(ledger_.cells, Floors::kMaxNamedPerFile, [](const CellFigures& c) {
      return std::max(double(c.bytes) / Floors::kCellBytes,
                      double(c.items) / Floors::kCollectionItems);
    });
    (*properties)[kFileLedgerProperty] = EncodeFileLedger(ledger_);
    return rocksdb::Status::OK();
  }

  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    return {{"sibyl.ledger.named_partitions", std::to_string(ledger_.partitions.size())},
            {"sibyl.ledger.partitions", std::to_string(ledger_.histograms.bytes.count())}};
  }

  const char* Name() const override { return "SibylLedgerPropertiesCollector"; }

 private:
  void Add(BytesView key, BytesView value) {
    if (!layout_ || malformed_) return;
    const size_t prefix_length = PartitionPrefixLength(key);
    if (prefix_length == 0 || prefix_length >= key.size()) {
      malformed_ = true;
      return;
    }
    const BytesView prefix = key.substr(0, prefix_length);
    if (!in_partition_ || prefix != partition_.prefix) {
      FinishPartition();
      partition_ = {};
      partition_.prefix.assign(prefix);
      in_partition_ = true;
    }
    const uint64_t record_bytes = key.size() + value.size();
    partition_.bytes += record_bytes;
    const std::optional<ValueTag> tag = PeekValueTag(value);
    const bool deletion = tag == ValueTag::kDeletion;
    const bool cell = tag == ValueTag::kCell;
    if (deletion ||
        (cell && value.size() > 1 && static_cast<Cell::Kind>(value[1]) == Cell::Kind::kTombstone)) {
      ++partition_.tombstones;
    }
    if (cell) ++partition_.cells;

    const auto kind = static_cast<KeyKind>(key[prefix_length]);
    if (kind != KeyKind::kStaticRow && kind != KeyKind::kRow) {
      FinishRow();  // partition deletion, range tombstones: before every row
      return;
    }
    BytesView rest = key.substr(prefix_length + 1);
    if (kind == KeyKind::kRow) SkipClustering(*layout_, rest);
    const BytesView row_key = key.substr(0, key.size() - rest.size());
    if (!in_row_ || row_key != row_key_) {
      FinishRow();
      row_key_.assign(row_key);
      row_is_static_ = kind == KeyKind::kStaticRow;
      row_clustering_length_ = row_key.size() - prefix_length - 1;
      in_row_ = true;
      ++partition_.rows;
    }
    row_bytes_ += record_bytes;
    if (!cell) return;
    ++row_cells_;
    const std::optional<RowPartKey> part = ParseRowPart(rest);
    if (!part || part->part != RowPart::kCell) return;
    const uint64_t payload = value.size() > kCellHeaderBytes ? value.size() - kCellHeaderBytes : 0;
    if (part->cell_part == CellPart::kSimple) {
      FinishCollection();
      if (payload >= Floors::kCellBytes) {
        ledger_.cells.push_back(NamedCell(part->column, payload, 0));
      }
      return;
    }
    if (part->cell_part != CellPart::kElement) return;
    if (!in_collection_ || part->column != collection_column_) {
      FinishCollection();
      collection_column_ = part->column;
      in_collection_ = true;
    }
    ++collection_items_;
    collection_bytes_ += payload;
  }

  CellFigures NamedCell(const std::string& column, uint64_t bytes, uint64_t items) const {
    CellFigures c;
    c.prefix = partition_.prefix;
    c.is_static = row_is_static_;
    c.clustering = row_key_.substr(row_key_.size() - row_clustering_length_);
    c.column = column;
    c.bytes = bytes;
    c.items = items;
    return c;
  }

  void FinishCollection() {
    if (!in_collection_) return;
    partition_.largest_collection_items =
        std::max(partition_.largest_collection_items, collection_items_);
    if (collection_items_ >= Floors::kCollectionItems || collection_bytes_ >= Floors::kCellBytes) {
      ledger_.cells.push_back(NamedCell(collection_column_, collection_bytes_, collection_items_));
    }
    in_collection_ = false;
    collection_items_ = collection_bytes_ = 0;
  }

  void FinishRow() {
    FinishCollection();
    if (!in_row_) return;
    partition_.largest_row_bytes = std::max(partition_.largest_row_bytes, row_bytes_);
    if (row_bytes_ >= Floors::kRowBytes) {
      RowFigures& r = ledger_.rows.emplace_back();
      r.prefix = partition_.prefix;
      r.is_static = row_is_static_;
      r.clustering = row_key_.substr(row_key_.size() - row_clustering_length_);
      r.bytes = row_bytes_;
      r.cells = row_cells_;
    }
    in_row_ = false;
    row_bytes_ = row_cells_ = 0;
  }

  void FinishPartition() {
    FinishRow();
    if (!in_partition_) return;
    ledger_.histograms.Add(partition_);
    if (partition_.bytes >= Floors::kPartitionBytes || partition_.rows >= Floors::kPartitionRows ||
        partition_.tombstones >= Floors::kPartitionTombstones ||
        partition_.largest_collection_items >= Floors::kCollectionItems) {
      ledger_.partitions.push_back(partition_);
    }
    in_partition_ = false;
  }

  const std::shared_ptr<const TableLayout> layout_;
  bool malformed_ = false;
  FileLedger ledger_;

  bool in_partition_ = false;
  PartitionFigures partition_;

  bool in_row_ = false;
  Bytes row_key_;  // prefix, kind and clustering of the row being read
  bool row_is_static_ = false;
  size_t row_clustering_length_ = 0;
  uint64_t row_bytes_ = 0;
  uint64_t row_cells_ = 0;

  bool in_collection_ = false;
  std::string collection_column_;
  uint64_t collection_items_ = 0;
  uint64_t collection_bytes_ = 0;
};

}  // namespace

rocksdb::TablePropertiesCollector* LedgerPropertiesCollectorFactory::CreateTablePropertiesCollector(
    rocksdb::TablePropertiesCollectorFactory::Context /*context*/) {
  return new LedgerPropertiesCollector(table_->layout());
}

}  // namespace sibyl::storage::ledger
