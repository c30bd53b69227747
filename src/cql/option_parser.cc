#include "cql/option_parser.h"

#include "cql/keywords.h"
#include "cql/name_parser.h"
#include "cql/term_parser.h"
#include "cql/term_text.h"

namespace sibyl::cql::parser_internal {
namespace {

// Constants.Literal: the terms convertPropertyMap accepts.
bool IsLiteral(const Term& term) {
  switch (term.kind) {
    case Term::Kind::kString:
    case Term::Kind::kInteger:
    case Term::Kind::kFloat:
    case Term::Kind::kBoolean:
    case Term::Kind::kUuid:
    case Term::Kind::kBlob:
    case Term::Kind::kDuration:
      return true;
    default:
      return false;
  }
}

// fullMapLiteral: '{' (term ':' term (',' term ':' term)*)? '}'.
std::vector<std::pair<Term, Term>> ParseFullMapLiteral(ParseContext& ctx) {
  std::vector<std::pair<Term, Term>> entries;
  ctx.Match(TokenType::kLBrace);
  if (ctx.LA(1) != TokenType::kRBrace) {
    while (true) {
      Term key = ParseTerm(ctx);
      ctx.Match(TokenType::kColon);
      entries.emplace_back(std::move(key), ParseTerm(ctx));
      if (ctx.LA(1) != TokenType::kComma) break;
      ctx.Consume();
    }
  }
  ctx.Match(TokenType::kRBrace);
  return entries;
}

std::string MarkerNote(const Term& term) {
  return term.kind == Term::Kind::kBindMarker ? " (bind variables are not supported in DDL queries)"
                                              : "";
}

// propertyValue: constant | unreserved_keyword.
OptionValue ParsePropertyValue(ParseContext& ctx) {
  OptionValue value;
  TokenType first = ctx.LA(1);
  if (IsConstantToken(first)) {
    Term constant = ParseConstant(ctx);
    value.kind = OptionValue::Kind::kConstant;
    value.constant_kind = constant.kind;
    value.text = std::move(constant.text);
    return value;
  }
  if (!IsUnreservedKeyword(first)) ctx.NoViableAlt(1);
  const Token& token = ctx.LT(1);
  ctx.Consume();
  value.kind = OptionValue::Kind::kKeyword;
  // Native types name themselves in lower case (CQL3Type.toString()), the
  // other keywords come as written.
  value.text = IsNativeTypeKeyword(first) ? NameText(token) : std::string(token.text);
  return value;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ParsePropertyMap(ParseContext& ctx) {
  std::vector<std::pair<Term, Term>> entries = ParseFullMapLiteral(ctx);
  std::vector<std::pair<std::string, std::string>> converted;
  converted.reserve(entries.size());
  for (auto& [key, value] : entries) {
    if (!IsLiteral(key)) {
      ctx.ActionError("Invalid property name: " + TermText(key) + MarkerNote(key));
      break;
    }
    if (!IsLiteral(value)) {
      ctx.ActionError("Invalid property value: " + TermText(value) +
                      " for property: " + TermText(key) + MarkerNote(value));
      break;
    }
    for (const auto& existing : converted) {
      if (existing.first == key.text) {
        ctx.ActionError("Multiple definition for property " + key.text);
      }
    }
    converted.emplace_back(std::move(key.text), std::move(value.text));
  }
  return converted;
}

void ParseProperty(ParseContext& ctx, Options& options) {
  // The two alternatives differ from the third token on.
  bool map = ctx.LA(3) == TokenType::kLBrace;
  if (!IsIdentToken(ctx.LA(1))) ctx.NoViableAlt(1);
  if (ctx.LA(2) != TokenType::kEq) ctx.NoViableAlt(2);
  if (!map && !IsConstantToken(ctx.LA(3)) && !IsUnreservedKeyword(ctx.LA(3))) {
    ctx.NoViableAlt(3);
  }
  Option option;
  option.name = ParseIdent(ctx);
  ctx.Consume();  // '='
  if (map) {
    option.value.kind = OptionValue::Kind::kMap;
    option.value.entries = ParsePropertyMap(ctx);
  } else {
    option.value = ParsePropertyValue(ctx);
  }
  for (const Option& existing : options) {
    if (existing.name == option.name) {
      ctx.ActionError("Multiple definition for property '" + option.name + "'");
    }
  }
  options.push_back(std::move(option));
}

Options ParseProperties(ParseContext& ctx) {
  Options options;
  ParseProperty(ctx, options);
  while (ctx.LA(1) == TokenType::kKwAnd) {
    ctx.Consume();
    ParseProperty(ctx, options);
  }
  return options;
}

}  // namespace sibyl::cql::parser_internal
