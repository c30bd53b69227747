#pragma once
// The items of a select clause, prepared (SelectorFactory, Cassandra's
// Selector.Factory: immutable, shared by every request of a prepared
// statement) and evaluated (Selector: one request's state).
//
// A Selector takes input rows in the source layout (selection.h) and gives
// one value, as Cassandra's selectors do:
//   - AddInput(row): an aggregate folds the row in; every other selector
//     keeps the values of the first row added since the last Reset (so in an
//     aggregate query a plain column shows the first row of the group);
//   - Output(): the value for the rows added since the last Reset;
//   - Reset(): start over (next row, next group).
// Output() is called at most once between resets (a column selector moves
// its value out).
// Function arguments that are aggregates give their aggregate value; an
// aggregate's arguments are evaluated on each row.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "query/functions/function_definition.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/row_order.h"
#include "types/cql_type.h"

namespace sibyl::query {

class Selector {
 public:
  virtual ~Selector() = default;
  virtual void AddInput(const schema::Row& row) = 0;
  [[nodiscard]] virtual OptBytes Output() = 0;
  virtual void Reset() = 0;
  // A bound value the client left unset (term selectors only): refused as a
  // function argument.
  [[nodiscard]] virtual bool is_unset() const { return false; }
};

// What the selectors of one request use besides the rows.
struct SelectorContext {
  const BoundValues& values;
  FunctionContext& function_context;
};

class SelectorFactory {
 public:
  virtual ~SelectorFactory() = default;

  // The result column's name when no alias is given (Cassandra's
  // getColumnName): v, system.todate(t), count, cast(v as int), m['k'], a + b.
  const std::string& column_name() const { return column_name_; }
  const types::TypePtr& type() const { return type_; }
  // Aggregates, directly or in an argument.
  bool is_aggregate() const { return is_aggregate_; }
  // A term (literal or marker) selector: its column name is its text.
  virtual bool is_term() const { return false; }

  // Throws CqlError(kInvalid) for values the request binds that the selector
  // refuses (a null map key, ...).
  [[nodiscard]] virtual std::unique_ptr<Selector> NewSelector(
      const SelectorContext& context) const = 0;

 protected:
  SelectorFactory(std::string column_name, types::TypePtr type, bool is_aggregate)
      : column_name_(std::move(column_name)), type_(std::move(type)), is_aggregate_(is_aggregate) {}

 private:
  std::string column_name_;
  types::TypePtr type_;
  bool is_aggregate_;
};
using SelectorFactoryPtr = std::shared_ptr<const SelectorFactory>;

// A value of the input row: a table column, or writetime/ttl at
// table.columns.size() + k (selection.h).
[[nodiscard]] SelectorFactoryPtr ColumnSelectorFactory(std::string name, types::TypePtr type,
                                                       size_t source_index);

// A literal or bind marker (TermSelector): the same value for every row.
[[nodiscard]] SelectorFactoryPtr TermSelectorFactory(std::string text, PreparedTerm term);

// A function call on the arguments' values (scalar) or over the rows
// (aggregate). Throws "aggregate functions cannot be used as arguments of
// aggregate functions".
[[nodiscard]] SelectorFactoryPtr FunctionSelectorFactory(FunctionPtr function,
                                                         std::vector<SelectorFactoryPtr> arguments);

// The same selector under another name and type: a type hint, (int)?.
[[nodiscard]] SelectorFactoryPtr RenamedSelectorFactory(SelectorFactoryPtr selected,
                                                        std::string column_name,
                                                        types::TypePtr type);

// u.f: field `field` of a user type value (FieldSelector). null when the
// value is null or has fewer fields.
[[nodiscard]] SelectorFactoryPtr FieldSelectorFactory(std::string column_name,
                                                      SelectorFactoryPtr selected, size_t field);

// c[k] on a set or map (ElementsSelector): the map's value for key k, the
// set's element k; null if absent. The key is bound per request:
//   Invalid null value for element selection on m
//   Invalid unset value for element selection on m
[[nodiscard]] SelectorFactoryPtr ElementSelectorFactory(std::string column_name,
                                                        SelectorFactoryPtr selected,
                                                        PreparedTerm key);

// c[from..to] on a set or map: the elements (entries) whose key lies in the
// inclusive range; an unset or omitted bound is open. No element: an empty
// collection for a frozen type, null for a non-frozen one.
//   Invalid null value for slice selection on m
[[nodiscard]] SelectorFactoryPtr SliceSelectorFactory(std::string column_name,
                                                      SelectorFactoryPtr selected,
                                                      std::optional<PreparedTerm> from,
                                                      std::optional<PreparedTerm> to);

}  // namespace sibyl::query
