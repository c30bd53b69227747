#pragma once
// One condition of a lightweight transaction's IF clause, prepared against
// its column (Cassandra 4.1's cql3/conditions/ColumnCondition.java), and its
// evaluation against the row a transaction read:
//   c op v       op one of = != < <= > >=, or c IN (v, ...) / c IN ?
//   l[i] op v    an element of a list (by index) ...
//   m[k] op v    ... or of a map (by key)
//   u.f op v     a field of a user type
// Prepare-time messages, in Cassandra's order:
//   "Conditions on counters are not supported"
//   "Invalid element access syntax for non-collection column c"
//   "Invalid element access syntax for set column c"
//   "Unknown field f for column c"
//   "Slice conditions ( < ) are not supported on durations" (and the
//   collection / tuple / UDT variants)
//   "PRIMARY KEY column 'k' cannot have IF conditions"
// Evaluation follows ColumnCondition.Bound: a null condition value matches a
// null (or missing) cell with = and a non-null one with !=, and any other
// operator fails ("Invalid comparison with null for operator \"<\""); a null
// cell matches only != against a non-null value; a non-frozen collection
// compares element by element, a missing one as the empty collection.

#include <cstddef>
#include <optional>
#include <vector>

#include "common/bytes.h"
#include "cql/ast_dml.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

class ColumnCondition;

// A condition with one request's values (ColumnCondition.Bound). Holds views
// into the request and the prepared statement: both must outlive it.
class BoundCondition {
 public:
  // Whether the condition holds for `current`, the column's value in the
  // row read (TableMetadata::columns layout; nullopt when the row or the
  // cell is missing). Throws CqlError(kInvalid) as Cassandra does ("Invalid
  // comparison with null for operator ...", "Invalid negative list index -1").
  [[nodiscard]] bool AppliesTo(const OptBytes& current) const;
  size_t column() const;

 private:
  friend class ColumnCondition;
  const ColumnCondition* condition_ = nullptr;
  std::optional<BytesView> element_;              // list index / map key
  std::vector<std::optional<BytesView>> values_;  // nullopt: null
  std::vector<Bytes> normalized_;                 // owned values (sorted sets/maps)
};

class ColumnCondition {
 public:
  enum class Target { kColumn, kElement, kField };

  // Throws CqlError(kInvalid) with the messages above; records the specs of
  // the condition's markers in `binds` (idx(l) / key(m), value(c), u.f, in(...)).
  [[nodiscard]] static ColumnCondition Prepare(const schema::TableMetadata& table,
                                               const cql::Condition& raw, BindSpecCollector& binds);

  size_t column() const { return column_; }
  bool is_static() const { return is_static_; }
  Target target() const { return target_; }

  // The condition with one request's values. Throws CqlError(kInvalid):
  // "Invalid 'unset' value in condition", "Invalid null list in IN condition",
  // "Invalid null value for map element access".
  [[nodiscard]] BoundCondition Bind(const BoundValues& values) const;

 private:
  friend class BoundCondition;

  Target target_ = Target::kColumn;
  size_t column_ = 0;
  bool is_static_ = false;
  types::TypePtr column_type_;
  types::TypePtr value_type_;  // what the values compare as
  cql::Relation::Op op_ = cql::Relation::Op::kEq;
  std::optional<PreparedTerm> element_;  // kElement
  size_t field_ = 0;                     // kField
  std::vector<PreparedTerm> values_;     // one, or IN's list
  std::optional<PreparedTerm> in_marker_;
};

}  // namespace sibyl::query
