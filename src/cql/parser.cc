#include "cql/parser.h"

#include "cql/admin_parsers.h"
#include "cql/ddl_parsers.h"
#include "cql/dml_parser.h"
#include "cql/lexer.h"
#include "cql/name_parser.h"
#include "cql/parse_context.h"
#include "cql/select_parser.h"

namespace sibyl::cql {

using parser_internal::ParseContext;

namespace {

// cqlStatement: the statement, chosen by its leading keywords.
Statement ParseCqlStatement(ParseContext& ctx) {
  using namespace parser_internal;
  switch (ctx.LA(1)) {
    case TokenType::kKwSelect:
      return ParseSelectStatement(ctx);
    case TokenType::kKwInsert:
      return ParseInsertStatement(ctx);
    case TokenType::kKwUpdate:
      return ParseUpdateStatement(ctx);
    case TokenType::kKwDelete:
      return ParseDeleteStatement(ctx);
    case TokenType::kKwBegin:
      return ParseBatchStatement(ctx);
    case TokenType::kKwUse:
      ctx.Consume();
      return UseStatement{ParseKeyspaceName(ctx)};
    case TokenType::kKwTruncate:
      return ParseTruncateStatement(ctx);
    case TokenType::kKwCreate:
      return ParseCreateStatement(ctx);
    case TokenType::kKwAlter:
      return ParseAlterStatement(ctx);
    case TokenType::kKwDrop:
      return ParseDropStatement(ctx);
    case TokenType::kKwGrant:
      return ParseGrantStatement(ctx);
    case TokenType::kKwRevoke:
      return ParseRevokeStatement(ctx);
    case TokenType::kKwList:
      return ParseListStatement(ctx);
    case TokenType::kKwDescribe:
    case TokenType::kKwDesc:
      return ParseDescribeStatement(ctx);
    default:
      ctx.NoViableAlt(1);
  }
}

}  // namespace

ParsedStatement ParseStatement(std::string_view query) {
  TokenList tokens = Tokenize(query);
  ParseContext ctx(query, tokens);
  ParsedStatement parsed{ParseCqlStatement(ctx), 0, {}};
  // query: cqlStatement (';')* EOF
  while (ctx.LA(1) == TokenType::kSemicolon) ctx.Consume();
  if (ctx.LA(1) != TokenType::kEof) ctx.Mismatch(TokenType::kEof);
  ctx.Finish();
  parsed.bind_marker_count = ctx.bind_marker_count();
  parsed.bind_marker_names = ctx.TakeBindMarkerNames();
  return parsed;
}

}  // namespace sibyl::cql
