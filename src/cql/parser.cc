#include "cql/parser.h"

#include "cql/lexer.h"
#include "cql/name_parser.h"
#include "cql/parse_context.h"
#include "cql/pending_statement_parser.h"
#include "cql/select_parser.h"

namespace sibyl::cql {

using parser_internal::ParseContext;

namespace {

// cqlStatement: the statement, chosen by its leading keywords.
Statement ParseCqlStatement(ParseContext& ctx) {
  TokenType first = ctx.LA(1);
  if (first == TokenType::kKwSelect) return parser_internal::ParseSelectStatement(ctx);
  if (first == TokenType::kKwUse) {
    ctx.Consume();
    return UseStatement{parser_internal::ParseKeyspaceName(ctx)};
  }
  if (parser_internal::StartsPendingStatement(first)) {
    return parser_internal::ParsePendingStatement(ctx);
  }
  ctx.NoViableAlt(1);
}

}  // namespace

ParsedStatement ParseStatement(std::string_view query) {
  TokenList tokens = Tokenize(query);
  ParseContext ctx(query, tokens);
  ParsedStatement parsed;
  parsed.statement = ParseCqlStatement(ctx);
  // query: cqlStatement (';')* EOF
  while (ctx.LA(1) == TokenType::kSemicolon) ctx.Consume();
  if (ctx.LA(1) != TokenType::kEof) ctx.Mismatch(TokenType::kEof);
  ctx.Finish();
  parsed.bind_marker_count = ctx.bind_marker_count();
  parsed.bind_marker_names = ctx.TakeBindMarkerNames();
  return parsed;
}

}  // namespace sibyl::cql
