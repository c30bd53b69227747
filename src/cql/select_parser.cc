#include "cql/select_parser.h"

#include "cql/name_parser.h"
#include "cql/relation_parser.h"
#include "cql/selector_parser.h"
#include "cql/term_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// selectClause: DISTINCT selectors | selectors. `distinct` is also a valid
// column name, so DISTINCT is the keyword only when selectors follow it
// (Parser.g's syntactic predicate).
void ParseSelectClause(ParseContext& ctx, SelectStatement& select) {
  if (ctx.LA(1) == TokenType::kKwDistinct && ctx.Speculate([&] {
        ctx.Consume();
        bool star = false;
        ParseSelectors(ctx, star);
      })) {
    ctx.Consume();
    select.distinct = true;
  }
  select.selectors = ParseSelectors(ctx, select.select_star);
}

Ordering ParseOrdering(ParseContext& ctx) {
  Ordering ordering;
  ordering.column = ParseCident(ctx);
  if (ctx.LA(1) == TokenType::kKwAsc) {
    ctx.Consume();
  } else if (ctx.LA(1) == TokenType::kKwDesc) {
    ctx.Consume();
    ordering.descending = true;
  }
  return ordering;
}

}  // namespace

SelectStatement ParseSelectStatement(ParseContext& ctx) {
  SelectStatement select;
  ctx.Match(TokenType::kKwSelect);
  // JSON is a valid column name too: it is the keyword only when a select
  // clause follows it.
  if (ctx.LA(1) == TokenType::kKwJson && ctx.Speculate([&] {
        ctx.Consume();
        SelectStatement ignored;
        ParseSelectClause(ctx, ignored);
      })) {
    ctx.Consume();
    select.json = true;
  }
  ParseSelectClause(ctx, select);
  ctx.Match(TokenType::kKwFrom);
  select.table = ParseColumnFamilyName(ctx);
  if (ctx.LA(1) == TokenType::kKwWhere) {
    ctx.Consume();
    select.where = ParseWhereClause(ctx);
  }
  if (ctx.LA(1) == TokenType::kKwGroup) {
    ctx.Consume();
    ctx.Match(TokenType::kKwBy);
    select.group_by.push_back(ParseCident(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      select.group_by.push_back(ParseCident(ctx));
    }
  }
  if (ctx.LA(1) == TokenType::kKwOrder) {
    ctx.Consume();
    ctx.Match(TokenType::kKwBy);
    select.order_by.push_back(ParseOrdering(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      select.order_by.push_back(ParseOrdering(ctx));
    }
  }
  if (ctx.LA(1) == TokenType::kKwPer) {
    ctx.Consume();
    ctx.Match(TokenType::kKwPartition);
    ctx.Match(TokenType::kKwLimit);
    select.per_partition_limit = ParseIntValue(ctx);
  }
  if (ctx.LA(1) == TokenType::kKwLimit) {
    ctx.Consume();
    select.limit = ParseIntValue(ctx);
  }
  if (ctx.LA(1) == TokenType::kKwAllow) {
    ctx.Consume();
    ctx.Match(TokenType::kKwFiltering);
    select.allow_filtering = true;
  }
  return select;
}

}  // namespace sibyl::cql::parser_internal
