#include "cql/relation_parser.h"

#include "cql/name_parser.h"
#include "cql/term_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

using Op = Relation::Op;
using Lhs = Relation::Lhs;

bool IsRelationType(TokenType type) {
  switch (type) {
    case TokenType::kEq:
    case TokenType::kLt:
    case TokenType::kLte:
    case TokenType::kGt:
    case TokenType::kGte:
    case TokenType::kNeq:
      return true;
    default:
      return false;
  }
}

bool IsMarkerStart(TokenType type) {
  return type == TokenType::kQmark || type == TokenType::kColon;
}

// relationType: = < <= > >= !=
Op ParseRelationType(ParseContext& ctx) {
  Op op;
  switch (ctx.LA(1)) {
    case TokenType::kEq:
      op = Op::kEq;
      break;
    case TokenType::kLt:
      op = Op::kLt;
      break;
    case TokenType::kLte:
      op = Op::kLte;
      break;
    case TokenType::kGt:
      op = Op::kGt;
      break;
    case TokenType::kGte:
      op = Op::kGte;
      break;
    case TokenType::kNeq:
      op = Op::kNeq;
      break;
    default:
      ctx.NoViableAlt(1);
  }
  ctx.Consume();
  return op;
}

// tupleOfIdentifiers: '(' cident (',' cident)* ')'.
std::vector<std::string> ParseTupleOfIdentifiers(ParseContext& ctx) {
  std::vector<std::string> names;
  ctx.Match(TokenType::kLParen);
  names.push_back(ParseCident(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    names.push_back(ParseCident(ctx));
  }
  ctx.Match(TokenType::kRParen);
  return names;
}

// '(' element (',' element)* ')' for the IN lists of tuple relations.
template <typename ParseElement>
void ParseParenthesizedList(ParseContext& ctx, std::vector<Term>& out, ParseElement element) {
  ctx.Match(TokenType::kLParen);
  out.push_back(element());
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    out.push_back(element());
  }
  ctx.Match(TokenType::kRParen);
}

// (a, b) IN (...) | (a, b) IN ? | (a, b) op (1, 2) | (a, b) op ?
Relation ParseTupleRelation(ParseContext& ctx) {
  Relation relation;
  relation.lhs = Lhs::kColumnTuple;
  relation.columns = ParseTupleOfIdentifiers(ctx);
  if (ctx.LA(1) == TokenType::kKwIn) {
    ctx.Consume();
    relation.op = Op::kIn;
    if (IsMarkerStart(ctx.LA(1))) {
      relation.terms.push_back(ParseBindMarker(ctx));
      relation.in_marker = true;
    } else if (ctx.LA(1) != TokenType::kLParen) {
      ctx.NoViableAlt(1);
    } else if (ctx.LA(2) == TokenType::kRParen) {
      ctx.Consume();
      ctx.Consume();
    } else if (ctx.LA(2) == TokenType::kLParen) {
      ParseParenthesizedList(ctx, relation.terms, [&] { return ParseTupleLiteral(ctx); });
    } else if (IsMarkerStart(ctx.LA(2))) {
      ParseParenthesizedList(ctx, relation.terms, [&] { return ParseBindMarker(ctx); });
    } else {
      ctx.NoViableAlt(2);
    }
    return relation;
  }
  if (!IsRelationType(ctx.LA(1))) ctx.NoViableAlt(1);
  relation.op = ParseRelationType(ctx);
  if (ctx.LA(1) == TokenType::kLParen) {
    relation.terms.push_back(ParseTupleLiteral(ctx));
  } else if (IsMarkerStart(ctx.LA(1))) {
    relation.terms.push_back(ParseBindMarker(ctx));
  } else {
    ctx.NoViableAlt(1);
  }
  return relation;
}

