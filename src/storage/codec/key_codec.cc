#include "storage/codec/key_codec.h"

#include <limits>
#include <stdexcept>

#include "storage/codec/byte_comparable.h"

namespace sibyl::storage {
namespace {

// Escaping: 0x00 becomes 00 FF and the string ends with 00 01, so a shorter
// string sorts before its extensions and the encoding is prefix-free.
constexpr char kEscape = '\x00';
constexpr char kEscapedZero = '\xFF';
constexpr char kTerminator = '\x01';

const types::CqlType& TimeuuidType() {
  static const types::TypePtr type = types::CqlType::Native(types::Kind::kTimeuuid);
  return *type;
}

// The type whose order the paths of a multi-cell column follow; nullptr for
// UDT fields (a fixed 2-byte big-endian index, already ordered).
const types::CqlType* PathType(const ColumnLayout& column) {
  switch (column.type->kind()) {
    case types::Kind::kList:
      return &TimeuuidType();
    case types::Kind::kSet:
    case types::Kind::kMap:
      return column.type->params()[0].get();
    default:
      return nullptr;
  }
}

void AppendBound(const ClusteringBound& bound, Bytes& out) {
  AppendU8(out, static_cast<uint8_t>(bound.prefix.size()));
  for (const Bytes& value : bound.prefix) {
    AppendBE32(out, static_cast<uint32_t>(value.size()));
    out.append(value);
  }
  AppendU8(out, bound.inclusive ? 1 : 0);
}

std::optional<ClusteringBound> ReadBound(BytesView& in) {
  if (in.empty()) return std::nullopt;
  size_t count = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  ClusteringBound bound;
  for (size_t i = 0; i < count; ++i) {
    if (in.size() < 4) return std::nullopt;
    uint32_t length = LoadBE32(in.data());
    in.remove_prefix(4);
    if (in.size() < length) return std::nullopt;
    bound.prefix.emplace_back(in.substr(0, length));
    in.remove_prefix(length);
  }
  if (in.empty()) return std::nullopt;
  bound.inclusive = in[0] != 0;
  in.remove_prefix(1);
  return bound;
}

}  // namespace

void AppendToken(int64_t token, Bytes& out) {
  AppendBE64(out, static_cast<uint64_t>(token) ^ (uint64_t{1} << 63));
}

int64_t DecodeToken(BytesView eight_bytes) {
  return static_cast<int64_t>(LoadBE64(eight_bytes.data()) ^ (uint64_t{1} << 63));
}

void AppendEscaped(BytesView raw, Bytes& out) {
  for (char c : raw) {
    out.push_back(c);
    if (c == kEscape) out.push_back(kEscapedZero);
  }
  out.push_back(kEscape);
  out.push_back(kTerminator);
}

std::optional<Bytes> ReadEscaped(BytesView& in) {
  Bytes raw;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != kEscape) {
      raw.push_back(in[i]);
      continue;
    }
    if (i + 1 >= in.size()) return std::nullopt;
    if (in[i + 1] == kTerminator) {
      in.remove_prefix(i + 2);
      return raw;
    }
    if (in[i + 1] != kEscapedZero) return std::nullopt;
    raw.push_back(kEscape);
    ++i;
  }
  return std::nullopt;
}

void AppendPartitionPrefix(const PartitionKey& key, Bytes& out) {
  AppendToken(key.token, out);
  AppendEscaped(key.key, out);
}

size_t PartitionPrefixLength(BytesView key) {
  if (key.size() < 10) return 0;
  for (size_t i = 8; i + 1 < key.size(); ++i) {
    if (key[i] != kEscape) continue;
    if (key[i + 1] == kTerminator) return i + 2;
    ++i;  // an escaped zero
  }
  return 0;
}

std::optional<PartitionKey> DecodePartitionPrefix(BytesView prefix) {
  if (prefix.size() < 10) return std::nullopt;
  PartitionKey key;
  key.token = DecodeToken(prefix.substr(0, 8));
  prefix.remove_prefix(8);
  auto raw = ReadEscaped(prefix);
  if (!raw || !prefix.empty()) return std::nullopt;
  key.key = std::move(*raw);
  return key;
}

