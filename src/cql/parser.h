#pragma once
// CQL text → ParsedStatement.
//
// SELECT and USE are parsed in full. Every other statement of the CQL 3
// grammar is recognized by its leading keywords and returned as a
// PendingStatement naming it ("INSERT", "CREATE TABLE", "BATCH", ...); the
// rest of its text is lexed (so bad input anywhere is still a syntax error)
// and its bind markers are counted.
//
// The parser is recursive descent, one file per grammar family, following
// Cassandra 4.1's Parser.g rule by rule: parse_context (token stream and
// errors), name_parser, type_parser, term_parser, selector_parser,
// relation_parser, select_parser, pending_statement_parser.

#include <string_view>

#include "cql/ast.h"

namespace sibyl::cql {

// Parses exactly one statement (any number of trailing ';' are allowed).
// Throws CqlError(kSyntaxError) with Cassandra's wording, e.g.
//   line 1:9 mismatched input 'FRM' expecting K_FROM (SELECT * [FRM]...)
//   line 1:5 no viable alternative at input 'eomployee_info' ([drop] eomployee_info...)
//   line 0:-1 no viable alternative at input '<EOF>'          (an empty query)
//   line 1:15 mismatched character '<EOF>' expecting set null (a -- comment at the end)
//   Bind variables cannot be used for table names
// naming the line, column and the offending input (see syntax_error.h).
// Never throws anything else, whatever the bytes.
[[nodiscard]] ParsedStatement ParseStatement(std::string_view query);

}  // namespace sibyl::cql
