#pragma once
// Internal to the parser: the select clause (Parser.g's selectors, selector,
// unaliasedSelector and the selection* rules of Cassandra 4.1).

#include <vector>

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// selectors: '*' (sets `star`, returns nothing) or selector (',' selector)*.
std::vector<Selector> ParseSelectors(ParseContext& ctx, bool& star);

// unaliasedSelector.
Selector ParseUnaliasedSelector(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
