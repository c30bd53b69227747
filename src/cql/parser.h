#pragma once
// CQL text → ParsedStatement: every statement of Cassandra 4.1's CQL 3
// grammar (plus 5.0's vector type), parsed into the typed AST of ast.h.
//
// The parser is recursive descent, one file per grammar family, following
// Cassandra 4.1's Parser.g rule by rule: parse_context (token stream and
// errors), name_parser, type_parser, term_parser, selector_parser,
// relation_parser, select_parser, dml_parser (INSERT, UPDATE, DELETE, BATCH,
// TRUNCATE), option_parser and clause_parser (shared DDL clauses),
// ddl_dispatch with keyspace_, table_, user_type_, index_, view_, function_
// and role_parser, permission_parser and describe_parser.

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
// Like Cassandra, a few checks made while parsing throw
// CqlError(kInvalid) instead ("Duplicate column 'a' declaration for table
// 't'", "Multiple PRIMARY KEY specified for table 't' (exactly one
// required)", "Duplicate column 'c' in CLUSTERING ORDER BY clause for table
// 't'", "In this context function name must be explictly qualified by a
// keyspace"). Never throws anything else, whatever the bytes.
[[nodiscard]] ParsedStatement ParseStatement(std::string_view query);

}  // namespace sibyl::cql
