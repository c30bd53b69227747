#include "cql/term_parser.h"

#include "cql/name_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

Term ParseSimpleTerm(ParseContext& ctx);

Term MakeTerm(Term::Kind kind, std::string text = {}) {
  Term term;
  term.kind = kind;
  term.text = std::move(text);
  return term;
}

Term Binary(std::string op, Term left, Term right) {
  Term term = MakeTerm(Term::Kind::kArithmetic, std::move(op));
  term.elements.push_back(std::move(left));
  term.elements.push_back(std::move(right));
  return term;
}

// function: functionName '(' (term (',' term)*)? ')'.
Term ParseFunctionCall(ParseContext& ctx) {
  Term call = MakeTerm(Term::Kind::kFunctionCall);
  call.text = ParseFunctionName(ctx, call.keyspace);
  ctx.Match(TokenType::kLParen);
  if (ctx.LA(1) != TokenType::kRParen) {
    call.elements.push_back(ParseTerm(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      call.elements.push_back(ParseTerm(ctx));
    }
  }
  ctx.Match(TokenType::kRParen);
  return call;
}

// listLiteral: '[' (term (',' term)*)? ']'.
Term ParseListLiteral(ParseContext& ctx) {
  Term list = MakeTerm(Term::Kind::kList);
  ctx.Consume();  // '['
  if (ctx.LA(1) != TokenType::kRBracket) {
    list.elements.push_back(ParseTerm(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      list.elements.push_back(ParseTerm(ctx));
    }
  }
  ctx.Match(TokenType::kRBracket);
  return list;
}

// '{' ... '}': a user type literal ({field: term, ...}), a map ({term: term,
// ...}), a set ({term, ...}) or {} (an empty set, as Cassandra reads it).
Term ParseBraceLiteral(ParseContext& ctx) {
  bool user_type = IsIdentToken(ctx.LA(2)) && ctx.LA(3) == TokenType::kColon;
  ctx.Consume();  // '{'
  if (ctx.LA(1) == TokenType::kRBrace) {
    ctx.Consume();
    return MakeTerm(Term::Kind::kSet);
  }
  if (user_type) {
    Term udt = MakeTerm(Term::Kind::kUdt);
    while (true) {
      udt.field_names.push_back(ParseIdent(ctx));
      ctx.Match(TokenType::kColon);
      udt.elements.push_back(ParseTerm(ctx));
      if (ctx.LA(1) != TokenType::kComma) break;
      ctx.Consume();
    }
    ctx.Match(TokenType::kRBrace);
    return udt;
  }
  Term first = ParseTerm(ctx);
  Term collection;
  if (ctx.LA(1) == TokenType::kColon) {
    collection = MakeTerm(Term::Kind::kMap);
    ctx.Consume();
    collection.elements.push_back(std::move(first));
    collection.elements.push_back(ParseTerm(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      collection.elements.push_back(ParseTerm(ctx));
      ctx.Match(TokenType::kColon);
      collection.elements.push_back(ParseTerm(ctx));
    }
  } else {
    collection = MakeTerm(Term::Kind::kSet);
    collection.elements.push_back(std::move(first));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      collection.elements.push_back(ParseTerm(ctx));
    }
  }
  ctx.Match(TokenType::kRBrace);
  return collection;
}

// '(' comparatorType ')' simpleTerm.
Term ParseTypeHint(ParseContext& ctx) {
  ctx.Consume();  // '('
  Term hint = MakeTerm(Term::Kind::kTypeHint, ParseComparatorType(ctx));
  ctx.Match(TokenType::kRParen);
  hint.elements.push_back(ParseSimpleTerm(ctx));
  return hint;
}

// A '(' starts a type hint or a tuple literal. It is a type hint when a type
// and ')' follow, and then something that can start a term: `(int) ?` is a
// hint, `('abc')` a tuple.
Term ParseParenthesizedTerm(ParseContext& ctx) {
  bool hint = CanStartType(ctx.LA(2)) && ctx.Speculate([&] {
    ctx.Consume();  // '('
    ParseComparatorType(ctx);
    ctx.Match(TokenType::kRParen);
    if (!CanStartSimpleTerm(ctx.LA(1))) ctx.NoViableAlt(1);
  });
  return hint ? ParseTypeHint(ctx) : ParseTupleLiteral(ctx);
}

// K_CAST '(' simpleTerm K_AS native_type ')'.
Term ParseCast(ParseContext& ctx) {
  ctx.Consume();  // CAST
  ctx.Match(TokenType::kLParen);
  Term cast = MakeTerm(Term::Kind::kCast);
  cast.elements.push_back(ParseSimpleTerm(ctx));
  ctx.Match(TokenType::kKwAs);
  cast.text = ParseNativeType(ctx);
  ctx.Match(TokenType::kRParen);
  return cast;
}

Term ParseSimpleTerm(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  TokenType first = ctx.LA(1);
  if (IsConstantToken(first)) return ParseConstant(ctx);
  switch (first) {
    case TokenType::kLBracket:
      return ParseListLiteral(ctx);
    case TokenType::kLBrace:
      return ParseBraceLiteral(ctx);
    case TokenType::kLParen:
      return ParseParenthesizedTerm(ctx);
    case TokenType::kKwNull:
      ctx.Consume();
      return MakeTerm(Term::Kind::kNull);
    case TokenType::kQmark:
    case TokenType::kColon:
      return ParseBindMarker(ctx);
    case TokenType::kKwCast:
      if (ctx.LA(2) == TokenType::kLParen) return ParseCast(ctx);
      break;
    default:
      break;
  }
  int mismatch = FunctionCallMismatchDepth(ctx);
  if (mismatch != 0) ctx.NoViableAlt(mismatch);
  return ParseFunctionCall(ctx);
}

// termGroup: simpleTerm | '-' simpleTerm.
Term ParseTermGroup(ParseContext& ctx) {
  if (ctx.LA(1) != TokenType::kMinus) return ParseSimpleTerm(ctx);
  ctx.Consume();
  Term negation = MakeTerm(Term::Kind::kNegation);
  negation.elements.push_back(ParseSimpleTerm(ctx));
  return negation;
}

// termMultiplication: termGroup (('*' | '/' | '%') termGroup)*.
Term ParseTermMultiplication(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  Term left = ParseTermGroup(ctx);
  while (true) {
    TokenType op = ctx.LA(1);
    if (op != TokenType::kStar && op != TokenType::kSlash && op != TokenType::kPercent) break;
    guard.Add();
    std::string text(ctx.LT(1).text);
    ctx.Consume();
    left = Binary(std::move(text), std::move(left), ParseTermGroup(ctx));
  }
  return left;
}

}  // namespace

bool CanStartSimpleTerm(TokenType type) {
  switch (type) {
    case TokenType::kLBracket:
    case TokenType::kLBrace:
    case TokenType::kLParen:
    case TokenType::kKwNull:
    case TokenType::kQmark:
    case TokenType::kColon:
      return true;
    default:
      return IsConstantToken(type) || IsIdentToken(type) || IsFunctionNameToken(type);
  }
}

bool IsConstantToken(TokenType type) {
  switch (type) {
    case TokenType::kStringLiteral:
    case TokenType::kInteger:
    case TokenType::kFloat:
    case TokenType::kBoolean:
    case TokenType::kDuration:
    case TokenType::kUuid:
    case TokenType::kHexNumber:
    case TokenType::kKwPositiveNan:
    case TokenType::kKwNegativeNan:
    case TokenType::kKwPositiveInfinity:
    case TokenType::kKwNegativeInfinity:
      return true;
    default:
      return false;
  }
}

Term ParseConstant(ParseContext& ctx) {
  const Token& token = ctx.LT(1);
  ctx.Consume();
  std::string text(token.text);
  switch (token.type) {
    case TokenType::kStringLiteral:
      return MakeTerm(Term::Kind::kString, std::move(text));
    case TokenType::kInteger:
      return MakeTerm(Term::Kind::kInteger, std::move(text));
    case TokenType::kFloat:
      return MakeTerm(Term::Kind::kFloat, std::move(text));
    case TokenType::kBoolean:
      return MakeTerm(Term::Kind::kBoolean, text[0] == 't' || text[0] == 'T' ? "true" : "false");
    case TokenType::kDuration:
      return MakeTerm(Term::Kind::kDuration, std::move(text));
    case TokenType::kUuid:
      return MakeTerm(Term::Kind::kUuid, std::move(text));
    case TokenType::kHexNumber:
      return MakeTerm(Term::Kind::kBlob, std::move(text));
    case TokenType::kKwPositiveNan:
    case TokenType::kKwNegativeNan:
      return MakeTerm(Term::Kind::kFloat, "NaN");
    case TokenType::kKwPositiveInfinity:
      return MakeTerm(Term::Kind::kFloat, "Infinity");
    case TokenType::kKwNegativeInfinity:
      return MakeTerm(Term::Kind::kFloat, "-Infinity");
    default:
      ctx.NoViableAlt(1);  // not reached: callers check IsConstantToken
  }
}

Term ParseBindMarker(ParseContext& ctx) {
  if (ctx.LA(1) == TokenType::kQmark) {
    ctx.Consume();
    return ctx.NewBindMarker("");
  }
  ctx.Match(TokenType::kColon);
  return ctx.NewBindMarker(ParseIdent(ctx));
}

Term ParseTupleLiteral(ParseContext& ctx) {
  Term tuple = MakeTerm(Term::Kind::kTuple);
  ctx.Match(TokenType::kLParen);
  tuple.elements.push_back(ParseTerm(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    tuple.elements.push_back(ParseTerm(ctx));
  }
  ctx.Match(TokenType::kRParen);
  return tuple;
}

namespace {

// True when the '+' at LA(1) is followed by a column name rather than by a
// term: UPDATE's `c = [1] + c` (prepend) ends the term before the '+'. A name
// continues the term only as a function call (f(...) or ks.f(...)), which is
// how ANTLR's prediction tells the two apart.
bool PlusIntroducesColumn(ParseContext& ctx) {
  TokenType second = ctx.LA(2);
  if (second == TokenType::kEmptyQuotedName) return true;
  if (!IsIdentToken(second)) return false;
  TokenType third = ctx.LA(3);
  return third != TokenType::kLParen && third != TokenType::kDot;
}

}  // namespace

Term ParseTerm(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  Term left = ParseTermMultiplication(ctx);
  while (ctx.LA(1) == TokenType::kPlus || ctx.LA(1) == TokenType::kMinus) {
    if (ctx.LA(1) == TokenType::kPlus && PlusIntroducesColumn(ctx)) break;
    guard.Add();
    std::string op(ctx.LT(1).text);
    ctx.Consume();
    left = Binary(std::move(op), std::move(left), ParseTermMultiplication(ctx));
  }
  return left;
}

Term ParseIntValue(ParseContext& ctx) {
  switch (ctx.LA(1)) {
    case TokenType::kInteger:
      return ParseConstant(ctx);
    case TokenType::kQmark:
    case TokenType::kColon:
      return ParseBindMarker(ctx);
    default:
      ctx.NoViableAlt(1);
  }
}

}  // namespace sibyl::cql::parser_internal
