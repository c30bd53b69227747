#pragma once
// Internal to the parser: INSERT, UPDATE, DELETE, BATCH and TRUNCATE
// (Parser.g's insertStatement, updateStatement, deleteStatement,
// batchStatement, truncateStatement and their clauses). Each REQUIRES that
// LA(1) is the statement's first keyword.

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

InsertStatement ParseInsertStatement(ParseContext& ctx);
UpdateStatement ParseUpdateStatement(ParseContext& ctx);
DeleteStatement ParseDeleteStatement(ParseContext& ctx);
BatchStatement ParseBatchStatement(ParseContext& ctx);
TruncateStatement ParseTruncateStatement(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
