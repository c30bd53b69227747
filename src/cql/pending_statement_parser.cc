#include "cql/pending_statement_parser.h"

#include <vector>

#include "cql/name_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// Permission keywords of Parser.g's permission rule.
bool IsPermissionKeyword(TokenType type) {
  switch (type) {
    case TokenType::kKwCreate:
    case TokenType::kKwAlter:
    case TokenType::kKwDrop:
    case TokenType::kKwSelect:
    case TokenType::kKwModify:
    case TokenType::kKwAuthorize:
    case TokenType::kKwDescribe:
    case TokenType::kKwExecute:
      return true;
    default:
      return false;
  }
}

// What roleName accepts (a bind marker only to reject it later).
bool IsRoleNameToken(TokenType type) {
  return IsIdentToken(type) || type == TokenType::kStringLiteral || type == TokenType::kQmark;
}

// Consumes `count` tokens already checked by lookahead.
void Skip(ParseContext& ctx, int count) {
  for (int i = 0; i < count; ++i) ctx.Consume();
}

std::string CreateKind(ParseContext& ctx) {
  switch (ctx.LA(2)) {
    case TokenType::kKwKeyspace:
      return "CREATE KEYSPACE";
    case TokenType::kKwColumnFamily:
      return "CREATE TABLE";
    case TokenType::kKwIndex:
      return "CREATE INDEX";
    case TokenType::kKwCustom:
      Skip(ctx, 2);
      ctx.Match(TokenType::kKwIndex);
      return "CREATE INDEX";
    case TokenType::kKwType:
      return "CREATE TYPE";
    case TokenType::kKwTrigger:
      return "CREATE TRIGGER";
    case TokenType::kKwRole:
      return "CREATE ROLE";
    case TokenType::kKwUser:
      return "CREATE USER";
    case TokenType::kKwFunction:
      return "CREATE FUNCTION";
    case TokenType::kKwAggregate:
      return "CREATE AGGREGATE";
    case TokenType::kKwMaterialized:
      Skip(ctx, 2);
      ctx.Match(TokenType::kKwView);
      return "CREATE MATERIALIZED VIEW";
    case TokenType::kKwOr:
      // CREATE OR REPLACE FUNCTION | AGGREGATE
      if (ctx.LA(3) != TokenType::kKwReplace) ctx.NoViableAlt(3);
      if (ctx.LA(4) == TokenType::kKwFunction) return "CREATE FUNCTION";
      if (ctx.LA(4) == TokenType::kKwAggregate) return "CREATE AGGREGATE";
      ctx.NoViableAlt(4);
    default:
      ctx.NoViableAlt(2);
  }
}

std::string AlterKind(ParseContext& ctx) {
  switch (ctx.LA(2)) {
    case TokenType::kKwKeyspace:
      return "ALTER KEYSPACE";
    case TokenType::kKwColumnFamily:
      return "ALTER TABLE";
    case TokenType::kKwType:
      return "ALTER TYPE";
    case TokenType::kKwRole:
      return "ALTER ROLE";
    case TokenType::kKwUser:
      return "ALTER USER";
    case TokenType::kKwMaterialized:
      Skip(ctx, 2);
      ctx.Match(TokenType::kKwView);
      return "ALTER MATERIALIZED VIEW";
    default:
      ctx.NoViableAlt(2);
  }
}

std::string DropKind(ParseContext& ctx) {
  switch (ctx.LA(2)) {
    case TokenType::kKwKeyspace:
      return "DROP KEYSPACE";
    case TokenType::kKwColumnFamily:
      return "DROP TABLE";
    case TokenType::kKwIndex:
      return "DROP INDEX";
    case TokenType::kKwType:
      return "DROP TYPE";
    case TokenType::kKwFunction:
      return "DROP FUNCTION";
    case TokenType::kKwAggregate:
      return "DROP AGGREGATE";
    case TokenType::kKwTrigger:
      return "DROP TRIGGER";
    case TokenType::kKwRole:
      return "DROP ROLE";
    case TokenType::kKwUser:
      return "DROP USER";
    case TokenType::kKwMaterialized:
      Skip(ctx, 2);
      ctx.Match(TokenType::kKwView);
      return "DROP MATERIALIZED VIEW";
    default:
      ctx.NoViableAlt(2);
  }
}

