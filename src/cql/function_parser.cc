// CREATE / DROP FUNCTION and AGGREGATE (Parser.g's createFunctionStatement,
// dropFunctionStatement, createAggregateStatement, dropAggregateStatement).

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/term_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// CREATE [OR REPLACE]: consumes CREATE and the optional OR REPLACE.
bool ParseCreateOrReplace(ParseContext& ctx) {
  ctx.Consume();  // CREATE
  if (ctx.LA(1) != TokenType::kKwOr) return false;
  ctx.Consume();
  ctx.Match(TokenType::kKwReplace);
  return true;
}

// allowedFunctionName: a function name without keyspace.
std::string ParseAllowedFunctionName(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  if (!IsFunctionNameToken(token.type)) ctx.NoViableAlt(1);
  ctx.Consume();
  return NameText(token);
}

}  // namespace

CreateFunctionStatement ParseCreateFunction(ParseContext& ctx) {
  CreateFunctionStatement function;
  function.or_replace = ParseCreateOrReplace(ctx);
  ctx.Match(TokenType::kKwFunction);
  function.if_not_exists = ParseIfNotExists(ctx);
  function.function = ParseQualifiedFunctionName(ctx);
  ctx.Match(TokenType::kLParen);
  if (ctx.LA(1) != TokenType::kRParen) {
    while (true) {
      FieldDefinition argument;
      argument.name = ParseIdent(ctx);
      argument.type = ParseComparatorType(ctx);
      function.arguments.push_back(std::move(argument));
      if (ctx.LA(1) != TokenType::kComma) break;
      ctx.Consume();
    }
  }
  ctx.Match(TokenType::kRParen);
  // (RETURNS NULL | CALLED) ON NULL INPUT
  if (ctx.LA(1) == TokenType::kKwReturns) {
    ctx.Consume();
    ctx.Match(TokenType::kKwNull);
  } else if (ctx.LA(1) == TokenType::kKwCalled) {
    ctx.Consume();
    function.called_on_null_input = true;
  } else {
    ctx.NoViableAlt(1);
  }
  ctx.Match(TokenType::kKwOn);
  ctx.Match(TokenType::kKwNull);
  ctx.Match(TokenType::kKwInput);
  ctx.Match(TokenType::kKwReturns);
  function.return_type = ParseComparatorType(ctx);
  ctx.Match(TokenType::kKwLanguage);
  function.language = NameText(ctx.Match(TokenType::kIdent));
  ctx.Match(TokenType::kKwAs);
  function.body = std::string(ctx.Match(TokenType::kStringLiteral).text);
  return function;
}

DropFunctionStatement ParseDropFunction(ParseContext& ctx) {
  DropFunctionStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwFunction);
  statement.if_exists = ParseIfExists(ctx);
  statement.function = ParseQualifiedFunctionName(ctx);
  if (ctx.LA(1) == TokenType::kLParen) {
    statement.arguments_specified = true;
    statement.argument_types = ParseTypeList(ctx);
  }
  return statement;
}

CreateAggregateStatement ParseCreateAggregate(ParseContext& ctx) {
  CreateAggregateStatement aggregate;
  aggregate.or_replace = ParseCreateOrReplace(ctx);
  ctx.Match(TokenType::kKwAggregate);
  aggregate.if_not_exists = ParseIfNotExists(ctx);
  aggregate.aggregate = ParseQualifiedFunctionName(ctx);
  aggregate.argument_types = ParseTypeList(ctx);
  ctx.Match(TokenType::kKwSfunc);
  aggregate.state_function = ParseAllowedFunctionName(ctx);
  ctx.Match(TokenType::kKwStype);
  aggregate.state_type = ParseComparatorType(ctx);
  if (ctx.LA(1) == TokenType::kKwFinalfunc) {
    ctx.Consume();
    aggregate.final_function = ParseAllowedFunctionName(ctx);
  }
  if (ctx.LA(1) == TokenType::kKwInitcond) {
    ctx.Consume();
    aggregate.initial_condition = ParseTerm(ctx);
  }
  return aggregate;
}

DropAggregateStatement ParseDropAggregate(ParseContext& ctx) {
  DropAggregateStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwAggregate);
  statement.if_exists = ParseIfExists(ctx);
  statement.aggregate = ParseQualifiedFunctionName(ctx);
  if (ctx.LA(1) == TokenType::kLParen) {
    statement.arguments_specified = true;
    statement.argument_types = ParseTypeList(ctx);
  }
  return statement;
}

}  // namespace sibyl::cql::parser_internal
