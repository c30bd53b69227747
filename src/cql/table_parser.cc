// CREATE / ALTER / DROP TABLE (Parser.g's createTableStatement,
// tableDefinition, tableColumns, tableProperty, alterTableStatement,
// dropTableStatement), with the checks CreateTableStatement.Raw makes while
// the statement is parsed.

#include <charconv>

#include "cql/clause_parser.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/option_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

void SetPartitionKey(ParseContext& ctx, CreateTableStatement& table,
                     std::vector<std::string> columns) {
  if (!table.partition_key.empty()) {
    ctx.InvalidInAction("Multiple PRIMARY KEY specified for table '" +
                        QualifiedNameText(table.table) + "' (exactly one required)");
  }
  table.partition_key = std::move(columns);
}

void AddColumn(ParseContext& ctx, CreateTableStatement& table, ColumnDefinition column) {
  for (const ColumnDefinition& existing : table.columns) {
    if (existing.name == column.name) {
      ctx.InvalidInAction("Duplicate column '" + column.name + "' declaration for table '" +
                          QualifiedNameText(table.table) + "'");
    }
  }
  table.columns.push_back(std::move(column));
}

// tableColumns: `name type [STATIC] [PRIMARY KEY]` or
// `PRIMARY KEY (partition key, clustering columns...)`.
void ParseTableColumns(ParseContext& ctx, CreateTableStatement& table) {
  if (ctx.LA(1) == TokenType::kKwPrimary) {
    ctx.Consume();
    ctx.Match(TokenType::kKwKey);
    ctx.Match(TokenType::kLParen);
    SetPartitionKey(ctx, table, ParsePartitionKey(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      table.clustering_columns.push_back(ParseIdent(ctx));
    }
    ctx.Match(TokenType::kRParen);
    return;
  }
  if (!IsIdentToken(ctx.LA(1))) ctx.NoViableAlt(1);
  ColumnDefinition column;
  column.name = ParseIdent(ctx);
  column.type = ParseComparatorType(ctx);
  if (ctx.LA(1) == TokenType::kKwStatic) {
    ctx.Consume();
    column.is_static = true;
  }
  std::string name = column.name;
  AddColumn(ctx, table, std::move(column));
  if (ctx.LA(1) == TokenType::kKwPrimary) {
    ctx.Consume();
    ctx.Match(TokenType::kKwKey);
    SetPartitionKey(ctx, table, {std::move(name)});
  }
}

bool StartsTableColumns(TokenType type) {
  return type == TokenType::kKwPrimary || IsIdentToken(type);
}

// tableProperty: a property, COMPACT STORAGE or CLUSTERING ORDER BY (...).
// `compact` and `clustering` are also valid property names: the token after
// them decides.
void ParseTableProperty(ParseContext& ctx, CreateTableStatement& table) {
  if (ctx.LA(1) == TokenType::kKwCompact && ctx.LA(2) == TokenType::kKwStorage) {
    ctx.Consume();
    ctx.Consume();
    table.compact_storage = true;
    return;
  }
  if (ctx.LA(1) == TokenType::kKwClustering && ctx.LA(2) == TokenType::kKwOrder) {
    ctx.Consume();
    ctx.Consume();
    ctx.Match(TokenType::kKwBy);
    ParseClusteringOrder(ctx, "table", table.table, table.clustering_order);
    return;
  }
  ParseProperty(ctx, table.options);
}

// `name type [STATIC]` of ALTER TABLE ADD.
ColumnDefinition ParseAddedColumn(ParseContext& ctx) {
  ColumnDefinition column;
  column.name = ParseIdent(ctx);
  column.type = ParseComparatorType(ctx);
  if (ctx.LA(1) == TokenType::kKwStatic) {
    ctx.Consume();
    column.is_static = true;
  }
  return column;
}

void ParseAddColumns(ParseContext& ctx, AlterTableStatement& alter) {
  ctx.Consume();  // ADD
  alter.kind = AlterTableStatement::Kind::kAddColumns;
  alter.if_column_not_exists = ParseIfNotExists(ctx);
  if (ctx.LA(1) != TokenType::kLParen) {
    alter.added_columns.push_back(ParseAddedColumn(ctx));
    return;
  }
  ctx.Consume();
  alter.added_columns.push_back(ParseAddedColumn(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    alter.added_columns.push_back(ParseAddedColumn(ctx));
  }
  ctx.Match(TokenType::kRParen);
}

// USING TIMESTAMP n of ALTER TABLE DROP: Cassandra reads it with
// Long.parseLong, whose failure ends the parse as a runtime error.
int64_t ParseDropTimestamp(ParseContext& ctx) {
  const Token& token = ctx.Match(TokenType::kInteger);
  int64_t value = 0;
  std::string_view text = token.text;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    ctx.RuntimeFailureInAction("NumberFormatException",
                               "For input string: \"" + std::string(text) + "\"");
  }
  return value;
}

void ParseDropColumns(ParseContext& ctx, AlterTableStatement& alter) {
  ctx.Consume();  // DROP
  alter.kind = AlterTableStatement::Kind::kDropColumns;
  alter.if_column_exists = ParseIfExists(ctx);
  if (ctx.LA(1) == TokenType::kLParen) {
    ctx.Consume();
    alter.dropped_columns.push_back(ParseIdent(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      alter.dropped_columns.push_back(ParseIdent(ctx));
    }
    ctx.Match(TokenType::kRParen);
  } else {
    alter.dropped_columns.push_back(ParseIdent(ctx));
  }
  if (ctx.LA(1) == TokenType::kKwUsing) {
    ctx.Consume();
    ctx.Match(TokenType::kKwTimestamp);
    alter.drop_timestamp = ParseDropTimestamp(ctx);
  }
}

void ParseRenameColumns(ParseContext& ctx, AlterTableStatement& alter) {
  ctx.Consume();  // RENAME
  alter.kind = AlterTableStatement::Kind::kRenameColumns;
  alter.if_column_exists = ParseIfExists(ctx);
  while (true) {
    std::string from = ParseIdent(ctx);
    ctx.Match(TokenType::kKwTo);
    alter.renames.emplace_back(std::move(from), ParseIdent(ctx));
    if (ctx.LA(1) != TokenType::kKwAnd) break;
    ctx.Consume();
  }
}

}  // namespace

CreateTableStatement ParseCreateTable(ParseContext& ctx) {
  CreateTableStatement table;
  ctx.Consume();  // CREATE
  ctx.Match(TokenType::kKwColumnFamily);
  table.if_not_exists = ParseIfNotExists(ctx);
  table.table = ParseColumnFamilyName(ctx);
  // tableDefinition: '(' tableColumns (',' tableColumns?)* ')' (WITH ...)?
  ctx.Match(TokenType::kLParen);
  ParseTableColumns(ctx, table);
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    if (StartsTableColumns(ctx.LA(1))) ParseTableColumns(ctx, table);
  }
  ctx.Match(TokenType::kRParen);
  if (ctx.LA(1) == TokenType::kKwWith) {
    ctx.Consume();
    ParseTableProperty(ctx, table);
    while (ctx.LA(1) == TokenType::kKwAnd) {
      ctx.Consume();
      ParseTableProperty(ctx, table);
    }
  }
  return table;
}

