#pragma once
// What the large-data ledger knows of partitions, rows and cells, as one
// SSTable records it in its user properties (written by
// ledger_properties_collector.h when the file is built, at flush and at
// compaction) and as the ledger sums it over a table's live SSTables
// (large_data_ledger.h). docs/dev/storage.md, "The large-data ledger".
//
// A file records every partition in its histograms, but only the large ones
// by name: a partition, row or cell over one of the floors below. The floors
// bound the properties' size; a partition spread over many files in pieces
// each under the floors is seen once compaction joins them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "storage/ledger/measure_histogram.h"

namespace sibyl::storage::ledger {

// What a file names: partitions of at least 1 MiB, 1,000 rows, 100
// tombstones or a collection of 100 elements; rows of at least 1 MiB; cells of at least 256 KiB and
// collections of at least 100 elements or 256 KiB. Each list keeps the
// largest kMaxNamedPerFile entries.
struct Floors {
  static constexpr uint64_t kPartitionBytes = 1 << 20;
  static constexpr uint64_t kPartitionRows = 1000;
  static constexpr uint64_t kPartitionTombstones = 100;
  static constexpr uint64_t kRowBytes = 1 << 20;
  static constexpr uint64_t kCellBytes = 256 << 10;
  static constexpr uint64_t kCollectionItems = 100;
  static constexpr size_t kMaxNamedPerFile = 1000;
};

// One partition's figures: in one file, or summed over a table's files (the
// logical partition, once the ledger adds them up).
struct PartitionFigures {
  Bytes prefix;             // the partition's key prefix (key_codec.h): token + escaped key
  uint64_t bytes = 0;       // its records' keys and values as stored (uncompressed)
  uint64_t rows = 0;        // clustering rows, and the static row if it has one
  uint64_t cells = 0;       // cells and collection elements, tombstones included
  uint64_t tombstones = 0;  // partition, range, row and collection deletions; cell tombstones
  uint64_t largest_row_bytes = 0;
  uint64_t largest_collection_items = 0;
  friend bool operator==(const PartitionFigures&, const PartitionFigures&) = default;
};

// A row over the row floor.
struct RowFigures {
  Bytes prefix;
  bool is_static = false;
  Bytes clustering;  // the encoded clustering (key_codec.h); empty for the static row
  uint64_t bytes = 0;
  uint64_t cells = 0;
  friend bool operator==(const RowFigures&, const RowFigures&) = default;
};

// A cell, or a non-frozen collection (all its elements), over a cell floor.
struct CellFigures {
  Bytes prefix;
  bool is_static = false;
  Bytes clustering;
  std::string column;
  uint64_t bytes = 0;  // the value's bytes; a collection's: all its elements'
  uint64_t items = 0;  // a collection's elements; 0 for a simple cell
  friend bool operator==(const CellFigures&, const CellFigures&) = default;
};

// Distributions of every partition's figures in a file (or a table).
struct PartitionHistograms {
  MeasureHistogram bytes;
  MeasureHistogram rows;
  MeasureHistogram cells;
  MeasureHistogram tombstones;
  void Add(const PartitionFigures& partition);
  // Takes back an Add (MeasureHistogram::Remove).
  void Remove(const PartitionFigures& partition);
  void Merge(const PartitionHistograms& other);
  friend bool operator==(const PartitionHistograms&, const PartitionHistograms&) = default;
};

// What one SSTable records.
struct FileLedger {
  std::vector<PartitionFigures> partitions;  // in key order
  std::vector<RowFigures> rows;
  std::vector<CellFigures> cells;
  PartitionHistograms histograms;
  friend bool operator==(const FileLedger&, const FileLedger&) = default;
};

// The user property holding a FileLedger. Versioned by name: a file written
// by another version is read as not measured.
inline constexpr const char* kFileLedgerProperty = "sibyl.ledger.v1";

Bytes EncodeFileLedger(const FileLedger& ledger);
// nullopt when malformed.
std::optional<FileLedger> DecodeFileLedger(BytesView bytes);

}  // namespace sibyl::storage::ledger
