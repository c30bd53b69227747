// CREATE [CUSTOM] INDEX, DROP INDEX, CREATE TRIGGER, DROP TRIGGER (Parser.g's
// createIndexStatement, indexIdent, dropIndexStatement, createTriggerStatement,
// dropTriggerStatement): the statements that hang an object off a table.

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/option_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// indexIdent: c | VALUES(c) | KEYS(c) | ENTRIES(c) | FULL(c). `values` and
// `keys` are column names too unless a '(' follows.
IndexTarget ParseIndexTarget(ParseContext& ctx) {
  IndexTarget target;
  TokenType first = ctx.LA(1);
  bool call = ctx.LA(2) == TokenType::kLParen;
  if (first == TokenType::kKwValues && call) {
    target.kind = IndexTarget::Kind::kValues;
  } else if (first == TokenType::kKwKeys && call) {
    target.kind = IndexTarget::Kind::kKeys;
  } else if (first == TokenType::kKwEntries) {
    target.kind = IndexTarget::Kind::kEntries;
  } else if (first == TokenType::kKwFull) {
    target.kind = IndexTarget::Kind::kFull;
  } else if (IsCidentToken(first)) {
    target.column = ParseCident(ctx);
    return target;
  } else {
    ctx.NoViableAlt(1);
  }
  ctx.Consume();
  ctx.Match(TokenType::kLParen);
  target.column = ParseCident(ctx);
  ctx.Match(TokenType::kRParen);
  return target;
}

bool StartsIndexTarget(TokenType type) {
  return IsCidentToken(type) || type == TokenType::kKwEntries || type == TokenType::kKwFull;
}

}  // namespace

CreateIndexStatement ParseCreateIndex(ParseContext& ctx) {
  CreateIndexStatement statement;
  ctx.Consume();  // CREATE
  if (ctx.LA(1) == TokenType::kKwCustom) {
    ctx.Consume();
    statement.custom = true;
  }
  ctx.Match(TokenType::kKwIndex);
  statement.if_not_exists = ParseIfNotExists(ctx);
  if (IsIdentToken(ctx.LA(1)) || ctx.LA(1) == TokenType::kQmark) {
    statement.index_name = ParseIndexName(ctx);
  }
  ctx.Match(TokenType::kKwOn);
  statement.table = ParseColumnFamilyName(ctx);
  ctx.Match(TokenType::kLParen);
  if (StartsIndexTarget(ctx.LA(1))) {
    statement.targets.push_back(ParseIndexTarget(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      statement.targets.push_back(ParseIndexTarget(ctx));
    }
  }
  ctx.Match(TokenType::kRParen);
  if (ctx.LA(1) == TokenType::kKwUsing) {
    ctx.Consume();
    statement.custom_class = std::string(ctx.Match(TokenType::kStringLiteral).text);
  }
  if (ctx.LA(1) == TokenType::kKwWith) {
    ctx.Consume();
    statement.options = ParseProperties(ctx);
  }
  return statement;
}

DropIndexStatement ParseDropIndex(ParseContext& ctx) {
  DropIndexStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwIndex);
  statement.if_exists = ParseIfExists(ctx);
  // indexName: (ksName '.')? idxName
  if ((IsIdentToken(ctx.LA(1)) || ctx.LA(1) == TokenType::kQmark) && ctx.LA(2) == TokenType::kDot) {
    statement.index.keyspace = ParseKeyspaceName(ctx);
    ctx.Consume();  // '.'
  }
  statement.index.name = ParseIndexName(ctx);
  return statement;
}

CreateTriggerStatement ParseCreateTrigger(ParseContext& ctx) {
  CreateTriggerStatement statement;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwTrigger);
  statement.if_not_exists = ParseIfNotExists(ctx);
  statement.trigger = ParseIdent(ctx);
  ctx.Match(TokenType::kKwOn);
  statement.table = ParseColumnFamilyName(ctx);
  ctx.Match(TokenType::kKwUsing);
  statement.trigger_class = std::string(ctx.Match(TokenType::kStringLiteral).text);
  return statement;
}

DropTriggerStatement ParseDropTrigger(ParseContext& ctx) {
  DropTriggerStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwTrigger);
  statement.if_exists = ParseIfExists(ctx);
  statement.trigger = ParseIdent(ctx);
  ctx.Match(TokenType::kKwOn);
  statement.table = ParseColumnFamilyName(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
