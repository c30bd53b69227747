#pragma once
// Internal to the parser: the statements Sibyl recognizes but does not parse
// in full yet. Their leading keywords are checked as Cassandra's grammar
// checks them (so `CREATE FOO` fails as it does there), the rest is only
// tokenized, and bind markers are counted.

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// Whether a statement can start with this token (other than SELECT and USE).
[[nodiscard]] bool StartsPendingStatement(TokenType type);

// REQUIRES: StartsPendingStatement(ctx.LA(1)). Consumes up to the end of input.
PendingStatement ParsePendingStatement(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
