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
// naming the literal kinds and types Sibyl does not convert yet.
[[nodiscard]] Bytes ConvertLiteral(const cql::Term& term, std::string_view receiver,
                                   const types::CqlType& type);

// The term as the type layer's literal (for assignment tests, e.g. of a
// function argument). Throws CqlError(kInvalid) for the kinds above.
[[nodiscard]] types::Literal ToTypesLiteral(const cql::Term& term);

}  // namespace sibyl::query
