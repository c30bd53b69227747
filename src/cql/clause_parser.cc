#include "cql/clause_parser.h"

#include "cql/name_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {

bool ParseIfNotExists(ParseContext& ctx) {
  if (ctx.LA(1) != TokenType::kKwIf) return false;
  ctx.Consume();
  ctx.Match(TokenType::kKwNot);
  ctx.Match(TokenType::kKwExists);
  return true;
}

bool ParseIfExists(ParseContext& ctx) {
  if (ctx.LA(1) != TokenType::kKwIf) return false;
  ctx.Consume();
  ctx.Match(TokenType::kKwExists);
  return true;
}

std::vector<std::string> ParseTypeList(ParseContext& ctx) {
  std::vector<std::string> types;
  ctx.Match(TokenType::kLParen);
  if (ctx.LA(1) != TokenType::kRParen) {
    types.push_back(ParseComparatorType(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      types.push_back(ParseComparatorType(ctx));
    }
  }
  ctx.Match(TokenType::kRParen);
  return types;
}

std::vector<std::string> ParsePartitionKey(ParseContext& ctx) {
  std::vector<std::string> key;
  if (ctx.LA(1) != TokenType::kLParen) {
    key.push_back(ParseIdent(ctx));
    return key;
  }
  ctx.Consume();
  key.push_back(ParseIdent(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    key.push_back(ParseIdent(ctx));
  }
  ctx.Match(TokenType::kRParen);
  return key;
}

void ParseClusteringOrder(ParseContext& ctx, const char* what, const QualifiedName& name,
                          std::vector<Ordering>& order) {
  ctx.Match(TokenType::kLParen);
  while (true) {
    Ordering ordering;
    ordering.column = ParseIdent(ctx);
    if (ctx.LA(1) == TokenType::kKwDesc) {
      ordering.descending = true;
    } else if (ctx.LA(1) != TokenType::kKwAsc) {
      ctx.NoViableAlt(1);
    }
    ctx.Consume();
    for (const Ordering& existing : order) {
      if (existing.column == ordering.column) {
        ctx.InvalidInAction("Duplicate column '" + ordering.column +
                            "' in CLUSTERING ORDER BY clause for " + what + " '" +
                            QualifiedNameText(name) + "'");
      }
    }
    order.push_back(std::move(ordering));
    if (ctx.LA(1) != TokenType::kComma) break;
    ctx.Consume();
  }
  ctx.Match(TokenType::kRParen);
}

std::string QualifiedNameText(const QualifiedName& name) {
  return name.keyspace ? *name.keyspace + "." + name.name : name.name;
}

}  // namespace sibyl::cql::parser_internal
