#pragma once
// Where a SELECT's rows can be, as its WHERE clause says for one request:
// which partitions (named ones, or a token range of the ring) and which rows
// of each (clustering slices). Restrictions::Bind builds it; a RowSource
// reads only what it covers (the storage engine seeks straight to it); the
// RowFilter bound beside it checks what a plan cannot express (filtering on
// regular and static columns, CONTAINS, clustering relations after a gap).
//
// Invariant: a row matches the WHERE clause iff plan.Contains(row) and
// filter.Matches(row).

#include <optional>
#include <vector>

#include "schema/row_order.h"
#include "schema/table_metadata.h"
#include "storage/data/read_command.h"

namespace sibyl::query {

struct ReadPlan {
  // The partitions when the partition key is restricted by = / IN: each
  // distinct, in the order of their key values (component by component, each
  // in its type's order), the order Cassandra answers them in; nullopt: every
  // partition of `range`.
  std::optional<std::vector<storage::PartitionKey>> partitions;
  // Used when `partitions` is nullopt: (start, end] in storage's terms
  // (kMinimumToken as start = from the ring's start; as end = to its end).
  // token() restrictions narrow it; the whole ring by default.
  storage::TokenRange range;
  // The rows wanted in each partition, in the table's clustering order,
  // sorted and non-overlapping; empty: every row.
  std::vector<storage::ClusteringSlice> slices;
  // Set when a secondary index finds the rows (`partitions` is then nullopt):
  // the engine reads the index over `range` (IndexQuery in read_command.h).
  std::optional<storage::IndexQuery> index;
  // Nothing can match (k IN (), an empty slice or token range): read nothing.
  bool selects_nothing = false;

  // Whether `row` (TableMetadata::columns layout) lies inside the plan: for
  // sources that produce rows in memory (virtual tables).
  [[nodiscard]] bool Contains(const schema::TableMetadata& table, const schema::Row& row) const;
};

}  // namespace sibyl::query
