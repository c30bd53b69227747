#pragma once
// Internal to the parser: CQL types as written in statements (Parser.g's
// comparatorType, native_type), returned as their canonical CQL spelling:
// lower-case keywords, "map<text, int>", "frozen<list<int>>",
// "tuple<int, text>", "vector<float, 3>", user types as [ks.]name with
// quotes where needed, custom types as a quoted class name. The spelling is
// what types::ParseCqlType reads back when the statement is prepared.

#include <string>

#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// Whether a type can start with this token (for deciding between a type
// hint and a parenthesized term).
[[nodiscard]] bool CanStartType(TokenType type);

std::string ParseComparatorType(ParseContext& ctx);
// non_type_ident: a user type's own name (native type names excluded,
// Parser.g's reservedTypeNames reported).
std::string ParseNonTypeIdent(ParseContext& ctx);
std::string ParseNativeType(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