AlterTableStatement ParseAlterTable(ParseContext& ctx) {
  AlterTableStatement alter;
  ctx.Consume();  // ALTER
  ctx.Match(TokenType::kKwColumnFamily);
  alter.if_exists = ParseIfExists(ctx);
  alter.table = ParseColumnFamilyName(ctx);
  switch (ctx.LA(1)) {
    case TokenType::kKwAlter: {
      ctx.Consume();
      alter.kind = AlterTableStatement::Kind::kAlterColumnType;
      ColumnDefinition column;
      column.name = ParseCident(ctx);
      ctx.Match(TokenType::kKwType);
      column.type = ParseComparatorType(ctx);
      alter.added_columns.push_back(std::move(column));
      break;
    }
    case TokenType::kKwAdd:
      ParseAddColumns(ctx, alter);
      break;
    case TokenType::kKwDrop:
      // DROP COMPACT STORAGE, unless `compact` is the column being dropped.
      if (ctx.LA(2) == TokenType::kKwCompact && ctx.LA(3) == TokenType::kKwStorage) {
        ctx.Consume();
        ctx.Consume();
        ctx.Consume();
        alter.kind = AlterTableStatement::Kind::kDropCompactStorage;
      } else {
        ParseDropColumns(ctx, alter);
      }
      break;
    case TokenType::kKwRename:
      ParseRenameColumns(ctx, alter);
      break;
    case TokenType::kKwWith:
      ctx.Consume();
      alter.kind = AlterTableStatement::Kind::kWithOptions;
      alter.options = ParseProperties(ctx);
      break;
    default:
      ctx.NoViableAlt(1);
  }
  return alter;
}

DropTableStatement ParseDropTable(ParseContext& ctx) {
  DropTableStatement statement;
  ctx.Consume();  // DROP
  ctx.Match(TokenType::kKwColumnFamily);
  statement.if_exists = ParseIfExists(ctx);
  statement.table = ParseColumnFamilyName(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
