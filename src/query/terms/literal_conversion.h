#pragma once
// Converts a literal written in a query (cql::Term) to the serialized value
// of the type that receives it, with Cassandra's messages when it does not
// fit, e.g.
//   Invalid STRING constant (foo) for "k" of type int
//   Invalid list literal for argument_types of type text
//   Unable to make int from '99999999999'
// `receiver` is how Cassandra names the receiver: a column, or `value(c)` /
// `key(c)` for the elements of a collection literal.

#include <string_view>

#include "common/bytes.h"
#include "cql/ast.h"
#include "types/cql_type.h"
#include "types/literal.h"

namespace sibyl::query {

// REQUIRES: term is not a bind marker and not kNull (callers handle both).
// Throws CqlError(kInvalid) when the literal cannot be a value of `type`,
// naming the literal kinds and types Sibyl does not convert yet. A marker
// inside the literal is a types::Literal kUnset: refused inside a list, set
// or map as Cassandra refuses it ("Invalid list literal for l: bind
// variables are not supported inside collection literals"); literals whose
// markers are bound per request are PrepareTerm's (term.h).
[[nodiscard]] Bytes ConvertLiteral(const cql::Term& term, std::string_view receiver,
                                   const types::CqlType& type);

// The term as the type layer's literal (for assignment tests, e.g. of a
// function argument): a marker is kUnset with the marker's text (? or
// :name), which fits any receiver. Throws CqlError(kInvalid) for function
// calls, type hints and arithmetic.
[[nodiscard]] types::Literal ToTypesLiteral(const cql::Term& term);

}  // namespace sibyl::query
