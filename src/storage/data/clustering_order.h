#pragma once
// The order of clusterings: the one comparison of clustering values that the
// storage engine's reference model, the schema (rows of virtual tables,
// paging positions) and the statement layer (write targets, slices, ORDER
// BY, lightweight transactions) all use. The RocksDB engine orders the same
// way through byte-comparable keys (key_codec.h), which the reference engine
// checks it against.
//
// A clustering column orders its values by its type (types::Compare),
// reversed for CLUSTERING ORDER BY (c DESC). Clusterings compare column by
// column; a clustering (or bound prefix) that is a prefix of another compares
// equal on the shared columns: CompareClusteringPrefixes leaves that case to
// the caller, CompareClusterings puts the shorter first.

#include <algorithm>
#include <cstddef>

#include "common/bytes.h"
#include "storage/data/mutation.h"
#include "types/cql_type.h"
#include "types/value_codec.h"

namespace sibyl::storage {

// <0, 0, >0 as clustering value `a` sorts before, with or after `b` in a
// column of `type` (descending: CLUSTERING ORDER BY ... DESC).
inline int CompareClusteringValues(const types::CqlType& type, bool descending, BytesView a,
                                   BytesView b) {
  const int c = types::Compare(type, a, b);
  return descending ? -c : c;
}

// Column by column over the first min(a.size(), b.size()) values; 0 when
// those are equal. `column(i)` gives the i-th clustering column's
// (const types::CqlType&, bool descending); `a[i]` and `b[i]` convert to
// BytesView.
template <typename ColumnOf, typename A, typename B>
int CompareClusteringPrefixes(const ColumnOf& column, const A& a, const B& b) {
  const size_t n = std::min<size_t>(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const auto [type, descending] = column(i);
    const int c = CompareClusteringValues(type, descending, BytesView(a[i]), BytesView(b[i]));
    if (c != 0) return c;
  }
  return 0;
}

// CompareClusteringPrefixes, then the shorter first: a total order of
// clusterings and of prefixes (as sorted sets of them need).
template <typename ColumnOf, typename A, typename B>
int CompareClusterings(const ColumnOf& column, const A& a, const B& b) {
  const int c = CompareClusteringPrefixes(column, a, b);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// A bound as a point between clusterings: just before every clustering
// starting with its prefix, or just after them (an inclusive end, an
// exclusive start). An empty prefix is the partition's start or end.
struct BoundPoint {
  const Clustering& prefix;
  bool after;
  static BoundPoint Start(const ClusteringBound& start) {
    return {start.prefix, !start.prefix.empty() && !start.inclusive};
  }
  static BoundPoint End(const ClusteringBound& end) {
    return {end.prefix, end.prefix.empty() || end.inclusive};
  }
};

template <typename ColumnOf>
int CompareBoundPoints(const ColumnOf& column, const BoundPoint& a, const BoundPoint& b) {
  const int c = CompareClusteringPrefixes(column, a.prefix, b.prefix);
  if (c != 0) return c;
  if (a.prefix.size() == b.prefix.size()) return a.after == b.after ? 0 : (a.after ? 1 : -1);
  // One prefix extends the other: the longer one's points lie between the
  // shorter one's two points.
  const bool a_longer = a.prefix.size() > b.prefix.size();
  const bool shorter_after = a_longer ? b.after : a.after;
  const int longer_vs_shorter = shorter_after ? -1 : 1;
  return a_longer ? longer_vs_shorter : -longer_vs_shorter;
}

// Whether two clustering ranges (bounds in clustering order) overlap as
// stretches of the clustering space: each starts before the other ends.
// Ranges that overlap only between two consecutive values of a column
// (after 5 and before 6 in an int column) count as overlapping: the types'
// order knows no "next value".
template <typename ColumnOf>
bool ClusteringRangesOverlap(const ColumnOf& column, const ClusteringBound& a_start,
                             const ClusteringBound& a_end, const ClusteringBound& b_start,
                             const ClusteringBound& b_end) {
  return CompareBoundPoints(column, BoundPoint::Start(a_start), BoundPoint::End(b_end)) < 0 &&
         CompareBoundPoints(column, BoundPoint::Start(b_start), BoundPoint::End(a_end)) < 0;
}

// Whether a full clustering lies between two bounds in clustering order (a
// slice's, or a range tombstone's); an empty prefix is unbounded.
template <typename ColumnOf>
bool ClusteringWithin(const ColumnOf& column, const ClusteringBound& start,
                      const ClusteringBound& end, const Clustering& clustering) {
  if (!start.prefix.empty()) {
    const int c = CompareClusteringPrefixes(column, start.prefix, clustering);
    if (c > 0 || (c == 0 && !start.inclusive)) return false;
  }
  if (!end.prefix.empty()) {
    const int c = CompareClusteringPrefixes(column, end.prefix, clustering);
    if (c < 0 || (c == 0 && !end.inclusive)) return false;
  }
  return true;
}

}  // namespace sibyl::storage
