#include "query/restrictions/clustering_slices.h"

#include <algorithm>

#include "storage/data/clustering_order.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::TableMetadata;
using storage::ClusteringBound;
using storage::ClusteringSlice;

const schema::ColumnMetadata& ClusteringColumn(const TableMetadata& table, size_t position) {
  return table.columns[table.clustering_begin() + position];
}

// <0, 0, >0 as clustering value `a` of column `position` sorts before, with
// or after `b` in storage (clustering) order.
int CompareInStorageOrder(const TableMetadata& table, size_t position, BytesView a, BytesView b) {
  const auto& column = ClusteringColumn(table, position);
  return storage::CompareClusteringValues(*column.type,
                                          column.order == schema::ClusteringOrder::kDesc, a, b);
}

// Natural (type) order, as tuple relations compare.
int CompareNatural(const TableMetadata& table, size_t position, BytesView a, BytesView b) {
  return types::Compare(*ClusteringColumn(table, position).type, a, b);
}

// A bound as a point between rows: before (-1) or after (+1) every row
// starting with `prefix`. An empty prefix before is the partition's start;
// after, its end.
struct Position {
  const storage::Clustering& prefix;
  int side;
};

Position StartPosition(const ClusteringBound& b) {
  return {b.prefix, b.prefix.empty() || b.inclusive ? -1 : 1};
}
Position EndPosition(const ClusteringBound& b) {
  return {b.prefix, b.prefix.empty() || b.inclusive ? 1 : -1};
}

int ComparePositions(const TableMetadata& table, const Position& a, const Position& b) {
  const size_t common = std::min(a.prefix.size(), b.prefix.size());
  for (size_t i = 0; i < common; ++i) {
    const int c = CompareInStorageOrder(table, i, a.prefix[i], b.prefix[i]);
    if (c != 0) return c;
  }
  if (a.prefix.size() == b.prefix.size()) return (a.side > b.side) - (a.side < b.side);
  return a.prefix.size() < b.prefix.size() ? a.side : -b.side;
}

// <0 / >0 as the row sorts before / after the position (never 0).
int CompareRowToPosition(const TableMetadata& table, const schema::Row& row, const Position& p) {
  const size_t begin = table.clustering_begin();
  for (size_t i = 0; i < p.prefix.size(); ++i) {
    const OptBytes& value = row[begin + i];
    if (!value) return -1;  // no clustering (a static-only row) sorts first
    const int c = CompareInStorageOrder(table, i, *value, p.prefix[i]);
    if (c != 0) return c;
  }
  return -p.side;
}

// One disjunct of a slice: equalities on the slice's first columns, then
// optionally a range on the next one (natural order).
struct Piece {
  std::vector<BytesView> eq;
  bool has_range = false;
  std::optional<BytesView> low;
  bool low_inclusive = false;
  std::optional<BytesView> high;
  bool high_inclusive = false;
};

