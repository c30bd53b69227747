// INSERT, UPDATE, DELETE, BATCH and TRUNCATE, with the checks Parser.g's
// actions make while parsing (addRawUpdate's "Multiple incompatible setting
// of column", normalColumnOperation's "Only expressions of the form ...").

#include "cql/dml_parser.h"

#include "cql/name_parser.h"
#include "cql/relation_parser.h"
#include "cql/term_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

using OpKind = UpdateOperation::Kind;

bool IsMarkerStart(TokenType type) {
  return type == TokenType::kQmark || type == TokenType::kColon;
}

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

// relationType, already checked with IsRelationType.
Relation::Op ParseRelationOp(ParseContext& ctx) {
  TokenType type = ctx.LA(1);
  ctx.Consume();
  switch (type) {
    case TokenType::kEq:
      return Relation::Op::kEq;
    case TokenType::kLt:
      return Relation::Op::kLt;
    case TokenType::kLte:
      return Relation::Op::kLte;
    case TokenType::kGt:
      return Relation::Op::kGt;
    case TokenType::kGte:
      return Relation::Op::kGte;
    default:
      return Relation::Op::kNeq;
  }
}

// usingClause: USING objective (AND objective)*, objective TIMESTAMP n | TTL n.
// A repeated objective replaces the earlier one, as in Cassandra.
void ParseUsingClause(ParseContext& ctx, Attributes& attributes) {
  ctx.Consume();  // USING
  while (true) {
    if (ctx.LA(1) == TokenType::kKwTimestamp) {
      ctx.Consume();
      attributes.timestamp = ParseIntValue(ctx);
    } else if (ctx.LA(1) == TokenType::kKwTtl) {
      ctx.Consume();
      attributes.ttl = ParseIntValue(ctx);
    } else {
      ctx.NoViableAlt(1);
    }
    if (ctx.LA(1) != TokenType::kKwAnd) return;
    ctx.Consume();
  }
}