void AppendClustering(const TableLayout& table, const Clustering& clustering, Bytes& out) {
  if (clustering.size() > table.clustering.size()) {
    throw std::invalid_argument("more clustering values than clustering columns");
  }
  for (size_t i = 0; i < clustering.size(); ++i) {
    AppendComparable(*table.clustering[i].type, clustering[i], table.clustering[i].descending, out);
  }
}

Clustering ReadClustering(const TableLayout& table, BytesView& in) {
  Clustering clustering;
  clustering.reserve(table.clustering.size());
  for (const auto& column : table.clustering) {
    clustering.push_back(ReadComparable(*column.type, column.descending, in));
  }
  return clustering;
}

BytesView SkipClustering(const TableLayout& table, BytesView& in) {
  BytesView start = in;
  for (const auto& column : table.clustering) {
    (void)ReadComparable(*column.type, column.descending, in);
  }
  return start.substr(0, start.size() - in.size());
}

void AppendRangeTombstoneBounds(const ClusteringBound& start, const ClusteringBound& end,
                                Bytes& out) {
  AppendBound(start, out);
  AppendBound(end, out);
}

std::optional<std::pair<ClusteringBound, ClusteringBound>> ReadRangeTombstoneBounds(BytesView in) {
  auto start = ReadBound(in);
  if (!start) return std::nullopt;
  auto end = ReadBound(in);
  if (!end || !in.empty()) return std::nullopt;
  return std::make_pair(std::move(*start), std::move(*end));
}

void AppendCellPath(const ColumnLayout& column, BytesView path, Bytes& out) {
  if (const types::CqlType* type = PathType(column)) {
    AppendComparable(*type, path, /*descending=*/false, out);
  } else {
    out.append(path);  // a UDT field index: 2 bytes, big-endian
  }
}

Bytes ReadCellPath(const ColumnLayout& column, BytesView& in) {
  if (const types::CqlType* type = PathType(column)) {
    return ReadComparable(*type, /*descending=*/false, in);
  }
  Bytes path(in);
  in = {};
  return path;
}

std::vector<std::pair<Bytes, Bytes>> TokenRangeKeys(int64_t start, int64_t end) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto lower = [](int64_t start) {
    Bytes key;
    if (start != kMin) AppendToken(start + 1, key);
    return key;
  };
  auto upper = [](int64_t end) {
    Bytes key;
    if (end != kMin && end != kMax) AppendToken(end + 1, key);
    return key;
  };
  std::vector<std::pair<Bytes, Bytes>> ranges;
  if (end == kMin || start < end) {
    if (start != kMax) ranges.emplace_back(lower(start), upper(end));
  } else {  // wraps around the ring: in ring order, the part after start first
    if (start != kMax) ranges.emplace_back(lower(start), Bytes());
    ranges.emplace_back(Bytes(), upper(end));
  }
  return ranges;
}

Bytes PrefixSuccessor(BytesView prefix) {
  Bytes successor(prefix);
  while (!successor.empty() && static_cast<uint8_t>(successor.back()) == 0xFF) {
    successor.pop_back();
  }
  if (!successor.empty()) successor.back() = static_cast<char>(successor.back() + 1);
  return successor;
}

std::optional<RowPartKey> ParseRowPart(BytesView in) {
  if (in.empty()) return std::nullopt;
  RowPartKey key;
  key.part = static_cast<RowPart>(in[0]);
  in.remove_prefix(1);
  switch (key.part) {
    case RowPart::kDeletion:
    case RowPart::kMarker:
      if (!in.empty()) return std::nullopt;
      return key;
    case RowPart::kCell:
      break;
    default:
      return std::nullopt;
  }
  auto column = ReadEscaped(in);
  if (!column || in.empty()) return std::nullopt;
  key.column = std::move(*column);
  key.cell_part = static_cast<CellPart>(in[0]);
  in.remove_prefix(1);
  switch (key.cell_part) {
    case CellPart::kCollectionDeletion:
    case CellPart::kSimple:
      if (!in.empty()) return std::nullopt;
      return key;
    case CellPart::kElement:
      key.encoded_path = in;
      return key;
  }
  return std::nullopt;
}

}  // namespace sibyl::storage
