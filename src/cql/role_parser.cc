// CREATE / ALTER / DROP ROLE and USER (Parser.g's createRoleStatement,
// alterRoleStatement, dropRoleStatement, roleOptions, createUserStatement,
// alterUserStatement, dropUserStatement, userPassword, username, roleName),
// with the checks RoleOptions and DCPermissions.Builder make while parsing.

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/option_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// RoleOptions.setOption: an option given twice is a SyntaxException naming
// it as IRoleManager.Option does.
template <typename T, typename V>
void SetOption(ParseContext& ctx, std::optional<T>& option, const char* name, V value) {
  if (option) {
    ctx.ThrowInAction(std::string("Multiple definition for property '") + name + "'");
  }
  option = std::move(value);
}

bool BooleanValue(const Token& token) {
  // Boolean.valueOf: true only for "true", in any case.
  return token.text.size() == 4 && (token.text[0] == 't' || token.text[0] == 'T');
}

std::string StringValue(ParseContext& ctx) {
  return std::string(ctx.Match(TokenType::kStringLiteral).text);
}

void CheckPasswords(ParseContext& ctx, const RoleOptions& options) {
  if (options.password && options.hashed_password) {
    ctx.ThrowInAction("Options 'password' and 'hashed password' are mutually exclusive");
  }
}

// ACCESS TO ALL DATACENTERS | ACCESS TO DATACENTERS {'dc', ...}
void ParseDatacenterAccess(ParseContext& ctx, RoleOptions& options) {
  ctx.Consume();  // ACCESS
  ctx.Match(TokenType::kKwTo);
  if (ctx.LA(1) == TokenType::kKwAll) {
    ctx.Consume();
    ctx.Match(TokenType::kKwDatacenters);
    // DCPermissions.Builder.all(): Preconditions.checkArgument.
    if (options.datacenters) {
      ctx.RuntimeFailureInAction("IllegalArgumentException", "DCs have already been set");
    }
    options.all_datacenters = true;
    return;
  }
  ctx.Match(TokenType::kKwDatacenters);
  ctx.Match(TokenType::kLBrace);
  while (true) {
    std::string dc = StringValue(ctx);
    if (options.all_datacenters) {
      ctx.RuntimeFailureInAction("IllegalArgumentException", "All has been set");
    }
    if (!options.datacenters) options.datacenters.emplace();
    bool known = false;
    for (const std::string& existing : *options.datacenters) known = known || existing == dc;
    if (!known) options.datacenters->push_back(std::move(dc));
    if (ctx.LA(1) != TokenType::kComma) break;
    ctx.Consume();
  }
  ctx.Match(TokenType::kRBrace);
}

// roleOption.
void ParseRoleOption(ParseContext& ctx, RoleOptions& options) {
  switch (ctx.LA(1)) {
    case TokenType::kKwPassword:
      ctx.Consume();
      ctx.Match(TokenType::kEq);
      SetOption(ctx, options.password, "PASSWORD", StringValue(ctx));
      return;
    case TokenType::kKwHashed:
      ctx.Consume();
      ctx.Match(TokenType::kKwPassword);
      ctx.Match(TokenType::kEq);
      SetOption(ctx, options.hashed_password, "HASHED_PASSWORD", StringValue(ctx));
      return;
    case TokenType::kKwOptions:
      ctx.Consume();
      ctx.Match(TokenType::kEq);
      SetOption(ctx, options.custom_options, "OPTIONS", ParsePropertyMap(ctx));
      return;
    case TokenType::kKwSuperuser:
      ctx.Consume();
      ctx.Match(TokenType::kEq);
      SetOption(ctx, options.superuser, "SUPERUSER", BooleanValue(ctx.Match(TokenType::kBoolean)));
      return;
    case TokenType::kKwLogin:
      ctx.Consume();
      ctx.Match(TokenType::kEq);
      SetOption(ctx, options.login, "LOGIN", BooleanValue(ctx.Match(TokenType::kBoolean)));
      return;
    case TokenType::kKwAccess:
      if (ctx.LA(2) == TokenType::kKwTo) {
        ParseDatacenterAccess(ctx, options);
        return;
      }
      ctx.NoViableAlt(2);
    default:
      ctx.NoViableAlt(1);
  }
}

// (WITH roleOptions)?
RoleOptions ParseRoleOptions(ParseContext& ctx) {
  RoleOptions options;
  if (ctx.LA(1) != TokenType::kKwWith) return options;
  ctx.Consume();
  ParseRoleOption(ctx, options);
  while (ctx.LA(1) == TokenType::kKwAnd) {
    ctx.Consume();
    ParseRoleOption(ctx, options);
  }
  CheckPasswords(ctx, options);
  return options;
}

