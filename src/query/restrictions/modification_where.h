#pragma once
// The WHERE clause of UPDATE and DELETE (and the key columns of INSERT, which
// Cassandra turns into `=` relations): which partitions, rows and clustering
// ranges a write touches, checked as Cassandra 4.1's StatementRestrictions
// checks modification statements:
//   - every partition key column by = or IN ("Some partition key parts are missing: k");
//   - INSERT and UPDATE: every clustering column by = or IN, unless only
//     static columns are written ("Some clustering keys are missing: c");
//   - DELETE: a prefix of clustering columns by = or IN, the last one
//     possibly a slice (a range deletion);
//   - no other column ("Non PRIMARY KEY columns found in where clause: v ").
// token(), multi-column relations and map-element relations fail with an
// honest error.

#include <optional>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/table_metadata.h"
#include "storage/mutation.h"

namespace sibyl::query {

// The relations on one key column.
struct KeyRestriction {
  size_t column = 0;                      // index in TableMetadata::columns
  std::vector<PreparedTerm> values;       // = (one term) or IN (the listed terms)
  std::optional<PreparedTerm> in_marker;  // IN ? (binds a list)
  bool is_in = false;
  std::optional<PreparedTerm> lower;  // > / >=
  bool lower_inclusive = false;
  std::optional<PreparedTerm> upper;  // < / <=
  bool upper_inclusive = false;

  bool is_slice() const { return lower.has_value() || upper.has_value(); }
  bool is_eq_or_in() const { return !values.empty() || in_marker.has_value() || is_in; }
};

// A clustering range to delete, in the table's clustering order.
struct DeletedRange {
  storage::ClusteringBound start;
  storage::ClusteringBound end;
};

class ModificationWhere {
 public:
  // `statement_type` is how Cassandra names the statement in messages
  // ("INSERT", "UPDATE", "DELETE"); `static_only` says the statement writes
  // only static columns. Throws CqlError(kInvalid) with Cassandra's messages.
  static ModificationWhere Prepare(const schema::TableMetadata& table,
                                   const std::vector<cql::Relation>& where,
                                   std::string_view statement_type, bool static_only,
                                   BindSpecCollector& binds);

  // Some clustering column is restricted.
  bool has_clustering() const { return clustering_restricted_ > 0; }
  // DELETE of clustering ranges: a slice, or fewer clustering columns than the table has.
  bool has_slices() const { return has_slices_; }
  // Some partition key column is restricted by IN ? or by IN with other than
  // one value (Cassandra makes `k IN (v)` an equality): conditional writes
  // refuse that, as Cassandra's keyIsInRelation().
  bool partition_key_has_in(const schema::TableMetadata& table) const;
  // Some clustering column is restricted by IN (clusteringKeyRestrictionsHasIN()).
  bool clustering_has_in(const schema::TableMetadata& table) const;
  // For PREPARED's pk_index: each partition key column's marker, or empty.
  std::vector<uint16_t> PartitionKeyMarkers(const schema::TableMetadata& table) const;

  // The routing keys of the partitions written, without duplicates, in the
  // order given. Throws CqlError(kInvalid) for null/unset values ("Invalid
  // null value in condition for column k"), empty keys ("Key may not be
  // empty") and keys over 64 KiB.
  [[nodiscard]] std::vector<Bytes> PartitionKeys(const schema::TableMetadata& table,
                                                 const BoundValues& values) const;
  // The clusterings (restricted prefix, full when !has_slices()) of every
  // combination of = and IN values, without duplicates. Empty when an IN is empty.
  [[nodiscard]] std::vector<storage::Clustering> Clusterings(const schema::TableMetadata& table,
                                                             const BoundValues& values) const;
  // REQUIRES: has_slices(). The non-empty ranges to delete.
  [[nodiscard]] std::vector<DeletedRange> Slices(const schema::TableMetadata& table,
                                                 const BoundValues& values) const;

 private:
  const KeyRestriction* Find(size_t column) const;
  // The values one = / IN restriction binds to, validated.
  std::vector<BytesView> BindValues(const KeyRestriction& r, const schema::TableMetadata& table,
                                    const BoundValues& values) const;

  std::vector<KeyRestriction> restrictions_;
  size_t clustering_restricted_ = 0;  // how many clustering columns, from the first
  bool has_slices_ = false;
};

}  // namespace sibyl::query
