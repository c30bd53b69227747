#pragma once
// A term of a prepared statement: a literal already converted to the type
// that receives it, null, a bind marker whose value each request brings, a
// function call (now(), toTimestamp(now()), uuid(), an arithmetic
// operation such as `? + 1`) evaluated when the request binds its values,
// or a collection, tuple or UDT literal holding markers or calls, whose
// value is built when the request binds its elements (Cassandra's
// Tuples/UserTypes/Lists/Sets/Maps.DelayedValue).

#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "cql/ast.h"
#include "query/functions/function_definition.h"
#include "query/terms/bind_variables.h"
#include "types/cql_type.h"
#include "types/literal.h"

namespace sibyl::query {

struct PreparedTerm {
  enum class Kind { kNull, kConstant, kMarker, kFunction, kLiteral };
  Kind kind = Kind::kNull;
  Bytes constant;                       // kConstant: the serialized value
  int marker = -1;                      // kMarker: the marker's index
  types::TypePtr type;                  // the receiver's type, to validate bound values
  FunctionPtr function;                 // kFunction: a scalar function
  std::vector<PreparedTerm> arguments;  // kFunction: one per parameter; kLiteral: the elements
  // kLiteral: kList (a list or a vector), kSet, kMap (elements alternate
  // key, value), kTuple, or kUdt (one element per field of the type, in
  // its order).
  types::Literal::Kind literal_kind = types::Literal::Kind::kNull;

  // The term's value for one request: a view into the constant, into the
  // request (null, unset or bytes) or, for a function call or a literal
  // with bound elements, into the value `values` keeps (BoundValues::Keep).
  // A bound value is validated against the type, throwing
  // CqlError(kInvalid) with Cassandra's message if it does not fit. A
  // function call throws "Invalid unset value for argument in call to
  // function now" for an unset argument, and whatever the function throws
  // (function_definition.h). A literal throws as its DelayedValue does:
  //   null is not supported inside collections          (list, set, map)
  //   null is not supported inside vectors
  //   Invalid unset value for tuple field number 0
  //   Invalid unset value for field 'a' of user defined type pair   (frozen)
  [[nodiscard]] Value Bind(const BoundValues& values) const;
};

// Prepares `term` for a receiver named `receiver` of type `type`, recording
// the spec of a marker in `binds` (a marker passed to a function is named
// after the parameter: arg0(system.totimestamp); one inside a tuple literal
// after the component, t[0]; inside a UDT literal after the field, u.a).
// A collection, tuple or UDT literal with markers or calls inside is
// prepared as Cassandra's Literal.prepare does: the literal's assignment
// test first, then each element for its receiver (value(l), key(m),
// value(m), t[i], u.f), and a list, set or map (or vector) refuses an
// element holding a marker:
//   Invalid list literal for l: bind variables are not supported inside collection literals
//   Invalid vector literal for v: bind variables are not supported inside vector literals
// Function calls resolve as FunctionCall.Raw.prepare does, throwing
// CqlError(kInvalid) with its messages, among them:
//   Unknown function foo called
//   Type error: cannot assign result of function system.now (type timeuuid) to k (type int)
//   Type error: cannot assign result of operation + (type int) to k (type text)
//   Aggregation function are not supported in the where clause
// Type hints: "Cannot cast value 'a' to type int", "Cannot assign value
// (int)1 to k of type text".
[[nodiscard]] PreparedTerm PrepareTerm(const cql::Term& term, std::string_view receiver,
                                       types::TypePtr type, BindSpecCollector& binds);

// The term as Cassandra writes it in messages and selection column names
// (Term.Raw.getText): 'a', 1, ?, :name, now(), (int)?.
[[nodiscard]] std::string TermText(const cql::Term& term);

}  // namespace sibyl::query