// username: IDENT (its case kept), STRING_LITERAL, or QUOTED_NAME (refused).
std::string ParseUsername(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  switch (token.type) {
    case TokenType::kIdent:
    case TokenType::kStringLiteral:
      ctx.Consume();
      return std::string(token.text);
    case TokenType::kQuotedName:
      ctx.Consume();
      ctx.ActionError(
          "Quoted strings are are not supported for user names and USER is deprecated, please use "
          "ROLE");
      return std::string(token.text);
    default:
      ctx.NoViableAlt(1);
  }
}

// (WITH userPassword)? (SUPERUSER | NOSUPERUSER)? of CREATE / ALTER USER.
void ParseUserOptions(ParseContext& ctx, RoleOptions& options, bool default_superuser) {
  if (ctx.LA(1) == TokenType::kKwWith) {
    ctx.Consume();
    if (ctx.LA(1) == TokenType::kKwPassword) {
      ctx.Consume();
      SetOption(ctx, options.password, "PASSWORD", StringValue(ctx));
    } else if (ctx.LA(1) == TokenType::kKwHashed) {
      ctx.Consume();
      ctx.Match(TokenType::kKwPassword);
      SetOption(ctx, options.hashed_password, "HASHED_PASSWORD", StringValue(ctx));
    } else {
      ctx.NoViableAlt(1);
    }
  }
  if (ctx.LA(1) == TokenType::kKwSuperuser) {
    ctx.Consume();
    SetOption(ctx, options.superuser, "SUPERUSER", true);
  } else if (ctx.LA(1) == TokenType::kKwNosuperuser) {
    ctx.Consume();
    SetOption(ctx, options.superuser, "SUPERUSER", false);
  } else if (default_superuser) {
    SetOption(ctx, options.superuser, "SUPERUSER", false);
  }
  CheckPasswords(ctx, options);
}

}  // namespace

bool IsRoleNameToken(TokenType type) {
  return IsIdentToken(type) || type == TokenType::kStringLiteral || type == TokenType::kQmark;
}

std::string ParseRoleName(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  if (token.type == TokenType::kStringLiteral) {
    ctx.Consume();
    return std::string(token.text);
  }
  if (token.type == TokenType::kQmark) {
    ctx.Consume();
    ctx.ActionError("Bind variables cannot be used for role names");
    return "";
  }
  return ParseIdent(ctx);
}

CreateRoleStatement ParseCreateRole(ParseContext& ctx) {
  CreateRoleStatement statement;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwRole);
  statement.if_not_exists = ParseIfNotExists(ctx);
  statement.role = ParseRoleName(ctx);
  statement.options = ParseRoleOptions(ctx);
  if (!statement.options.login) statement.options.login = false;
  if (!statement.options.superuser) statement.options.superuser = false;
  return statement;
}

AlterRoleStatement ParseAlterRole(ParseContext& ctx) {
  AlterRoleStatement statement;
  ctx.Consume();  // ALTER
  ctx.Match(TokenType::kKwRole);
  statement.if_exists = ParseIfExists(ctx);
  statement.role = ParseRoleName(ctx);
  statement.options = ParseRoleOptions(ctx);
  return statement;
}

DropRoleStatement ParseDropRole(ParseContext& ctx) {
  DropRoleStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwRole);
  statement.if_exists = ParseIfExists(ctx);
  statement.role = ParseRoleName(ctx);
  return statement;
}

CreateRoleStatement ParseCreateUser(ParseContext& ctx) {
  CreateRoleStatement statement;
  statement.user_form = true;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwUser);
  statement.options.login = true;
  statement.if_not_exists = ParseIfNotExists(ctx);
  statement.role = ParseUsername(ctx);
  ParseUserOptions(ctx, statement.options, /*default_superuser=*/true);
  return statement;
}

AlterRoleStatement ParseAlterUser(ParseContext& ctx) {
  AlterRoleStatement statement;
  statement.user_form = true;
  ctx.Consume();  // ALTER
  ctx.Match(TokenType::kKwUser);
  statement.if_exists = ParseIfExists(ctx);
  statement.role = ParseUsername(ctx);
  ParseUserOptions(ctx, statement.options, /*default_superuser=*/false);
  return statement;
}

DropRoleStatement ParseDropUser(ParseContext& ctx) {
  DropRoleStatement statement;
  statement.user_form = true;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwUser);
  statement.if_exists = ParseIfExists(ctx);
  statement.role = ParseUsername(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
