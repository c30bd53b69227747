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

}  // namespace sibyl::storage
