// DESCRIBE / DESC in all its forms (Parser.g's describeStatement).
//
// The listing keywords (CLUSTER, KEYSPACES, TABLES, TYPES, FUNCTIONS,
// AGGREGATES) and the element keywords (TYPE, FUNCTION, AGGREGATE, ONLY) are
// unreserved, so they are also names for the generic form `DESCRIBE
// [ks.]name`; as in Cassandra the token after them decides.

#include "cql/admin_parsers.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

using Kind = DescribeStatement::Kind;

bool IsListingKeyword(TokenType type, Kind& kind) {
  switch (type) {
    case TokenType::kKwCluster:
      kind = Kind::kCluster;
      return true;
    case TokenType::kKwKeyspaces:
      kind = Kind::kKeyspaces;
      return true;
    case TokenType::kKwTables:
      kind = Kind::kTables;
      return true;
    case TokenType::kKwTypes:
      kind = Kind::kTypes;
      return true;
    case TokenType::kKwFunctions:
      kind = Kind::kFunctions;
      return true;
    case TokenType::kKwAggregates:
      kind = Kind::kAggregates;
      return true;
    default:
      return false;
  }
}

// The generic form: ((IDENT | QUOTED_NAME | unreserved_keyword) '.')? (same).
QualifiedName ParseGenericName(ParseContext& ctx) {
  QualifiedName name;
  if (!IsIdentToken(ctx.LA(1))) ctx.NoViableAlt(1);
  if (ctx.LA(2) == TokenType::kDot) {
    name.keyspace = ParseIdent(ctx);
    ctx.Consume();  // '.'
  }
  name.name = ParseIdent(ctx);
  return name;
}

void ParseDescribeTarget(ParseContext& ctx, DescribeStatement& describe) {
  TokenType first = ctx.LA(1);
  TokenType second = ctx.LA(2);
  Kind listing;
  if (IsListingKeyword(first, listing) && second != TokenType::kDot) {
    ctx.Consume();
    describe.kind = listing;
    return;
  }
  switch (first) {
    case TokenType::kKwFull:
      ctx.Consume();
      ctx.Match(TokenType::kKwSchema);
      describe.kind = Kind::kSchema;
      describe.full_schema = true;
      return;
    case TokenType::kKwSchema:
      ctx.Consume();
      describe.kind = Kind::kSchema;
      return;
    case TokenType::kKwOnly:
      if (second != TokenType::kKwKeyspace) break;  // a table named "only"
      ctx.Consume();
      describe.only_keyspace = true;
      [[fallthrough]];
    case TokenType::kKwKeyspace:
      ctx.Consume();
      describe.kind = Kind::kKeyspace;
      if (IsIdentToken(ctx.LA(1)) || ctx.LA(1) == TokenType::kQmark) {
        describe.keyspace = ParseKeyspaceName(ctx);
      }
      return;
    case TokenType::kKwColumnFamily:
      ctx.Consume();
      describe.kind = Kind::kTable;
      describe.name = ParseColumnFamilyName(ctx);
      return;
    case TokenType::kKwIndex:
      ctx.Consume();
      describe.kind = Kind::kIndex;
      describe.name = ParseColumnFamilyName(ctx);
      return;
    case TokenType::kKwMaterialized:
      ctx.Consume();
      ctx.Match(TokenType::kKwView);
      describe.kind = Kind::kMaterializedView;
      describe.name = ParseColumnFamilyName(ctx);
      return;
    case TokenType::kKwType:
      if (!IsIdentToken(second)) break;
      ctx.Consume();
      describe.kind = Kind::kType;
      describe.name = ParseUserTypeName(ctx);
      return;
    case TokenType::kKwFunction:
    case TokenType::kKwAggregate:
      if (!IsFunctionNameToken(second) && second != TokenType::kQmark) break;
      ctx.Consume();
      describe.kind = first == TokenType::kKwFunction ? Kind::kFunction : Kind::kAggregate;
      describe.name = ParseQualifiedFunctionName(ctx);
      return;
    default:
      break;
  }
  describe.kind = Kind::kGeneric;
  describe.name = ParseGenericName(ctx);
}

}  // namespace

DescribeStatement ParseDescribeStatement(ParseContext& ctx) {
  DescribeStatement describe;
  ctx.Consume();  // DESCRIBE | DESC
  ParseDescribeTarget(ctx, describe);
  if (ctx.LA(1) == TokenType::kKwWith) {
    ctx.Consume();
    ctx.Match(TokenType::kKwInternals);
    describe.with_internals = true;
  }
  return describe;
}

}  // namespace sibyl::cql::parser_internal
