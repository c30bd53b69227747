// CREATE ..., ALTER ..., DROP ...: which statement, chosen by the leading
// keywords as the prediction of Parser.g's cqlStatement chooses it (so that
// `CREATE FOO` fails at FOO, `CREATE OR FOO` at FOO).

#include "cql/ddl_parsers.h"

namespace sibyl::cql::parser_internal {

Statement ParseCreateStatement(ParseContext& ctx) {
  switch (ctx.LA(2)) {
    case TokenType::kKwKeyspace:
      return ParseCreateKeyspace(ctx);
    case TokenType::kKwColumnFamily:
      return ParseCreateTable(ctx);
    case TokenType::kKwIndex:
    case TokenType::kKwCustom:
      return ParseCreateIndex(ctx);
    case TokenType::kKwType:
      return ParseCreateType(ctx);
    case TokenType::kKwTrigger:
      return ParseCreateTrigger(ctx);
    case TokenType::kKwRole:
      return ParseCreateRole(ctx);
    case TokenType::kKwUser:
      return ParseCreateUser(ctx);
    case TokenType::kKwFunction:
      return ParseCreateFunction(ctx);
    case TokenType::kKwAggregate:
      return ParseCreateAggregate(ctx);
    case TokenType::kKwMaterialized:
      return ParseCreateView(ctx);
    case TokenType::kKwOr:
      // CREATE OR REPLACE FUNCTION | AGGREGATE
      if (ctx.LA(3) != TokenType::kKwReplace) ctx.NoViableAlt(3);
      if (ctx.LA(4) == TokenType::kKwFunction) return ParseCreateFunction(ctx);
      if (ctx.LA(4) == TokenType::kKwAggregate) return ParseCreateAggregate(ctx);
      ctx.NoViableAlt(4);
    default:
      ctx.NoViableAlt(2);
  }
}

Statement ParseAlterStatement(ParseContext& ctx) {
  switch (ctx.LA(2)) {
    case TokenType::kKwKeyspace:
      return ParseAlterKeyspace(ctx);
    case TokenType::kKwColumnFamily:
      return ParseAlterTable(ctx);
    case TokenType::kKwType:
      return ParseAlterType(ctx);
    case TokenType::kKwRole:
      return ParseAlterRole(ctx);
    case TokenType::kKwUser:
      return ParseAlterUser(ctx);
    case TokenType::kKwMaterialized:
      return ParseAlterView(ctx);
    default:
      ctx.NoViableAlt(2);
  }
}

Statement ParseDropStatement(ParseContext& ctx) {
  switch (ctx.LA(2)) {
    case TokenType::kKwKeyspace:
      return ParseDropKeyspace(ctx);
    case TokenType::kKwColumnFamily:
      return ParseDropTable(ctx);
    case TokenType::kKwIndex:
      return ParseDropIndex(ctx);
    case TokenType::kKwType:
      return ParseDropType(ctx);
    case TokenType::kKwFunction:
      return ParseDropFunction(ctx);
    case TokenType::kKwAggregate:
      return ParseDropAggregate(ctx);
    case TokenType::kKwTrigger:
      return ParseDropTrigger(ctx);
    case TokenType::kKwRole:
      return ParseDropRole(ctx);
    case TokenType::kKwUser:
      return ParseDropUser(ctx);
    case TokenType::kKwMaterialized:
      return ParseDropView(ctx);
    default:
      ctx.NoViableAlt(2);
  }
}

}  // namespace sibyl::cql::parser_internal
