#pragma once
// CQL text → ParsedStatement.

#include <string_view>

#include "cql/ast.h"

namespace sibyl::cql {

// Parses exactly one statement (an optional trailing ';' is allowed). Throws
// CqlError(kSyntaxError) with Cassandra's wording, e.g.
//   line 1:7 no viable alternative at input 'FRM' (SELECT * [FRM]...)
// naming the line, column and the offending input.
ParsedStatement ParseStatement(std::string_view query);

}  // namespace sibyl::cql
