#pragma once
// Internal to the parser: terms, the values written in statements (Parser.g's
// term, simpleTerm, value, constant, the collection/tuple/UDT literals,
// function calls, bind markers, intValue).

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// Tokens that are a constant on their own (Parser.g's constant).
[[nodiscard]] bool IsConstantToken(TokenType type);

// term: arithmetic over simple terms.
Term ParseTerm(ParseContext& ctx);
// constant. REQUIRES: IsConstantToken(ctx.LA(1)).
Term ParseConstant(ParseContext& ctx);
// `?` or `:name`. REQUIRES: LA(1) is '?' or ':'.
Term ParseBindMarker(ParseContext& ctx);
// tupleLiteral: '(' term (',' term)* ')'.
Term ParseTupleLiteral(ParseContext& ctx);
// intValue: INTEGER, `?` or `:name` (LIMIT and PER PARTITION LIMIT).
Term ParseIntValue(ParseContext& ctx);
// True when `type` can begin a simple term (and so a selection group too):
// what may follow the ')' of a type hint.
bool CanStartSimpleTerm(TokenType type);

}  // namespace sibyl::cql::parser_internal
