#pragma once
// Cassandra's SyntaxException messages, built as its ErrorCollector builds
// them from ANTLR's errors:
//
//   line 1:9 mismatched input 'FRM' expecting K_FROM (SELECT * [FRM]...)
//
// The header names the line and column of the token ANTLR reports (for the
// end of input, which has no position in Cassandra, "line 0:-1"). Parser
// errors get a snippet: the tokens from ten before the parser's current
// position to two after it (hidden whitespace and comments count, and only
// tokens the parser has already fetched can be shown), the token at the
// current position in brackets, "..." where the query goes on. Lexer errors
// and errors raised from grammar actions ("Bind variables cannot be used for
// table names") have no snippet.

#include <cstddef>
#include <string>
#include <string_view>

#include "cql/lexer.h"

namespace sibyl::cql {

// A parser error as ANTLR reports it.
struct ParserErrorSite {
  std::string message;   // "mismatched input 'FRM' expecting K_FROM", "no viable alternative ..."
  size_t error_token;    // the exception's token (the header's position)
  size_t stream_index;   // the token stream position at report time (the bracketed token)
  size_t fetched_count;  // how many tokens the stream had fetched from the lexer
};

// getTokenErrorDisplay: the token text in single quotes, with \n \r \t
// escaped; '<EOF>' for the end of input.
[[nodiscard]] std::string TokenDisplay(const Token& token);

[[nodiscard]] std::string FormatParserError(std::string_view query, const TokenList& tokens,
                                            const ParserErrorSite& site);

[[nodiscard]] std::string FormatLexerError(const LexError& error);

}  // namespace sibyl::cql
