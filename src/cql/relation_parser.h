#pragma once
// Internal to the parser: WHERE clauses (Parser.g's whereClause, relation,
// customIndexExpression and their helpers).

#include <vector>

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// whereClause: relationOrExpression (AND relationOrExpression)*.
std::vector<Relation> ParseWhereClause(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
