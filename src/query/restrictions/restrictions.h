#pragma once
// The WHERE clause of a statement — SELECT, UPDATE, DELETE, and the key
// columns of INSERT (which Cassandra turns into `=` relations) — prepared
// against its table: each relation
// checked and merged the way Cassandra 4.1's StatementRestrictions (and its
// PartitionKeySingleRestrictionSet, ClusteringColumnRestrictions,
// TokenRestriction, SingleColumnRestriction and MultiColumnRestriction)
// check and merge them, then bound to a request's values as a ReadPlan (which
// partitions and rows to read) and a RowFilter (what the plan cannot enforce).
//
// Accepted, with Cassandra's refusals otherwise:
//   - partition key: = / IN on every component (the cartesian product of the
//     values); token(k1, ..., kn) =, <, <=, >, >= (alone, or beside = / IN,
//     which then names partitions filtered by the token); slices or a partial
//     key with ALLOW FILTERING (filtered);
//   - clustering columns: = / IN (single- or multi-column) on a prefix, then at
//     most one slice (single- or multi-column, any mix of ASC/DESC orders);
//     with ALLOW FILTERING anything after a gap or a slice is filtered;
//   - static and regular columns with ALLOW FILTERING: =, slices, CONTAINS,
//     CONTAINS KEY, map entries (`m['k'] = v`).
// Custom index expressions, LIKE and IS NOT NULL are refused as Cassandra
// refuses them without an index or outside a materialized view.
//
// Secondary indexes (index_support.h says which answers what), with 4.1's
// rules: a restriction an index answers lets the query run without ALLOW
// FILTERING as long as it is the only one left to filter (SelectStatement.
// checkNeedsFiltering: `pk = ? AND idx = ?`, `token(k) > ? AND idx = ?`,
// `idx = ?` alone); two of them, an indexed and an unindexed one, clustering
// restrictions beside an unrestricted partition key, a partial partition key,
// or several CONTAINS need it. With an index in use, IN on the partition key
// and ORDER BY are refused. A read whose partition key is not restricted by
// = / IN goes through the first index (in column order) answering a
// restriction, which stays in the RowFilter too.
//
// Writes (PrepareModification) take the same relations through the same
// preparation, with StatementRestrictions' rules for modifications:
//   - every partition key column by = or IN ("Some partition key parts are
//     missing: k"), no token();
//   - INSERT and UPDATE: every clustering column by = or IN (single or
//     multi-column), unless only static columns are written ("Some
//     clustering keys are missing: c");
//   - DELETE: = / IN on a prefix of the clustering columns, then possibly a
//     slice (a range deletion);
//   - no other column ("Non PRIMARY KEY columns found in where clause: v ").
// BindWrite gives one request's partitions, rows or clustering ranges.

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cql/ast.h"
#include "query/restrictions/index_support.h"
#include "query/restrictions/read_plan.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/row_order.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

// Cassandra's refusal of queries that would have to filter.
inline constexpr std::string_view kRequiresAllowFilteringMessage =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

// The merged single-column relations on one column.
struct ColumnRestriction {
  size_t column = 0;                                   // index in TableMetadata::columns
  std::optional<PreparedTerm> eq;                      // col = t (and col IN (t))
  std::optional<std::vector<PreparedTerm>> in_values;  // col IN (t1, t2, ...)
  std::optional<PreparedTerm> in_marker;               // col IN ?   (binds a list)
  std::optional<PreparedTerm> lower;                   // col > t / col >= t
  bool lower_inclusive = false;
  std::optional<PreparedTerm> upper;  // col < t / col <= t
  bool upper_inclusive = false;
  std::vector<PreparedTerm> contains;                              // col CONTAINS t
  std::vector<PreparedTerm> contains_key;                          // col CONTAINS KEY t
  std::vector<std::pair<PreparedTerm, PreparedTerm>> map_entries;  // col[k] = v

  bool is_eq() const { return eq.has_value(); }
  bool is_in() const { return in_values.has_value() || in_marker.has_value(); }
  bool is_slice() const { return lower.has_value() || upper.has_value(); }
  bool is_contains() const {
    return !contains.empty() || !contains_key.empty() || !map_entries.empty();
  }
};

