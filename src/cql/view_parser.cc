// CREATE / ALTER / DROP MATERIALIZED VIEW (Parser.g's
// createMaterializedViewStatement, viewPrimaryKey, viewProperty,
// alterMaterializedViewStatement, dropMaterializedViewStatement).

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/option_parser.h"
#include "cql/relation_parser.h"
#include "cql/selector_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

// viewProperty: a property, COMPACT STORAGE (refused) or CLUSTERING ORDER BY.
void ParseViewProperty(ParseContext& ctx, CreateViewStatement& view) {
  if (ctx.LA(1) == TokenType::kKwCompact && ctx.LA(2) == TokenType::kKwStorage) {
    ctx.Consume();
    ctx.Consume();
    ctx.ThrowInAction("COMPACT STORAGE tables are not allowed starting with version 4.0");
    return;
  }
  if (ctx.LA(1) == TokenType::kKwClustering && ctx.LA(2) == TokenType::kKwOrder) {
    ctx.Consume();
    ctx.Consume();
    ctx.Match(TokenType::kKwBy);
    ParseClusteringOrder(ctx, "view", view.view, view.clustering_order);
    return;
  }
  ParseProperty(ctx, view.options);
}

}  // namespace

CreateViewStatement ParseCreateView(ParseContext& ctx) {
  CreateViewStatement view;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwMaterialized);
  ctx.Match(TokenType::kKwView);
  view.if_not_exists = ParseIfNotExists(ctx);
  view.view = ParseColumnFamilyName(ctx);
  ctx.Match(TokenType::kKwAs);
  ctx.Match(TokenType::kKwSelect);
  view.selectors = ParseSelectors(ctx, view.select_star);
  ctx.Match(TokenType::kKwFrom);
  view.base_table = ParseColumnFamilyName(ctx);
  if (ctx.LA(1) == TokenType::kKwWhere) {
    ctx.Consume();
    view.where = ParseWhereClause(ctx);
  }
  // viewPrimaryKey: PRIMARY KEY '(' viewPartitionKey (',' ident)* ')'
  ctx.Match(TokenType::kKwPrimary);
  ctx.Match(TokenType::kKwKey);
  ctx.Match(TokenType::kLParen);
  view.partition_key = ParsePartitionKey(ctx);
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    view.clustering_columns.push_back(ParseIdent(ctx));
  }
  ctx.Match(TokenType::kRParen);
  if (ctx.LA(1) == TokenType::kKwWith) {
    ctx.Consume();
    ParseViewProperty(ctx, view);
    while (ctx.LA(1) == TokenType::kKwAnd) {
      ctx.Consume();
      ParseViewProperty(ctx, view);
    }
  }
  return view;
}

AlterViewStatement ParseAlterView(ParseContext& ctx) {
  AlterViewStatement statement;
  ctx.Consume();  // ALTER
  ctx.Match(TokenType::kKwMaterialized);
  ctx.Match(TokenType::kKwView);
  statement.if_exists = ParseIfExists(ctx);
  statement.view = ParseColumnFamilyName(ctx);
  ctx.Match(TokenType::kKwWith);
  statement.options = ParseProperties(ctx);
  return statement;
}

DropViewStatement ParseDropView(ParseContext& ctx) {
  DropViewStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwMaterialized);
  ctx.Match(TokenType::kKwView);
  statement.if_exists = ParseIfExists(ctx);
  statement.view = ParseColumnFamilyName(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
