#pragma once
// The layout of storage keys (docs/dev/storage.md). Every record of a table
// lives in the table's column family under a key that sorts, with RocksDB's
// bytewise comparator, exactly as Cassandra orders the data:
//
//   key       := partition kind ...
//   partition := token(8 bytes, big-endian, sign bit flipped)
//                escaped(routing key)              -- 0x00 -> 00 FF, then 00 01
//   kind 0x10 := (nothing)                         -- the partition deletion
//   kind 0x20 := bounds(start, end)                -- one range tombstone
//   kind 0x30 := row_part                          -- the static row
//   kind 0x40 := clustering row_part               -- a clustering row
//   clustering := AppendComparable(value_i, desc_i) for every clustering column
//   row_part  := 0x10                              -- the row deletion
//              | 0x20                              -- the row marker (INSERT)
//              | 0x30 escaped(column) cell_part    -- a cell
//   cell_part := 0x10                              -- the collection deletion
//              | 0x20                              -- a simple cell
//              | 0x30 path                         -- one element / UDT field
//   path      := AppendComparable(element type) for lists (timeuuid), sets
//                (the element) and maps (the key); raw 2 bytes for UDT fields
//   bounds    := per bound: u8 count, count x (u32 len, bytes), u8 inclusive
//
// So a partition's records are one contiguous range led by its deletion and
// its range tombstones, a row's records are contiguous and led by its
// deletion and marker, and a collection's elements follow its deletion.
// The byte values are on disk: do not change them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

enum class KeyKind : uint8_t {
  kPartitionDeletion = 0x10,
  kRangeTombstone = 0x20,
  kStaticRow = 0x30,
  kRow = 0x40,
};
enum class RowPart : uint8_t { kDeletion = 0x10, kMarker = 0x20, kCell = 0x30 };
enum class CellPart : uint8_t { kCollectionDeletion = 0x10, kSimple = 0x20, kElement = 0x30 };

// The 8 bytes of a token: big-endian with the sign bit flipped, so that
// bytewise order is signed order.
void AppendToken(int64_t token, Bytes& out);
int64_t DecodeToken(BytesView eight_bytes);

// A terminated, prefix-free form of arbitrary bytes keeping their order.
void AppendEscaped(BytesView raw, Bytes& out);
// Reads one escaped string from `in` (advancing it); nullopt when malformed.
std::optional<Bytes> ReadEscaped(BytesView& in);

// The keys of the partitions whose token t is in (start, end] — start ==
// minimum: from the ring's start; end == minimum: to its end; start >= end
// wraps around the ring — as [lo, hi) key ranges (empty hi: to the end), in
// ring order: the part after start first.
std::vector<std::pair<Bytes, Bytes>> TokenRangeKeys(int64_t start, int64_t end);

// token + escaped routing key: the prefix every record of a partition shares
// (the prefix extractor's domain and the unit of the bloom filters).
void AppendPartitionPrefix(const PartitionKey& key, Bytes& out);
// The length of the partition prefix `key` starts with; 0 when malformed.
size_t PartitionPrefixLength(BytesView key);
// REQUIRES: `prefix` is exactly a partition prefix.
std::optional<PartitionKey> DecodePartitionPrefix(BytesView prefix);

// The clustering values (a full key or a bound's prefix) in clustering order.
// Throws std::invalid_argument when there are more values than columns.
void AppendClustering(const TableLayout& table, const Clustering& clustering, Bytes& out);
// Reads a full clustering key from `in` (advancing it). Throws
// std::runtime_error when malformed.
Clustering ReadClustering(const TableLayout& table, BytesView& in);
// Skips a full clustering key, returning the bytes it spans.
BytesView SkipClustering(const TableLayout& table, BytesView& in);

void AppendRangeTombstoneBounds(const ClusteringBound& start, const ClusteringBound& end,
                                Bytes& out);
// nullopt when malformed.
std::optional<std::pair<ClusteringBound, ClusteringBound>> ReadRangeTombstoneBounds(BytesView in);

// The path of an element of `column` (a multi-cell column).
void AppendCellPath(const ColumnLayout& column, BytesView path, Bytes& out);
Bytes ReadCellPath(const ColumnLayout& column, BytesView& in);

// The smallest key greater than every key starting with `prefix`; empty when
// there is none (prefix all 0xFF).
Bytes PrefixSuccessor(BytesView prefix);

// The parts of a row-part suffix (what follows the clustering or 0x30).
struct RowPartKey {
  RowPart part = RowPart::kDeletion;
  std::string column;                      // kCell only
  CellPart cell_part = CellPart::kSimple;  // kCell only
  BytesView encoded_path;                  // kElement only: the path's key bytes
};
// nullopt when malformed.
std::optional<RowPartKey> ParseRowPart(BytesView in);

}  // namespace sibyl::storage