// The relations that start with a column name.
Relation ParseColumnRelation(ParseContext& ctx) {
  Relation relation;
  relation.lhs = Lhs::kColumn;
  TokenType second = ctx.LA(2);
  if (IsRelationType(second)) {
    relation.columns.push_back(ParseCident(ctx));
    relation.op = ParseRelationType(ctx);
    relation.terms.push_back(ParseTerm(ctx));
    return relation;
  }
  switch (second) {
    case TokenType::kKwLike:
      relation.columns.push_back(ParseCident(ctx));
      ctx.Consume();
      relation.op = Op::kLike;
      relation.terms.push_back(ParseTerm(ctx));
      return relation;
    case TokenType::kKwIs:
      relation.columns.push_back(ParseCident(ctx));
      ctx.Consume();
      ctx.Match(TokenType::kKwNot);
      ctx.Match(TokenType::kKwNull);
      relation.op = Op::kIsNotNull;
      return relation;
    case TokenType::kKwIn: {
      TokenType third = ctx.LA(3);
      if (!IsMarkerStart(third) && third != TokenType::kLParen) ctx.NoViableAlt(3);
      relation.columns.push_back(ParseCident(ctx));
      ctx.Consume();
      relation.op = Op::kIn;
      if (IsMarkerStart(third)) {
        relation.terms.push_back(ParseBindMarker(ctx));
        relation.in_marker = true;
        return relation;
      }
      // singleColumnInValues: '(' (term (',' term)*)? ')'
      ctx.Consume();  // '('
      if (ctx.LA(1) != TokenType::kRParen) {
        relation.terms.push_back(ParseTerm(ctx));
        while (ctx.LA(1) == TokenType::kComma) {
          ctx.Consume();
          relation.terms.push_back(ParseTerm(ctx));
        }
      }
      ctx.Match(TokenType::kRParen);
      return relation;
    }
    case TokenType::kKwContains:
      relation.columns.push_back(ParseCident(ctx));
      ctx.Consume();
      relation.op = Op::kContains;
      if (ctx.LA(1) == TokenType::kKwKey) {
        ctx.Consume();
        relation.op = Op::kContainsKey;
      }
      relation.terms.push_back(ParseTerm(ctx));
      return relation;
    case TokenType::kLBracket:
      // m['k'] op term
      relation.lhs = Lhs::kMapElement;
      relation.columns.push_back(ParseCident(ctx));
      ctx.Consume();
      relation.map_key = ParseTerm(ctx);
      ctx.Match(TokenType::kRBracket);
      relation.op = ParseRelationType(ctx);
      relation.terms.push_back(ParseTerm(ctx));
      return relation;
    default:
      ctx.NoViableAlt(2);
  }
}

// relation, including '(' relation ')'.
Relation ParseRelation(ParseContext& ctx) {
  ParseContext::NestingGuard guard(ctx);
  TokenType first = ctx.LA(1);
  if (IsCidentToken(first)) return ParseColumnRelation(ctx);
  if (first == TokenType::kKwToken) {
    // token(a, b) op term
    ctx.Consume();
    Relation relation;
    relation.lhs = Lhs::kToken;
    relation.columns = ParseTupleOfIdentifiers(ctx);
    relation.op = ParseRelationType(ctx);
    relation.terms.push_back(ParseTerm(ctx));
    return relation;
  }
  if (first != TokenType::kLParen) ctx.NoViableAlt(1);
  TokenType second = ctx.LA(2);
  if (IsCidentToken(second)) {
    TokenType third = ctx.LA(3);
    if (third == TokenType::kComma || third == TokenType::kRParen) return ParseTupleRelation(ctx);
  } else if (second != TokenType::kKwToken && second != TokenType::kLParen) {
    ctx.NoViableAlt(2);
  }
  ctx.Consume();  // '('
  Relation inner = ParseRelation(ctx);
  ctx.Match(TokenType::kRParen);
  return inner;
}

// customIndexExpression: 'expr(' idxName ',' term ')'.
Relation ParseCustomIndexExpression(ParseContext& ctx) {
  ctx.Consume();  // 'expr('
  Relation relation;
  relation.lhs = Lhs::kCustomIndexExpression;
  relation.columns.push_back(ParseIndexName(ctx));
  ctx.Match(TokenType::kComma);
  relation.terms.push_back(ParseTerm(ctx));
  ctx.Match(TokenType::kRParen);
  return relation;
}

Relation ParseRelationOrExpression(ParseContext& ctx) {
  if (ctx.LA(1) == TokenType::kExprOpen) return ParseCustomIndexExpression(ctx);
  return ParseRelation(ctx);
}

}  // namespace

std::vector<Relation> ParseWhereClause(ParseContext& ctx) {
  std::vector<Relation> relations;
  relations.push_back(ParseRelationOrExpression(ctx));
  while (ctx.LA(1) == TokenType::kKwAnd) {
    ctx.Consume();
    relations.push_back(ParseRelationOrExpression(ctx));
  }
  return relations;
}

}  // namespace sibyl::cql::parser_internal
