#pragma once
// Internal to the parser: SELECT statements (Parser.g's selectStatement).

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// REQUIRES: LA(1) is SELECT.
SelectStatement ParseSelectStatement(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