// Values for consecutive clustering columns: a tuple literal (one term per
// column) or one marker bound to a whole tuple.
struct TupleTerm {
  std::vector<PreparedTerm> elements;
  std::optional<PreparedTerm> marker;
  size_t size = 0;  // columns covered
};

// A relation on consecutive clustering columns in tuple notation
// (`(c1, c2) > (1, 2)`), merged with the relations on the same columns.
struct MultiColumnRestriction {
  enum class Kind { kEq, kIn, kSlice };
  Kind kind = Kind::kEq;
  size_t first = 0;  // index in TableMetadata::columns of the first column
  size_t count = 0;  // columns covered
  std::optional<TupleTerm> eq;
  std::vector<TupleTerm> in_values;
  std::optional<PreparedTerm> in_marker;  // binds a list of tuples (or of values when count is 1)
  bool in_marker_of_tuples = true;
  std::optional<TupleTerm> lower;  // may cover fewer columns than `count`
  bool lower_inclusive = false;
  std::optional<TupleTerm> upper;
  bool upper_inclusive = false;

  size_t last() const { return first + count - 1; }
};

// token(k1, ..., kn) relations, merged.
struct TokenRestriction {
  std::optional<PreparedTerm> eq;
  std::optional<PreparedTerm> lower;
  bool lower_inclusive = false;
  std::optional<PreparedTerm> upper;
  bool upper_inclusive = false;
};

// Which statement a WHERE clause belongs to (Cassandra's StatementType):
// only SELECT filters or reads ranges of the ring; only SELECT and DELETE
// take clustering slices. Messages name it ("... for UPDATE statements").
enum class StatementType { kSelect, kInsert, kUpdate, kDelete };
const char* StatementTypeName(StatementType type);

class RowFilter;
struct BoundRestrictions;
struct BoundWriteKeys;

class Restrictions {
 public:
  // Throws CqlError(kInvalid) with Cassandra's messages for unknown columns,
  // conflicting relations, and queries that need ALLOW FILTERING without it.
  // `ordered`: the SELECT has ORDER BY, refused when an index is used (4.1
  // checks it before ALLOW FILTERING).
  static Restrictions Prepare(const schema::TableMetadata& table,
                              const std::vector<cql::Relation>& where, bool allow_filtering,
                              BindSpecCollector& binds, bool ordered = false);
  // The WHERE clause of INSERT (its key columns as `=` relations), UPDATE or
  // DELETE. `static_only`: the statement writes only static columns.
  // REQUIRES: type != kSelect.
  static Restrictions PrepareModification(const schema::TableMetadata& table,
                                          const std::vector<cql::Relation>& where,
                                          StatementType type, bool static_only,
                                          BindSpecCollector& binds);

  // Single-column restrictions (partition key, clustering, static and regular columns).
  const std::vector<ColumnRestriction>& columns() const { return restrictions_; }
  const std::vector<MultiColumnRestriction>& multi_column() const { return multi_; }
  const std::optional<TokenRestriction>& token() const { return token_; }
  // The single-column restriction on `column`, if any (a clustering column in a
  // multi-column relation has none: see IsRestrictedByEq).
  const ColumnRestriction* Find(size_t column) const;
  // Whether `column` is restricted by = (single or multi-column), as
  // StatementRestrictions.isColumnRestrictedByEq answers (GROUP BY).
  bool IsRestrictedByEq(size_t column) const;

