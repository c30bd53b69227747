#include "cql/selector_parser.h"

#include "cql/name_parser.h"
#include "cql/term_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

using Kind = Selector::Kind;

Selector ParseSelectionGroup(ParseContext& ctx);
Selector ParseSelectionGroupWithoutField(ParseContext& ctx);

Selector MakeSelector(Kind kind, std::string name = {}) {
  Selector selector;
  selector.kind = kind;
  selector.name = std::move(name);
  return selector;
}

Selector WithArgs(Kind kind, std::vector<Selector> args) {
  Selector selector = MakeSelector(kind);
  selector.args = std::move(args);
  return selector;
}

Selector TermSelector(Term term) {
  Selector selector = MakeSelector(Kind::kTerm);
  selector.terms.push_back(std::move(term));
  return selector;
}

bool IsLiteralTerm(const Term& term) {
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

// selectionFunctionArgs: '(' (unaliasedSelector (',' unaliasedSelector)*)? ')'.
std::vector<Selector> ParseSelectionArgs(ParseContext& ctx) {
  std::vector<Selector> args;
  ctx.Match(TokenType::kLParen);
  if (ctx.LA(1) != TokenType::kRParen) {
    args.push_back(ParseUnaliasedSelector(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      args.push_back(ParseUnaliasedSelector(ctx));
    }
  }
  ctx.Match(TokenType::kRParen);
  return args;
}

// collectionSubSelection, between '[' and ']': an element (term) or a slice
// (term..term, with either bound optional).
Selector ParseSubSelection(ParseContext& ctx, Selector receiver) {
  Selector selection = MakeSelector(Kind::kElement);
  if (ctx.LA(1) == TokenType::kRange) {
    ctx.Consume();
    selection.kind = Kind::kSlice;
    selection.slice_to = ParseTerm(ctx);
  } else {
    Term first = ParseTerm(ctx);
    if (ctx.LA(1) == TokenType::kRange) {
      ctx.Consume();
      selection.kind = Kind::kSlice;
      selection.slice_from = std::move(first);
      if (ctx.LA(1) != TokenType::kRBracket) selection.slice_to = ParseTerm(ctx);
    } else {
      selection.terms.push_back(std::move(first));
    }
  }
  selection.args.push_back(std::move(receiver));
  return selection;
}

// selectorModifier: any number of .field and [element or slice].
Selector ParseSelectorModifiers(ParseContext& ctx, Selector receiver) {
  ParseContext::NestingGuard guard(ctx);
  while (true) {
    if (ctx.LA(1) == TokenType::kDot) {
      guard.Add();
      ctx.Consume();
      Selector field = MakeSelector(Kind::kFieldAccess, ParseIdent(ctx));
      field.args.push_back(std::move(receiver));
      receiver = std::move(field);
    } else if (ctx.LA(1) == TokenType::kLBracket) {
      guard.Add();
      ctx.Consume();
      receiver = ParseSubSelection(ctx, std::move(receiver));
      ctx.Match(TokenType::kRBracket);
    } else {
      return receiver;
    }
  }
}

// selectionFunction (and count(*)): writetime/ttl/maxwritetime(column),
// CAST(selector AS type), and calls of named functions.
Selector ParseSelectionFunction(ParseContext& ctx) {
  TokenType first = ctx.LA(1);
  if (first == TokenType::kKwCount && ctx.LA(3) == TokenType::kStar) {
    ctx.Consume();
    ctx.Consume();  // '('
    ctx.Consume();  // '*'
    ctx.Match(TokenType::kRParen);
    return MakeSelector(Kind::kCountStar, "count");
  }
  if (first == TokenType::kKwWritetime || first == TokenType::kKwTtl ||
      first == TokenType::kKwMaxwritetime) {
    Selector call = MakeSelector(Kind::kFunction, NameText(ctx.LT(1)));
    ctx.Consume();
    ctx.Match(TokenType::kLParen);
    // 4.1 takes a column; the element and field selections are 5.0's.
    call.args.push_back(ParseSelectorModifiers(ctx, MakeSelector(Kind::kColumn, ParseIdent(ctx))));
    ctx.Match(TokenType::kRParen);
    return call;
  }
  if (first == TokenType::kKwCast) {
    ctx.Consume();
    ctx.Match(TokenType::kLParen);
    Selector cast = MakeSelector(Kind::kCast);
    cast.args.push_back(ParseUnaliasedSelector(ctx));
    ctx.Match(TokenType::kKwAs);
    cast.text = ParseNativeType(ctx);
    ctx.Match(TokenType::kRParen);
    return cast;
  }
  Selector call = MakeSelector(Kind::kFunction);
  call.name = ParseFunctionName(ctx, call.keyspace);
  call.args = ParseSelectionArgs(ctx);
  // COUNT of a constant counts rows, as count(*) does (Cassandra special-cases
  // it when preparing; COUNT(1) is the common spelling).
  if (call.name == "count" && (call.keyspace.empty() || call.keyspace == "system") &&
      call.args.size() == 1 && call.args[0].kind == Kind::kTerm &&
      IsLiteralTerm(call.args[0].terms[0])) {
    Selector count = MakeSelector(Kind::kCountStar, "count");
    count.terms = std::move(call.args[0].terms);
    return count;
  }
  return call;
}

// simpleUnaliasedSelector: a column, a literal or bind marker, or a function.
Selector ParseSimpleUnaliasedSelector(ParseContext& ctx) {
  TokenType first = ctx.LA(1);
  if (IsConstantToken(first)) return TermSelector(ParseConstant(ctx));
  switch (first) {
    case TokenType::kKwNull: {
      ctx.Consume();
      Term null_term;
      null_term.kind = Term::Kind::kNull;
      return TermSelector(std::move(null_term));
    }
    case TokenType::kQmark:
    case TokenType::kColon:
      return TermSelector(ParseBindMarker(ctx));
    case TokenType::kKwCount:
    case TokenType::kKwWritetime:
    case TokenType::kKwTtl:
    case TokenType::kKwMaxwritetime:
    case TokenType::kKwCast:
      if (ctx.LA(2) == TokenType::kLParen) return ParseSelectionFunction(ctx);
      break;
    default:
      break;
  }
  int mismatch = FunctionCallMismatchDepth(ctx);
  if (mismatch == 0) return ParseSelectionFunction(ctx);
  if (IsIdentToken(first)) return MakeSelector(Kind::kColumn, ParseIdent(ctx));
  ctx.NoViableAlt(mismatch);
}

// '(' starts a type hint, `(int) ?`, or a parenthesized selector or tuple.
Selector ParseParenthesizedSelector(ParseContext& ctx) {
  bool hint = CanStartType(ctx.LA(2)) && ctx.Speculate([&] {
    ctx.Consume();  // '('
    ParseComparatorType(ctx);
    ctx.Match(TokenType::kRParen);
    if (!CanStartSimpleTerm(ctx.LA(1))) ctx.NoViableAlt(1);
  });
  ctx.Consume();  // '('
  if (hint) {
    Selector selector = MakeSelector(Kind::kTypeHint);
    selector.text = ParseComparatorType(ctx);
    ctx.Match(TokenType::kRParen);
    selector.args.push_back(ParseSelectionGroupWithoutField(ctx));
    return selector;
  }
  std::vector<Selector> elements;
  elements.push_back(ParseUnaliasedSelector(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    elements.push_back(ParseUnaliasedSelector(ctx));
  }
  ctx.Match(TokenType::kRParen);
  if (elements.size() == 1) return std::move(elements[0]);
  return WithArgs(Kind::kTuple, std::move(elements));
}

// selectionList: '[' (unaliasedSelector (',' unaliasedSelector)*)? ']'.
Selector ParseSelectionList(ParseContext& ctx) {
  ctx.Consume();  // '['
  Selector list = MakeSelector(Kind::kList);
  if (ctx.LA(1) != TokenType::kRBracket) {
    list.args.push_back(ParseUnaliasedSelector(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      list.args.push_back(ParseUnaliasedSelector(ctx));
    }
  }
  ctx.Match(TokenType::kRBracket);
  return list;
}

// selectionMapOrSet: '{' '}' | '{' k ':' v (',' k ':' v)* '}' | '{' x (',' x)* '}'.
Selector ParseSelectionMapOrSet(ParseContext& ctx) {
  ctx.Consume();  // '{'
  if (ctx.LA(1) == TokenType::kRBrace) {
    ctx.Consume();
    return MakeSelector(Kind::kSet);
  }
  Selector first = ParseUnaliasedSelector(ctx);
  Selector result;
  if (ctx.LA(1) == TokenType::kColon) {
    result = MakeSelector(Kind::kMapOrUdt);
    ctx.Consume();
    result.args.push_back(std::move(first));
    result.args.push_back(ParseUnaliasedSelector(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      result.args.push_back(ParseUnaliasedSelector(ctx));
      ctx.Match(TokenType::kColon);
      result.args.push_back(ParseUnaliasedSelector(ctx));
    }
  } else {
    result = MakeSelector(Kind::kSet);
    result.args.push_back(std::move(first));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      result.args.push_back(ParseUnaliasedSelector(ctx));
    }
  }
  ctx.Match(TokenType::kRBrace);
  return result;
}

Selector ParseSelectionGroupWithoutField(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  switch (ctx.LA(1)) {
    case TokenType::kLParen:
      return ParseParenthesizedSelector(ctx);
    case TokenType::kLBracket:
      return ParseSelectionList(ctx);
    case TokenType::kLBrace:
      return ParseSelectionMapOrSet(ctx);
    default:
      return ParseSimpleUnaliasedSelector(ctx);
  }
}

// selectionGroup: '-' selectionGroup, or a selector with its modifiers.
Selector ParseSelectionGroup(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  if (ctx.LA(1) == TokenType::kMinus) {
    ctx.Consume();
    std::vector<Selector> operand;
    operand.push_back(ParseSelectionGroup(ctx));
    return WithArgs(Kind::kNegation, std::move(operand));
  }
  return ParseSelectorModifiers(ctx, ParseSelectionGroupWithoutField(ctx));
}

Selector Arithmetic(std::string op, Selector left, Selector right) {
  Selector selector = MakeSelector(Kind::kArithmetic);
  selector.text = std::move(op);
  selector.args.push_back(std::move(left));
  selector.args.push_back(std::move(right));
  return selector;
}

// selectionMultiplication: selectionGroup (('*' | '/' | '%') selectionGroup)*.
Selector ParseSelectionMultiplication(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  Selector left = ParseSelectionGroup(ctx);
  while (true) {
    TokenType op = ctx.LA(1);
    if (op != TokenType::kStar && op != TokenType::kSlash && op != TokenType::kPercent) break;
    guard.Add();
    std::string text(ctx.LT(1).text);
    ctx.Consume();
    left = Arithmetic(std::move(text), std::move(left), ParseSelectionGroup(ctx));
  }
  return left;
}

// selector: unaliasedSelector (AS noncol_ident)?
Selector ParseSelector(ParseContext& ctx) {
  Selector selector = ParseUnaliasedSelector(ctx);
  if (ctx.LA(1) == TokenType::kKwAs) {
    ctx.Consume();
    selector.alias = ParseIdent(ctx);
  }
  return selector;
}

}  // namespace

Selector ParseUnaliasedSelector(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  Selector left = ParseSelectionMultiplication(ctx);
  while (ctx.LA(1) == TokenType::kPlus || ctx.LA(1) == TokenType::kMinus) {
    guard.Add();
    std::string op(ctx.LT(1).text);
    ctx.Consume();
    left = Arithmetic(std::move(op), std::move(left), ParseSelectionMultiplication(ctx));
  }
  return left;
}

std::vector<Selector> ParseSelectors(ParseContext& ctx, bool& star) {
  star = false;
  std::vector<Selector> selectors;
  if (ctx.LA(1) == TokenType::kStar) {
    ctx.Consume();
    star = true;
    return selectors;
  }
  selectors.push_back(ParseSelector(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    selectors.push_back(ParseSelector(ctx));
  }
  return selectors;
}

}  // namespace sibyl::cql::parser_internal