// The right-hand side of IN in a condition: singleColumnInValues or inMarker.
void ParseConditionInValues(ParseContext& ctx, Condition& condition) {
  ctx.Consume();  // IN
  condition.op = Relation::Op::kIn;
  if (IsMarkerStart(ctx.LA(1))) {
    condition.values.push_back(ParseBindMarker(ctx));
    condition.in_marker = true;
    return;
  }
  ctx.Match(TokenType::kLParen);
  if (ctx.LA(1) != TokenType::kRParen) {
    condition.values.push_back(ParseTerm(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      condition.values.push_back(ParseTerm(ctx));
    }
  }
  ctx.Match(TokenType::kRParen);
}

// op term | IN values, after the condition's left-hand side.
void ParseConditionRhs(ParseContext& ctx, Condition& condition) {
  if (ctx.LA(1) == TokenType::kKwIn) {
    ParseConditionInValues(ctx, condition);
  } else if (IsRelationType(ctx.LA(1))) {
    condition.op = ParseRelationOp(ctx);
    condition.values.push_back(ParseTerm(ctx));
  } else {
    ctx.NoViableAlt(1);
  }
}

// columnCondition.
Condition ParseCondition(ParseContext& ctx) {
  Condition condition;
  condition.column = ParseCident(ctx);
  if (ctx.LA(1) == TokenType::kLBracket) {
    ctx.Consume();
    condition.lhs = Condition::Lhs::kElement;
    condition.element = ParseTerm(ctx);
    ctx.Match(TokenType::kRBracket);
  } else if (ctx.LA(1) == TokenType::kDot) {
    ctx.Consume();
    condition.lhs = Condition::Lhs::kField;
    condition.field = ParseIdent(ctx);
  }
  ParseConditionRhs(ctx, condition);
  return condition;
}

// (IF (EXISTS | conditions))? of UPDATE and DELETE. `exists` is also a
// column name: it is the keyword unless a condition's operator follows.
void ParseUpdateConditions(ParseContext& ctx, bool& if_exists, std::vector<Condition>& conditions) {
  if (ctx.LA(1) != TokenType::kKwIf) return;
  ctx.Consume();
  TokenType second = ctx.LA(2);
  bool condition_follows = IsRelationType(second) || second == TokenType::kKwIn ||
                           second == TokenType::kLBracket || second == TokenType::kDot;
  if (ctx.LA(1) == TokenType::kKwExists && !condition_follows) {
    ctx.Consume();
    if_exists = true;
    return;
  }
  conditions.push_back(ParseCondition(ctx));
  while (ctx.LA(1) == TokenType::kKwAnd) {
    ctx.Consume();
    conditions.push_back(ParseCondition(ctx));
  }
}

// Operation.RawUpdate.isCompatibleWith, as addRawUpdate applies it.
bool IsCompatible(const UpdateOperation& existing, const UpdateOperation& added) {
  if (existing.kind == OpKind::kSet) return false;
  if (existing.kind == OpKind::kSetField && added.kind == OpKind::kSetField) {
    return existing.field != added.field;
  }
  return added.kind != OpKind::kSet;
}

void AddOperation(ParseContext& ctx, std::vector<UpdateOperation>& operations,
                  UpdateOperation operation) {
  for (const UpdateOperation& existing : operations) {
    if (existing.column == operation.column && !IsCompatible(existing, operation)) {
      ctx.ActionError("Multiple incompatible setting of column " + operation.column);
    }
  }
  operations.push_back(std::move(operation));
}

// normalColumnOperation, after `key =`:
//   term ['+' key]       set, or prepend when `+ key` follows
//   key ('+' | '-') term add / subtract
//   key INTEGER          add (`c = c - 3` lexes as c, c, -3)
void ParseNormalOperation(ParseContext& ctx, UpdateOperation& operation) {
  const std::string& key = operation.column;
  if (IsCidentToken(ctx.LA(1)) &&
      (ctx.LA(2) == TokenType::kPlus || ctx.LA(2) == TokenType::kMinus)) {
    std::string column = ParseCident(ctx);
    bool plus = ctx.LA(1) == TokenType::kPlus;
    ctx.Consume();
    if (column != key) {
      ctx.ActionError(std::string("Only expressions of the form X = X ") + (plus ? "+" : "-") +
                      "<value> are supported.");
    }
    operation.kind = plus ? OpKind::kAdd : OpKind::kSubtract;
    operation.value = ParseTerm(ctx);
    return;
  }
  if (IsCidentToken(ctx.LA(1)) && ctx.LA(2) == TokenType::kInteger) {
    std::string column = ParseCident(ctx);
    Term integer = ParseConstant(ctx);
    if (column != key) {
      ctx.ActionError(std::string("Only expressions of the form X = X ") +
                      (integer.text[0] == '-' ? "-" : "+") + " <value> are supported.");
    }
    operation.kind = OpKind::kAdd;
    operation.value = std::move(integer);
    return;
  }
  operation.value = ParseTerm(ctx);
  operation.kind = OpKind::kSet;
  if (ctx.LA(1) == TokenType::kPlus) {
    ctx.Consume();
    std::string column = ParseCident(ctx);
    if (column != key) {
      ctx.ActionError("Only expressions of the form X = <value> + X are supported.");
    }
    operation.kind = OpKind::kPrepend;
  }
}

// columnOperation: key followed by its differentiator.
void ParseColumnOperation(ParseContext& ctx, std::vector<UpdateOperation>& operations) {
  UpdateOperation operation;
  operation.column = ParseCident(ctx);
  switch (ctx.LA(1)) {
    case TokenType::kEq:
      ctx.Consume();
      ParseNormalOperation(ctx, operation);
      break;
    case TokenType::kPlusEq:
    case TokenType::kMinusEq:
      operation.kind = ctx.LA(1) == TokenType::kPlusEq ? OpKind::kAdd : OpKind::kSubtract;
      ctx.Consume();
      operation.value = ParseTerm(ctx);
      break;
    case TokenType::kLBracket:
      ctx.Consume();
      operation.kind = OpKind::kSetElement;
      operation.element = ParseTerm(ctx);
      ctx.Match(TokenType::kRBracket);
      ctx.Match(TokenType::kEq);
      operation.value = ParseTerm(ctx);
      break;
    case TokenType::kDot:
      ctx.Consume();
      operation.kind = OpKind::kSetField;
      operation.field = ParseIdent(ctx);
      ctx.Match(TokenType::kEq);
      operation.value = ParseTerm(ctx);
      break;
    default:
      ctx.NoViableAlt(1);
  }
  AddOperation(ctx, operations, std::move(operation));
}

// deleteOp: c | c[term] | c.field.
Deletion ParseDeletion(ParseContext& ctx) {
  Deletion deletion;
  deletion.column = ParseCident(ctx);
  if (ctx.LA(1) == TokenType::kLBracket) {
    ctx.Consume();
    deletion.kind = Deletion::Kind::kElement;
    deletion.element = ParseTerm(ctx);
    ctx.Match(TokenType::kRBracket);
  } else if (ctx.LA(1) == TokenType::kDot) {
    ctx.Consume();
    deletion.kind = Deletion::Kind::kField;
    deletion.field = ParseIdent(ctx);
  }
  return deletion;
}

// jsonValue: STRING_LITERAL | ':' name | '?'.
Term ParseJsonValue(ParseContext& ctx) {
  if (ctx.LA(1) == TokenType::kStringLiteral) return ParseConstant(ctx);
  if (IsMarkerStart(ctx.LA(1))) return ParseBindMarker(ctx);
  ctx.NoViableAlt(1);
}

void ParseInsertTail(ParseContext& ctx, InsertStatement& insert) {
  if (ctx.LA(1) == TokenType::kKwIf) {
    ctx.Consume();
    ctx.Match(TokenType::kKwNot);
    ctx.Match(TokenType::kKwExists);
    insert.if_not_exists = true;
  }
  if (ctx.LA(1) == TokenType::kKwUsing) ParseUsingClause(ctx, insert.attributes);
}

}  // namespace