// GRANT / REVOKE: of permissions (GRANT SELECT ON ... TO r) or of a role
// (GRANT r1 TO r2). ALL is both a permission and a valid role name.
std::string GrantKind(ParseContext& ctx, const char* verb, TokenType role_preposition) {
  TokenType second = ctx.LA(2);
  if (IsPermissionKeyword(second)) return std::string(verb) + " PERMISSION";
  if (second == TokenType::kKwAll) {
    TokenType third = ctx.LA(3);
    if (third == role_preposition) return std::string(verb) + " ROLE";
    if (third == TokenType::kKwPermissions || third == TokenType::kKwOn) {
      return std::string(verb) + " PERMISSION";
    }
    ctx.NoViableAlt(3);
  }
  if (IsRoleNameToken(second)) return std::string(verb) + " ROLE";
  ctx.NoViableAlt(2);
}

std::string ListKind(ParseContext& ctx) {
  TokenType second = ctx.LA(2);
  if (second == TokenType::kKwRoles) return "LIST ROLES";
  if (second == TokenType::kKwUsers) return "LIST USERS";
  if (second == TokenType::kKwAll || IsPermissionKeyword(second)) return "LIST PERMISSIONS";
  ctx.NoViableAlt(2);
}

// Consumes the rest of the statement, counting bind markers: every `?`, and
// every `:name` except the key/value colons of map and user type literals
// (a colon right inside braces is a marker only where a value starts: after
// '{', ',' or another ':').
void SkipRest(ParseContext& ctx, TokenType previous) {
  std::vector<TokenType> open;
  while (ctx.LA(1) != TokenType::kEof) {
    TokenType type = ctx.LA(1);
    if (type == TokenType::kQmark) {
      ctx.NewBindMarker("");
    } else if (type == TokenType::kColon && IsIdentToken(ctx.LA(2))) {
      bool in_braces = !open.empty() && open.back() == TokenType::kLBrace;
      bool value_position = previous == TokenType::kLBrace || previous == TokenType::kComma ||
                            previous == TokenType::kColon;
      if (!in_braces || value_position) {
        ctx.Consume();
        ctx.NewBindMarker(NameText(ctx.LT(1)));
        previous = ctx.LA(1);
        ctx.Consume();
        continue;
      }
    } else if (type == TokenType::kLParen || type == TokenType::kLBracket ||
               type == TokenType::kLBrace || type == TokenType::kExprOpen) {
      open.push_back(type == TokenType::kExprOpen ? TokenType::kLParen : type);
    } else if (type == TokenType::kRParen || type == TokenType::kRBracket ||
               type == TokenType::kRBrace) {
      if (!open.empty()) open.pop_back();
    }
    previous = type;
    ctx.Consume();
  }
}

}  // namespace

bool StartsPendingStatement(TokenType type) {
  switch (type) {
    case TokenType::kKwInsert:
    case TokenType::kKwUpdate:
    case TokenType::kKwDelete:
    case TokenType::kKwBegin:
    case TokenType::kKwTruncate:
    case TokenType::kKwCreate:
    case TokenType::kKwAlter:
    case TokenType::kKwDrop:
    case TokenType::kKwGrant:
    case TokenType::kKwRevoke:
    case TokenType::kKwList:
    case TokenType::kKwDescribe:
    case TokenType::kKwDesc:
      return true;
    default:
      return false;
  }
}

PendingStatement ParsePendingStatement(ParseContext& ctx) {
  PendingStatement statement;
  switch (ctx.LA(1)) {
    case TokenType::kKwInsert:
      statement.kind = "INSERT";
      ctx.Consume();
      ctx.Match(TokenType::kKwInto);
      break;
    case TokenType::kKwUpdate:
      statement.kind = "UPDATE";
      break;
    case TokenType::kKwDelete:
      statement.kind = "DELETE";
      break;
    case TokenType::kKwBegin:
      statement.kind = "BATCH";
      ctx.Consume();
      if (ctx.LA(1) == TokenType::kKwUnlogged || ctx.LA(1) == TokenType::kKwCounter) ctx.Consume();
      ctx.Match(TokenType::kKwBatch);
      break;
    case TokenType::kKwTruncate:
      statement.kind = "TRUNCATE";
      break;
    case TokenType::kKwCreate:
      statement.kind = CreateKind(ctx);
      break;
    case TokenType::kKwAlter:
      statement.kind = AlterKind(ctx);
      break;
    case TokenType::kKwDrop:
      statement.kind = DropKind(ctx);
      break;
    case TokenType::kKwGrant:
      statement.kind = GrantKind(ctx, "GRANT", TokenType::kKwTo);
      break;
    case TokenType::kKwRevoke:
      statement.kind = GrantKind(ctx, "REVOKE", TokenType::kKwFrom);
      break;
    case TokenType::kKwList:
      statement.kind = ListKind(ctx);
      break;
    default:  // DESCRIBE, DESC
      statement.kind = "DESCRIBE";
      break;
  }
  SkipRest(ctx, TokenType::kEof);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