  // Every partition key column restricted by = or IN: the query reads named partitions.
  bool selects_partitions() const { return selects_partitions_; }
  // Every partition key column restricted by = alone: at most one partition.
  bool selects_one_partition() const { return selects_one_partition_; }
  // A partition key column restricted by IN (several partitions: ORDER BY
  // needs the rows ordered after the read).
  bool partition_key_in() const { return partition_key_in_; }
  bool has_token_restriction() const { return token_.has_value(); }
  bool has_clustering_restrictions() const { return has_clustering_; }
  bool has_non_key_restrictions() const { return has_non_key_; }
  // A clustering column restricted by IN with several values (single or
  // multi-column): Cassandra's clusteringKeyRestrictionsHasIN().
  bool clustering_has_in() const { return clustering_has_in_; }
  // A DELETE of clustering ranges: a slice, or = / IN on fewer clustering
  // columns than the table has (modifications only).
  bool deletes_ranges() const { return deletes_ranges_; }
  // A secondary index answers a restriction (StatementRestrictions.
  // usesSecondaryIndexing); the read goes through it unless the partition
  // key names the partitions.
  bool uses_secondary_index() const { return uses_index_; }
  // The index the read goes through: set when an index answers a restriction
  // and the partition key does not name the partitions.
  const std::optional<IndexChoice>& index_choice() const { return index_choice_; }

  // For PREPARED's pk_index: the marker bound to each partition key column,
  // or empty unless every partition key column is bound by a marker.
  std::vector<uint16_t> PartitionKeyMarkers(const schema::TableMetadata& table) const;

  // The restrictions with one request's values: the plan (partitions or token
  // range, clustering slices) and the filter for the rest. Throws
  // CqlError(kInvalid) with Cassandra's messages for null or unset values.
  // The filter holds views into `values`' request and into this object: it
  // must outlive neither.
  [[nodiscard]] BoundRestrictions Bind(const schema::TableMetadata& table,
                                       const BoundValues& values) const;
  // A modification's restrictions with one request's values: its partitions,
  // and its rows or (deletes_ranges()) clustering ranges. Same messages as
  // Bind, plus the key length limits on clustering values.
  [[nodiscard]] BoundWriteKeys BindWrite(const schema::TableMetadata& table,
                                         const BoundValues& values) const;

 private:
  friend class RestrictionsBuilder;

  std::vector<ColumnRestriction> restrictions_;
  std::vector<MultiColumnRestriction> multi_;
  std::optional<TokenRestriction> token_;
  bool selects_partitions_ = false;
  bool selects_one_partition_ = false;
  bool partition_key_in_ = false;
  bool partition_key_needs_filtering_ = false;
  bool has_clustering_ = false;
  bool has_non_key_ = false;
  bool clustering_has_in_ = false;
  bool deletes_ranges_ = false;
  bool uses_index_ = false;
  std::optional<IndexChoice> index_choice_;
};

// Restrictions bound to one request's values: decides whether a row matches
// the conditions its ReadPlan does not enforce.
class RowFilter {
 public:
  struct Condition {
    size_t column = 0;
    const types::CqlType* type = nullptr;
    bool has_values = false;
    std::vector<BytesView> values;  // = / IN: the row's value must equal one of these
    std::optional<BytesView> lower;
    bool lower_inclusive = false;
    std::optional<BytesView> upper;
    bool upper_inclusive = false;
    std::vector<BytesView> contains;
    std::vector<BytesView> contains_key;
    std::vector<std::pair<BytesView, BytesView>> map_entries;  // m[key] = value
  };

  bool Matches(const schema::Row& row) const;
  const std::vector<Condition>& conditions() const { return conditions_; }
  bool empty() const { return conditions_.empty(); }

  // Adds a condition (the restrictions binder's use; tests).
  void Add(Condition condition) { conditions_.push_back(std::move(condition)); }

 private:
  std::vector<Condition> conditions_;
};

struct BoundRestrictions {
  ReadPlan plan;
  RowFilter filter;
};

// What one execution of a write touches.
struct BoundWriteKeys {
  // Each partition once, in the order of their key values (as Cassandra's
  // MultiCBuilder builds them); empty only for an empty IN.
  std::vector<storage::PartitionKey> partitions;
  // Unless the restrictions delete ranges: each row once, in clustering
  // order; one empty clustering when no clustering column is restricted (a
  // table without clustering columns, the static row, a whole partition);
  // none for an empty IN.
  std::vector<storage::Clustering> clusterings;
  // When they delete ranges: the ranges, in clustering order and not
  // overlapping; none when the range is empty.
  std::vector<storage::ClusteringSlice> ranges;
};

}  // namespace sibyl::query
