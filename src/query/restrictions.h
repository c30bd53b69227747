#pragma once
// The WHERE clause of a SELECT, prepared against its table: each column's
// relations merged into one restriction, checked the way Cassandra 4.1's
// StatementRestrictions checks them (which combinations are allowed, which
// need ALLOW FILTERING), then bound to a request's values as a RowFilter.
//
// Supported: `=` and `IN` on any primary key column; `<`, `<=`, `>`, `>=`
// on any column; `=` and slices on other columns with ALLOW FILTERING;
// `CONTAINS` / `CONTAINS KEY` on collections with ALLOW FILTERING. token(),
// multi-column and map-element relations fail with an honest error.

#include <optional>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "query/bind_variables.h"
#include "query/term.h"
#include "schema/row_order.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

// Cassandra's refusal of queries that would have to filter.
inline constexpr std::string_view kRequiresAllowFilteringMessage =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

// The merged relations on one column.
struct ColumnRestriction {
  size_t column = 0;                                   // index in TableMetadata::columns
  std::optional<PreparedTerm> eq;                      // col = t
  std::optional<std::vector<PreparedTerm>> in_values;  // col IN (t1, t2, ...)
  std::optional<PreparedTerm> in_marker;               // col IN ?   (binds a list)
  std::optional<PreparedTerm> lower;                   // col > t / col >= t
  bool lower_inclusive = false;
  std::optional<PreparedTerm> upper;  // col < t / col <= t
  bool upper_inclusive = false;
  std::vector<PreparedTerm> contains;      // col CONTAINS t
  std::vector<PreparedTerm> contains_key;  // col CONTAINS KEY t

  bool is_eq() const { return eq.has_value(); }
  bool is_in() const { return in_values.has_value() || in_marker.has_value(); }
  bool is_slice() const { return lower.has_value() || upper.has_value(); }
  bool is_contains() const { return !contains.empty() || !contains_key.empty(); }
};

class RowFilter;

class Restrictions {
 public:
  // Throws CqlError(kInvalid) with Cassandra's messages for unknown columns,
  // conflicting relations, and queries that need ALLOW FILTERING without it.
  static Restrictions Prepare(const schema::TableMetadata& table,
                              const std::vector<cql::Relation>& where, bool allow_filtering,
                              BindSpecCollector& binds);

  const std::vector<ColumnRestriction>& columns() const { return restrictions_; }
  const ColumnRestriction* Find(size_t column) const;

  // Every partition key column restricted by = or IN: the query reads known partitions.
  bool selects_partitions() const { return selects_partitions_; }
  // Every partition key column restricted by = alone: exactly one partition.
  bool selects_one_partition() const { return selects_one_partition_; }
  bool has_clustering_restrictions() const { return has_clustering_; }
  bool has_non_key_restrictions() const { return has_non_key_; }

  // For PREPARED's pk_index: the marker bound to each partition key column,
  // or empty unless every partition key column is bound by a marker.
  std::vector<uint16_t> PartitionKeyMarkers(const schema::TableMetadata& table) const;

  // The restrictions with one request's values. Throws CqlError(kInvalid) for
  // null or unset values ("Invalid null value in condition for column k").
  // The filter holds views into `values`' request: it must not outlive it.
  [[nodiscard]] RowFilter Bind(const schema::TableMetadata& table, const BoundValues& values) const;

 private:
  std::vector<ColumnRestriction> restrictions_;
  bool selects_partitions_ = false;
  bool selects_one_partition_ = false;
  bool has_clustering_ = false;
  bool has_non_key_ = false;
};

// Restrictions bound to one request's values: decides whether a row matches.
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
  };

  bool Matches(const schema::Row& row) const;
  const std::vector<Condition>& conditions() const { return conditions_; }

 private:
  friend class Restrictions;
  std::vector<Condition> conditions_;
};

}  // namespace sibyl::query
