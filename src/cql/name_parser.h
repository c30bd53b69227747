#pragma once
// Internal to the parser: names (Parser.g's ident, cident, noncol_ident,
// fident, sident, ksName, cfName, idxName, columnFamilyName, functionName,
// userTypeName). Unquoted names are lower-cased, quoted names keep their case.

#include <string>

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// IDENT, QUOTED_NAME or an unreserved keyword: what ident accepts.
[[nodiscard]] bool IsIdentToken(TokenType type);
// What allowedFunctionName accepts: IDENT, QUOTED_NAME, an unreserved
// function keyword, TOKEN, COUNT.
[[nodiscard]] bool IsFunctionNameToken(TokenType type);

// What cident accepts: an ident token or the empty quoted name.
[[nodiscard]] bool IsCidentToken(TokenType type);

// ident / noncol_ident / fident / sident (they accept the same tokens).
std::string ParseIdent(ParseContext& ctx);
// cident: ident, or "" for the empty quoted name.
std::string ParseCident(ParseContext& ctx);

// ksName / cfName / idxName: ident, where a bind marker is an error.
std::string ParseKeyspaceName(ParseContext& ctx);
std::string ParseTableName(ParseContext& ctx);
std::string ParseIndexName(ParseContext& ctx);

// columnFamilyName: [keyspace '.'] table.
QualifiedName ParseColumnFamilyName(ParseContext& ctx);

// The normalized text of a name token already known to be one.
std::string NameText(const Token& token);

// 0 when the tokens ahead start a function call (functionName '('), else
// the lookahead depth (1-based) at which that stops being possible.
[[nodiscard]] int FunctionCallMismatchDepth(ParseContext& ctx);

// functionName: [keyspace '.'] allowedFunctionName. Sets `keyspace` (empty
// when none) and returns the name.
std::string ParseFunctionName(ParseContext& ctx, std::string& keyspace);
// functionName as a QualifiedName (no keyspace when none is written).
QualifiedName ParseQualifiedFunctionName(ParseContext& ctx);

// A name as CQL text: bare when it is [a-z][a-z0-9_]* and not a reserved
// keyword, else double-quoted.
std::string QuoteName(std::string_view name);

}  // namespace sibyl::cql::parser_internal
