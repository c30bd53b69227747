#include "cql/type_parser.h"

#include <array>

#include "cql/keywords.h"
#include "cql/name_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

struct RawType {
  std::string text;
  bool freezable = false;  // collections, tuples, user types (and vectors, frozen anyway)
};

RawType ParseRawType(ParseContext& ctx);

// Parser.g's reservedTypeNames: IDENTs that cannot name a user type.
bool IsReservedTypeName(std::string_view text) {
  static constexpr std::array<std::string_view, 7> kNames = {
      "byte", "complex", "enum", "date", "interval", "macaddr", "bitstring"};
  for (std::string_view name : kNames) {
    if (text == name) return true;
  }
  return false;
}

RawType ParseUserTypeReference(ParseContext& ctx) {
  RawType type;
  type.freezable = true;
  if (ctx.LA(2) == TokenType::kDot) {
    type.text = QuoteName(ParseIdent(ctx)) + ".";
    ctx.Consume();  // '.'
  }
  type.text += QuoteName(ParseNonTypeIdent(ctx));
  return type;
}

// `name<` type (',' type)* `>`, for map, list, set and tuple.
RawType ParseParameterized(ParseContext& ctx, std::string_view name, size_t arity) {
  ctx.Consume();  // the keyword
  ctx.Match(TokenType::kLt);
  RawType type;
  type.freezable = true;
  type.text = std::string(name) + "<" + ParseRawType(ctx).text;
  for (size_t i = 1; arity == 0 || i < arity; ++i) {
    if (arity == 0 && ctx.LA(1) != TokenType::kComma) break;
    ctx.Match(TokenType::kComma);
    type.text += ", " + ParseRawType(ctx).text;
  }
  ctx.Match(TokenType::kGt);
  type.text += ">";
  return type;
}

std::string QuoteString(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted.push_back('\'');
    quoted.push_back(c);
  }
  quoted.push_back('\'');
  return quoted;
}

RawType ParseRawType(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  TokenType first = ctx.LA(1);
  if (IsNativeTypeKeyword(first)) {
    // int.foo is a user type in keyspace "int".
    if (ctx.LA(2) == TokenType::kDot) return ParseUserTypeReference(ctx);
    return RawType{ParseNativeType(ctx), false};
  }
  bool opens = ctx.LA(2) == TokenType::kLt;
  switch (first) {
    case TokenType::kKwMap:
      if (opens) return ParseParameterized(ctx, "map", 2);
      break;
    case TokenType::kKwList:
      if (opens) return ParseParameterized(ctx, "list", 1);
      break;
    case TokenType::kKwSet:  // reserved: only ever the collection
      return ParseParameterized(ctx, "set", 1);
    case TokenType::kKwTuple:
      if (opens) return ParseParameterized(ctx, "tuple", 0);
      break;
    case TokenType::kKwFrozen:
      if (opens) {
        ctx.Consume();
        ctx.Consume();  // '<'
        RawType inner = ParseRawType(ctx);
        ctx.Match(TokenType::kGt);
        if (!inner.freezable) {
          // CQL3Type.Raw.freeze(), reported by the grammar action.
          ctx.ActionError(
              "frozen<> is only allowed on collections, tuples, and user-defined types (got " +
              inner.text + ")");
        }
        return RawType{"frozen<" + inner.text + ">", true};
      }
      break;
    case TokenType::kKwVector:
      if (opens) {
        ctx.Consume();
        ctx.Consume();  // '<'
        RawType element = ParseRawType(ctx);
        ctx.Match(TokenType::kComma);
        const Token& dimension = ctx.Match(TokenType::kInteger);
        ctx.Match(TokenType::kGt);
        return RawType{"vector<" + element.text + ", " + std::string(dimension.text) + ">", true};
      }
      break;
    case TokenType::kStringLiteral: {
      const Token& token = ctx.LT(1);
      ctx.Consume();
      return RawType{QuoteString(token.text), false};
    }
    default:
      break;
  }
  if (IsIdentToken(first)) return ParseUserTypeReference(ctx);
  ctx.NoViableAlt(1);
}

}  // namespace

// non_type_ident: a user type's own name. Native type names are excluded,
// and so are the unreserved keywords other than basic ones and KEY.
std::string ParseNonTypeIdent(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  TokenType type = token.type;
  if (type == TokenType::kIdent) {
    ctx.Consume();
    // The action compares the text as written (case-sensitive).
    if (IsReservedTypeName(token.text)) {
      ctx.ActionError("Invalid (reserved) user type name " + std::string(token.text));
    }
    return NameText(token);
  }
  if (type == TokenType::kQuotedName || IsBasicUnreservedKeyword(type) ||
      type == TokenType::kKwKey) {
    ctx.Consume();
    return NameText(token);
  }
  ctx.NoViableAlt(1);
}

bool CanStartType(TokenType type) {
  return IsIdentToken(type) || type == TokenType::kKwSet || type == TokenType::kStringLiteral;
}

std::string ParseComparatorType(ParseContext& ctx) { return ParseRawType(ctx).text; }

std::string ParseNativeType(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  if (!IsNativeTypeKeyword(token.type)) ctx.NoViableAlt(1);
  ctx.Consume();
  return NameText(token);
}

}  // namespace sibyl::cql::parser_internal
