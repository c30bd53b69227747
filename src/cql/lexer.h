#pragma once
// CQL text → tokens, as Cassandra 4.1's ANTLR 3 lexer (src/antlr/Lexer.g)
// splits it, including the ANTLR quirks users can observe:
//
//  - A token is chosen the way ANTLR's prediction DFA chooses it: the lexer
//    keeps reading while several token rules can still match, commits to a
//    rule as soon as it is the only one left, and that rule then has to
//    finish. So `1..2` is INTEGER RANGE INTEGER (the FLOAT rule's predicates),
//    `1h30m` is one DURATION, and `-nx` is a lexing error (only -NaN starts so).
//  - `--` and `//` comments need a line end: at the end of input they are an
//    error ("mismatched character '<EOF>' expecting set null").
//  - An unterminated $$ string fails at its last character, not at the end.
//  - Unquoted words are matched case-insensitively against the keywords;
//    `schema` is K_SCHEMA (never K_KEYSPACE), `table` is K_COLUMNFAMILY.
//
// Lexing stops at the first error. Cassandra keeps lexing after an error, but
// only its first error is ever reported, and that one is reported as soon as
// the parser asks for the token after the bad input; the error carries that
// token's index so the parser can tell which error Cassandra reports first.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/lexer_token.h"

namespace sibyl::cql {

// A lexing error: ANTLR's message for the lexer (without the "line l:c"
// header) and where it happened.
struct LexError {
  std::string message;  // e.g. "no viable alternative at character '@'"
  int line = 1;
  int column = 0;
  // Index into TokenList::tokens of the token the parser was fetching when
  // Cassandra reported the error (the end-of-input token that follows the
  // tokens lexed before the error).
  size_t token_index = 0;
};

// The tokens of one query, hidden ones included, ending with an end-of-input
// token. Token texts may point into the list's own storage, so a TokenList is
// move-only and tokens must not outlive it (nor the query text).
class TokenList {
 public:
  TokenList() = default;
  TokenList(TokenList&&) = default;
  TokenList& operator=(TokenList&&) = default;
  TokenList(const TokenList&) = delete;
  TokenList& operator=(const TokenList&) = delete;

  std::vector<Token> tokens;
  std::optional<LexError> error;

  // Keeps an unescaped token text alive; returns a view of it.
  std::string_view Own(std::string text);

 private:
  // Unescaped texts (rare: only literals with doubled quotes), each in its own
  // allocation so that views stay valid as the list grows and moves.
  std::vector<std::unique_ptr<std::string>> owned_texts_;
};

// Splits `query` into tokens. Never throws for any input bytes; errors are
// reported in TokenList::error.
[[nodiscard]] TokenList Tokenize(std::string_view query);

}  // namespace sibyl::cql
