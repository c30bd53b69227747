// CREATE / ALTER / DROP TYPE (Parser.g's createTypeStatement, typeColumns,
// alterTypeStatement, dropTypeStatement, userTypeName).

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// typeColumns: fident comparatorType.
FieldDefinition ParseField(ParseContext& ctx) {
  FieldDefinition field;
  field.name = ParseIdent(ctx);
  field.type = ParseComparatorType(ctx);
  return field;
}

}  // namespace

QualifiedName ParseUserTypeName(ParseContext& ctx) {
  QualifiedName name;
  if (ctx.LA(2) == TokenType::kDot) {
    name.keyspace = ParseIdent(ctx);
    ctx.Consume();  // '.'
  }
  name.name = ParseNonTypeIdent(ctx);
  return name;
}

CreateTypeStatement ParseCreateType(ParseContext& ctx) {
  CreateTypeStatement statement;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwType);
  statement.if_not_exists = ParseIfNotExists(ctx);
  statement.type = ParseUserTypeName(ctx);
  // '(' typeColumns (',' typeColumns?)* ')'
  ctx.Match(TokenType::kLParen);
  statement.fields.push_back(ParseField(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    if (IsIdentToken(ctx.LA(1))) statement.fields.push_back(ParseField(ctx));
  }
  ctx.Match(TokenType::kRParen);
  return statement;
}

AlterTypeStatement ParseAlterType(ParseContext& ctx) {
  AlterTypeStatement statement;
  ctx.Consume();  // ALTER
  ctx.Match(TokenType::kKwType);
  statement.if_exists = ParseIfExists(ctx);
  statement.type = ParseUserTypeName(ctx);
  switch (ctx.LA(1)) {
    case TokenType::kKwAlter:
      ctx.Consume();
      statement.kind = AlterTypeStatement::Kind::kAlterFieldType;
      statement.field.name = ParseIdent(ctx);
      ctx.Match(TokenType::kKwType);
      statement.field.type = ParseComparatorType(ctx);
      break;
    case TokenType::kKwAdd:
      ctx.Consume();
      statement.kind = AlterTypeStatement::Kind::kAddField;
      statement.if_field_not_exists = ParseIfNotExists(ctx);
      statement.field = ParseField(ctx);
      break;
    case TokenType::kKwRename:
      ctx.Consume();
      statement.kind = AlterTypeStatement::Kind::kRenameFields;
      statement.if_field_exists = ParseIfExists(ctx);
      while (true) {
        std::string from = ParseIdent(ctx);
        ctx.Match(TokenType::kKwTo);
        statement.renames.emplace_back(std::move(from), ParseIdent(ctx));
        if (ctx.LA(1) != TokenType::kKwAnd) break;
        ctx.Consume();
      }
      break;
    default:
      ctx.NoViableAlt(1);
  }
  return statement;
}

DropTypeStatement ParseDropType(ParseContext& ctx) {
  DropTypeStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwType);
  statement.if_exists = ParseIfExists(ctx);
  statement.type = ParseUserTypeName(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