InsertStatement ParseInsertStatement(ParseContext& ctx) {
  InsertStatement insert;
  ctx.Consume();  // INSERT
  ctx.Match(TokenType::kKwInto);
  insert.table = ParseColumnFamilyName(ctx);
  if (ctx.LA(1) == TokenType::kKwJson) {
    ctx.Consume();
    insert.json = true;
    insert.json_value = ParseJsonValue(ctx);
    if (ctx.LA(1) == TokenType::kKwDefault) {
      ctx.Consume();
      if (ctx.LA(1) == TokenType::kKwUnset) {
        insert.default_unset = true;
      } else if (ctx.LA(1) != TokenType::kKwNull) {
        ctx.NoViableAlt(1);
      }
      ctx.Consume();
    }
    ParseInsertTail(ctx, insert);
    return insert;
  }
  if (ctx.LA(1) != TokenType::kLParen) ctx.NoViableAlt(1);
  ctx.Consume();
  insert.columns.push_back(ParseCident(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    insert.columns.push_back(ParseCident(ctx));
  }
  ctx.Match(TokenType::kRParen);
  ctx.Match(TokenType::kKwValues);
  ctx.Match(TokenType::kLParen);
  insert.values.reserve(insert.columns.size());
  insert.values.push_back(ParseTerm(ctx));
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    insert.values.push_back(ParseTerm(ctx));
  }
  ctx.Match(TokenType::kRParen);
  ParseInsertTail(ctx, insert);
  return insert;
}

UpdateStatement ParseUpdateStatement(ParseContext& ctx) {
  UpdateStatement update;
  ctx.Consume();  // UPDATE
  update.table = ParseColumnFamilyName(ctx);
  if (ctx.LA(1) == TokenType::kKwUsing) ParseUsingClause(ctx, update.attributes);
  ctx.Match(TokenType::kKwSet);
  ParseColumnOperation(ctx, update.operations);
  while (ctx.LA(1) == TokenType::kComma) {
    ctx.Consume();
    ParseColumnOperation(ctx, update.operations);
  }
  ctx.Match(TokenType::kKwWhere);
  update.where = ParseWhereClause(ctx);
  ParseUpdateConditions(ctx, update.if_exists, update.conditions);
  return update;
}

DeleteStatement ParseDeleteStatement(ParseContext& ctx) {
  DeleteStatement statement;
  ctx.Consume();  // DELETE
  if (ctx.LA(1) != TokenType::kKwFrom) {
    statement.deletions.push_back(ParseDeletion(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      statement.deletions.push_back(ParseDeletion(ctx));
    }
  }
  ctx.Match(TokenType::kKwFrom);
  statement.table = ParseColumnFamilyName(ctx);
  if (ctx.LA(1) == TokenType::kKwUsing) {
    // usingClauseDelete: USING TIMESTAMP n only.
    ctx.Consume();
    ctx.Match(TokenType::kKwTimestamp);
    statement.attributes.timestamp = ParseIntValue(ctx);
  }
  ctx.Match(TokenType::kKwWhere);
  statement.where = ParseWhereClause(ctx);
  ParseUpdateConditions(ctx, statement.if_exists, statement.conditions);
  return statement;
}

BatchStatement ParseBatchStatement(ParseContext& ctx) {
  BatchStatement batch;
  ctx.Consume();  // BEGIN
  if (ctx.LA(1) == TokenType::kKwUnlogged) {
    ctx.Consume();
    batch.type = BatchStatement::Type::kUnlogged;
  } else if (ctx.LA(1) == TokenType::kKwCounter) {
    ctx.Consume();
    batch.type = BatchStatement::Type::kCounter;
  }
  ctx.Match(TokenType::kKwBatch);
  if (ctx.LA(1) == TokenType::kKwUsing) ParseUsingClause(ctx, batch.attributes);
  while (true) {
    TokenType first = ctx.LA(1);
    if (first == TokenType::kKwInsert) {
      batch.statements.emplace_back(ParseInsertStatement(ctx));
    } else if (first == TokenType::kKwUpdate) {
      batch.statements.emplace_back(ParseUpdateStatement(ctx));
    } else if (first == TokenType::kKwDelete) {
      batch.statements.emplace_back(ParseDeleteStatement(ctx));
    } else {
      break;
    }
    if (ctx.LA(1) == TokenType::kSemicolon) ctx.Consume();
  }
  ctx.Match(TokenType::kKwApply);
  ctx.Match(TokenType::kKwBatch);
  return batch;
}

TruncateStatement ParseTruncateStatement(ParseContext& ctx) {
  TruncateStatement statement;
  ctx.Consume();  // TRUNCATE
  if (ctx.LA(1) == TokenType::kKwColumnFamily) ctx.Consume();
  statement.table = ParseColumnFamilyName(ctx);
  return statement;
}

}  // namespace sibyl::cql::parser_internal
