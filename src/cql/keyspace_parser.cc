// CREATE / ALTER / DROP KEYSPACE (Parser.g's createKeyspaceStatement,
// alterKeyspaceStatement, dropKeyspaceStatement).

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/option_parser.h"

namespace sibyl::cql::parser_internal {

CreateKeyspaceStatement ParseCreateKeyspace(ParseContext& ctx) {
  CreateKeyspaceStatement statement;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwKeyspace);
  statement.if_not_exists = ParseIfNotExists(ctx);
  statement.keyspace = ParseKeyspaceName(ctx);
  ctx.Match(TokenType::kKwWith);
  statement.options = ParseProperties(ctx);
  return statement;
}

AlterKeyspaceStatement ParseAlterKeyspace(ParseContext& ctx) {
  AlterKeyspaceStatement statement;
  ctx.Consume();  // ALTER
  ctx.Match(TokenType::kKwKeyspace);
  statement.if_exists = ParseIfExists(ctx);
  statement.keyspace = ParseKeyspaceName(ctx);
  ctx.Match(TokenType::kKwWith);
  statement.options = ParseProperties(ctx);
  return statement;
}

DropKeyspaceStatement ParseDropKeyspace(ParseContext& ctx) {
  DropKeyspaceStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwKeyspace);
  statement.if_exists = ParseIfExists(ctx);
  statement.keyspace = ParseKeyspaceName(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
