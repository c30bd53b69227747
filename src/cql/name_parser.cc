#include "cql/name_parser.h"

#include <algorithm>

#include "common/ascii_case.h"
#include "cql/keywords.h"

namespace sibyl::cql::parser_internal {
namespace {

// ksName, cfName and idxName: the same tokens as ident, and a bind marker,
// which the grammar accepts only to say it cannot be used there.
std::string ParseNameOrMarker(ParseContext& ctx, const char* what) {
  if (ctx.LA(1) == TokenType::kQmark) {
    ctx.Consume();
    ctx.ActionError(std::string("Bind variables cannot be used for ") + what);
    return "";
  }
  return ParseIdent(ctx);
}

bool IsKeyspaceNameToken(TokenType type) { return IsIdentToken(type) || type == TokenType::kQmark; }

}  // namespace

bool IsIdentToken(TokenType type) {
  return type == TokenType::kIdent || type == TokenType::kQuotedName || IsUnreservedKeyword(type);
}

bool IsCidentToken(TokenType type) {
  return IsIdentToken(type) || type == TokenType::kEmptyQuotedName;
}

bool IsFunctionNameToken(TokenType type) {
  return type == TokenType::kIdent || type == TokenType::kQuotedName ||
         IsUnreservedFunctionKeyword(type) || type == TokenType::kKwToken ||
         type == TokenType::kKwCount;
}

std::string NameText(const Token& token) {
  if (token.type == TokenType::kQuotedName) return std::string(token.text);
  if (token.type == TokenType::kEmptyQuotedName) return "";
  return AsciiLower(token.text);
}

std::string ParseIdent(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  if (!IsIdentToken(token.type)) ctx.NoViableAlt(1);
  ctx.Consume();
  return NameText(token);
}

std::string ParseCident(ParseContext& ctx) {
  if (ctx.LA(1) == TokenType::kEmptyQuotedName) {
    ctx.Consume();
    return "";
  }
  return ParseIdent(ctx);
}

std::string ParseKeyspaceName(ParseContext& ctx) {
  return ParseNameOrMarker(ctx, "keyspace names");
}
std::string ParseTableName(ParseContext& ctx) { return ParseNameOrMarker(ctx, "table names"); }
std::string ParseIndexName(ParseContext& ctx) { return ParseNameOrMarker(ctx, "index names"); }

QualifiedName ParseColumnFamilyName(ParseContext& ctx) {
  QualifiedName name;
  if (IsKeyspaceNameToken(ctx.LA(1)) && ctx.LA(2) == TokenType::kDot) {
    name.keyspace = ParseKeyspaceName(ctx);
    ctx.Consume();  // '.'
  }
  name.name = ParseTableName(ctx);
  return name;
}

int FunctionCallMismatchDepth(ParseContext& ctx) {
  TokenType first = ctx.LA(1);
  bool keyspace = IsKeyspaceNameToken(first);
  bool function = IsFunctionNameToken(first);
  if (!keyspace && !function) return 1;  // decided on the first token alone
  TokenType second = ctx.LA(2);
  if (keyspace && second == TokenType::kDot) {
    if (!IsFunctionNameToken(ctx.LA(3))) return 3;
    return ctx.LA(4) == TokenType::kLParen ? 0 : 4;
  }
  return function && second == TokenType::kLParen ? 0 : 2;
}

std::string ParseFunctionName(ParseContext& ctx, std::string& keyspace) {
  keyspace.clear();
  if (IsKeyspaceNameToken(ctx.LA(1)) && ctx.LA(2) == TokenType::kDot) {
    keyspace = ParseKeyspaceName(ctx);
    ctx.Consume();  // '.'
  }
  const Token& token = ctx.LT(1);
  if (!IsFunctionNameToken(token.type)) ctx.NoViableAlt(1);
  ctx.Consume();
  return NameText(token);
}

QualifiedName ParseQualifiedFunctionName(ParseContext& ctx) {
  QualifiedName name;
  std::string keyspace;
  name.name = ParseFunctionName(ctx, keyspace);
  if (!keyspace.empty()) name.keyspace = std::move(keyspace);
  return name;
}

std::string QuoteName(std::string_view name) {
  bool plain = !name.empty() && name[0] >= 'a' && name[0] <= 'z' &&
               std::all_of(name.begin(), name.end(), [](char c) {
                 return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
               });
  if (plain && !IsReservedWord(name)) return std::string(name);
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

}  // namespace sibyl::cql::parser_internal