// Rows whose tuple is above (`is_lower`) or below the bound.
std::vector<Piece> BoundPieces(const std::optional<BoundClusteringRestriction::Bound>& bound,
                               bool is_lower) {
  if (!bound || bound->values.empty()) return {Piece{}};
  std::vector<Piece> pieces;
  const auto& values = bound->values;
  for (size_t i = 0; i < values.size(); ++i) {
    Piece piece;
    piece.eq.assign(values.begin(), values.begin() + static_cast<ptrdiff_t>(i));
    piece.has_range = true;
    const bool inclusive = i + 1 == values.size() && bound->inclusive;
    if (is_lower) {
      piece.low = values[i];
      piece.low_inclusive = inclusive;
    } else {
      piece.high = values[i];
      piece.high_inclusive = inclusive;
    }
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

bool InRange(const TableMetadata& table, size_t position, const Piece& range, BytesView value) {
  if (range.low) {
    const int c = CompareNatural(table, position, value, *range.low);
    if (c < 0 || (c == 0 && !range.low_inclusive)) return false;
  }
  if (range.high) {
    const int c = CompareNatural(table, position, value, *range.high);
    if (c > 0 || (c == 0 && !range.high_inclusive)) return false;
  }
  return true;
}

// The intersection of two pieces of one slice starting at clustering column `first`.
std::optional<Piece> Intersect(const TableMetadata& table, size_t first, Piece a, Piece b) {
  if (a.eq.size() > b.eq.size()) std::swap(a, b);
  const size_t n = a.eq.size();
  for (size_t i = 0; i < n; ++i) {
    if (CompareNatural(table, first + i, a.eq[i], b.eq[i]) != 0) return std::nullopt;
  }
  if (n < b.eq.size()) {
    if (a.has_range && !InRange(table, first + n, a, b.eq[n])) return std::nullopt;
    return b;
  }
  if (!a.has_range) return b;
  if (!b.has_range) return a;
  Piece out = a;
  const size_t column = first + n;
  if (b.low) {
    const int c = out.low ? CompareNatural(table, column, *b.low, *out.low) : 1;
    if (c > 0 || (c == 0 && !b.low_inclusive)) {
      out.low = b.low;
      out.low_inclusive = b.low_inclusive;
    }
  }
  if (b.high) {
    const int c = out.high ? CompareNatural(table, column, *b.high, *out.high) : -1;
    if (c < 0 || (c == 0 && !b.high_inclusive)) {
      out.high = b.high;
      out.high_inclusive = b.high_inclusive;
    }
  }
  if (out.low && out.high) {
    const int c = CompareNatural(table, column, *out.low, *out.high);
    if (c > 0 || (c == 0 && !(out.low_inclusive && out.high_inclusive))) return std::nullopt;
  }
  return out;
}

ClusteringSlice PieceToSlice(const TableMetadata& table, const storage::Clustering& prefix,
                             size_t first, const Piece& piece) {
  ClusteringSlice slice;
  slice.start.prefix = prefix;
  for (BytesView v : piece.eq) slice.start.prefix.emplace_back(v);
  slice.end.prefix = slice.start.prefix;
  if (!piece.has_range) return slice;
  const size_t column = first + piece.eq.size();
  const bool descending = ClusteringColumn(table, column).order == schema::ClusteringOrder::kDesc;
  const auto& first_value = descending ? piece.high : piece.low;
  const bool first_inclusive = descending ? piece.high_inclusive : piece.low_inclusive;
  const auto& last_value = descending ? piece.low : piece.high;
  const bool last_inclusive = descending ? piece.low_inclusive : piece.high_inclusive;
  if (first_value) {
    slice.start.prefix.emplace_back(*first_value);
    slice.start.inclusive = first_inclusive;
  }
  if (last_value) {
    slice.end.prefix.emplace_back(*last_value);
    slice.end.inclusive = last_inclusive;
  }
  return slice;
}

}  // namespace

std::vector<storage::Clustering> ClusteringPrefixes(
    const std::vector<BoundClusteringRestriction>& restrictions) {
  std::vector<storage::Clustering> prefixes(1);
  for (const auto& r : restrictions) {
    if (r.is_slice) break;
    std::vector<storage::Clustering> next;
    next.reserve(prefixes.size() * r.tuples.size());
    for (const auto& prefix : prefixes) {
      for (const auto& tuple : r.tuples) {
        next.push_back(prefix);
        for (BytesView v : tuple) next.back().emplace_back(v);
      }
    }
    prefixes = std::move(next);
  }
  return prefixes;
}

ClusteringSlices BuildClusteringSlices(
    const TableMetadata& table, const std::vector<BoundClusteringRestriction>& restrictions) {
  ClusteringSlices out;
  if (restrictions.empty()) return out;
  const std::vector<storage::Clustering> prefixes = ClusteringPrefixes(restrictions);
  const auto slice_it = std::find_if(restrictions.begin(), restrictions.end(),
                                     [](const auto& r) { return r.is_slice; });
  const BoundClusteringRestriction* slice = slice_it == restrictions.end() ? nullptr : &*slice_it;
  if (prefixes.empty()) {
    out.selects_nothing = true;
    return out;
  }
  std::vector<Piece> pieces;
  if (slice == nullptr) {
    pieces.push_back(Piece{});
  } else {
    for (const Piece& low : BoundPieces(slice->lower, true)) {
      for (const Piece& high : BoundPieces(slice->upper, false)) {
        if (auto piece = Intersect(table, slice->first, low, high)) {
          pieces.push_back(std::move(*piece));
        }
      }
    }
  }
  const size_t first = slice != nullptr ? slice->first : 0;
  for (const auto& prefix : prefixes) {
    for (const Piece& piece : pieces)
      out.slices.push_back(PieceToSlice(table, prefix, first, piece));
  }
  NormalizeSlices(table, out.slices);
  if (out.slices.empty()) {
    out.selects_nothing = true;
  } else if (out.slices.size() == 1 && out.slices[0].start.prefix.empty() &&
             out.slices[0].end.prefix.empty()) {
    out.slices.clear();  // the whole partition
  }
  return out;
}

void NormalizeSlices(const TableMetadata& table, std::vector<ClusteringSlice>& slices) {
  auto empty = [&](const ClusteringSlice& s) {
    return ComparePositions(table, StartPosition(s.start), EndPosition(s.end)) >= 0;
  };
  slices.erase(std::remove_if(slices.begin(), slices.end(), empty), slices.end());
  std::sort(slices.begin(), slices.end(), [&](const ClusteringSlice& a, const ClusteringSlice& b) {
    return ComparePositions(table, StartPosition(a.start), StartPosition(b.start)) < 0;
  });
  std::vector<ClusteringSlice> merged;
  merged.reserve(slices.size());
  for (auto& s : slices) {
    if (!merged.empty() &&
        ComparePositions(table, StartPosition(s.start), EndPosition(merged.back().end)) <= 0) {
      if (ComparePositions(table, EndPosition(s.end), EndPosition(merged.back().end)) > 0) {
        merged.back().end = std::move(s.end);
      }
      continue;
    }
    merged.push_back(std::move(s));
  }
  slices = std::move(merged);
}

bool SliceContainsRow(const TableMetadata& table, const ClusteringSlice& slice,
                      const schema::Row& row) {
  return CompareRowToPosition(table, row, StartPosition(slice.start)) > 0 &&
         CompareRowToPosition(table, row, EndPosition(slice.end)) < 0;
}

}  // namespace sibyl::query
