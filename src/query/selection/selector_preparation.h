#pragma once
// Turns one item of a select clause (cql::Selector) into its SelectorFactory,
// as Cassandra 4.1's Selectable.Raw.prepare + newSelectorFactory do: names
// resolved against the table, function overloads against the argument
// types, literals and markers typed by what receives them.
//
// Messages, verbatim from Cassandra 4.1 (plus the function resolution ones
// of function_registry.h):
//   Undefined column name x in table ks.t
//   Cannot infer type for term 1 in selection clause (try using a cast to force a type)
//   1 is not of the expected type: text
//   Cannot assign value (int)'a' to (int)'a' of type int
//   Cannot use selection function writeTime on PRIMARY KEY part k
//   Invalid field selection: v of type int is not a user type
//   u of type frozen<address> has no field x
//   Invalid element selection: v is of type int is not a collection
//   Invalid slice selection: v of type int is not a collection
//   Element selection is only allowed on sets and maps, but l is a list
//   aggregate functions cannot be used as arguments of aggregate functions
// and for what Sibyl does not do yet, "... is not supported by Sibyl yet".

#include <vector>

#include "cql/ast.h"
#include "query/read/row_source.h"
#include "query/selection/selector.h"
#include "query/terms/bind_variables.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

// What preparing the selectors of one statement collects.
struct SelectorPreparation {
  const schema::TableMetadata& table;
  BindSpecCollector& binds;
  std::vector<CellMetadata>& cell_metadata;  // writetime()/ttl() values the rows must carry
  std::vector<size_t>& columns_read;         // table columns read (unsorted, may repeat)
};

// `expected` is the type the selector's value is assigned to (a function's
// parameter), or null at the top level.
[[nodiscard]] SelectorFactoryPtr PrepareSelector(const cql::Selector& selector,
                                                 const types::TypePtr& expected,
                                                 SelectorPreparation& preparation);

}  // namespace sibyl::query
