#pragma once
// Clustering slices from bound clustering restrictions, in the storage
// engine's form (storage::ClusteringSlice): the rows of a partition a SELECT
// wants, in the table's clustering order, sorted and non-overlapping.
//
// The restrictions are = / IN on a prefix of the clustering columns (single
// or multi-column: their cartesian product gives one prefix per combination)
// then at most one slice. A slice is compared as CQL compares tuples, column
// by column in each type's natural order, whatever the clustering order: so
// `(c1, c2) > (1, 2)` is `c1 > 1 OR (c1 = 1 AND c2 > 2)`. Each disjunct is a
// prefix of equalities and a range on one column, which is one contiguous run
// of rows in storage order (a DESC column puts its upper bound first); with
// mixed ASC/DESC columns a tuple slice is therefore several storage slices,
// as Cassandra's MultiColumnRestriction.SliceRestriction makes them.

#include <optional>
#include <vector>

#include "common/bytes.h"
#include "schema/row_order.h"
#include "schema/table_metadata.h"
#include "storage/data/read_command.h"

namespace sibyl::query {

// A clustering restriction with one request's values, on clustering columns
// [first, first + count) (positions among the clustering columns).
struct BoundClusteringRestriction {
  size_t first = 0;
  size_t count = 0;
  // = / IN: each tuple of values (one per column); one tuple for =, none for `IN ()`.
  std::vector<std::vector<BytesView>> tuples;
  // A slice instead: each bound covers the first values.size() columns.
  struct Bound {
    std::vector<BytesView> values;
    bool inclusive = false;
  };
  bool is_slice = false;
  std::optional<Bound> lower;
  std::optional<Bound> upper;
};

struct ClusteringSlices {
  std::vector<storage::ClusteringSlice> slices;  // empty: every row (unless selects_nothing)
  bool selects_nothing = false;
};

// The clusterings (or prefixes) the = / IN restrictions before the first
// slice name: the cartesian product of their tuples, in order, duplicates
// kept; one empty clustering when there are none, none for an empty IN.
[[nodiscard]] std::vector<storage::Clustering> ClusteringPrefixes(
    const std::vector<BoundClusteringRestriction>& restrictions);

// The slices for `restrictions` (in column order, the first on clustering
// column 0, each starting where the previous ends, only the last a slice).
[[nodiscard]] ClusteringSlices BuildClusteringSlices(
    const schema::TableMetadata& table,
    const std::vector<BoundClusteringRestriction>& restrictions);

// Drops empty slices, sorts the rest in clustering order and merges those
// that overlap or touch.
void NormalizeSlices(const schema::TableMetadata& table,
                     std::vector<storage::ClusteringSlice>& slices);

// Whether a row (TableMetadata::columns layout) lies in `slice`.
[[nodiscard]] bool SliceContainsRow(const schema::TableMetadata& table,
                                    const storage::ClusteringSlice& slice, const schema::Row& row);

}  // namespace sibyl::query
