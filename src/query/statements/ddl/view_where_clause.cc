#include "query/statements/ddl/view_where_clause.h"

#include "common/error.h"
#include "cql/term_text.h"
#include "query/restrictions/relation_text.h"
#include "query/terms/literal_conversion.h"
#include "types/cql_identifier.h"
#include "types/value_to_literal.h"

namespace sibyl::query::ddl {
namespace {

using Op = cql::Relation::Op;
using RestrictionOp = schema::ViewRestriction::Op;

[[noreturn]] void ThrowNotSupported(const cql::Relation& relation, std::string_view what) {
  ThrowInvalid(std::string(what) + " " + RelationText(relation) +
               " are not supported by Sibyl in a materialized view's WHERE clause");
}

RestrictionOp ToRestrictionOp(const cql::Relation& relation) {
  switch (relation.op) {
    case Op::kIsNotNull:
      return RestrictionOp::kIsNotNull;
    case Op::kEq:
      return RestrictionOp::kEq;
    case Op::kIn:
      return RestrictionOp::kIn;
    case Op::kLt:
      return RestrictionOp::kLt;
    case Op::kLte:
      return RestrictionOp::kLte;
    case Op::kGt:
      return RestrictionOp::kGt;
    case Op::kGte:
      return RestrictionOp::kGte;
    case Op::kNeq:
      // Relation.toRestriction in 4.1 refuses != everywhere.
      ThrowInvalid("Unsupported \"!=\" relation: " + RelationText(relation));
    case Op::kContains:
      ThrowNotSupported(relation, "CONTAINS relations");
    case Op::kContainsKey:
      ThrowNotSupported(relation, "CONTAINS KEY relations");
    case Op::kLike:
      ThrowNotSupported(relation, "LIKE relations");
  }
  ThrowNotSupported(relation, "Relations");
}

const char* OpText(RestrictionOp op) {
  switch (op) {
    case RestrictionOp::kIsNotNull:
      return "IS NOT";
    case RestrictionOp::kEq:
      return "=";
    case RestrictionOp::kIn:
      return "IN";
    case RestrictionOp::kLt:
      return "<";
    case RestrictionOp::kLte:
      return "<=";
    case RestrictionOp::kGt:
      return ">";
    case RestrictionOp::kGte:
      return ">=";
  }
  return "=";
}

Bytes ConvertValue(const cql::Term& term, const schema::ColumnMetadata& column) {
  if (term.kind == cql::Term::Kind::kNull) {
    ThrowInvalid("Invalid null value in condition for column " +
                 types::MaybeQuoteIdentifier(column.name));
  }
  return ConvertLiteral(term, column.name, *column.type);
}

// SingleColumnRelation.toCQLString: the column's CQL name, the operator, the
// term as written (Term.Raw.getText); IN's terms as a tuple, IS NOT NULL's as NULL.
std::string RelationCql(const cql::Relation& relation, const schema::ColumnMetadata& column) {
  std::string text = types::MaybeQuoteIdentifier(column.name) + " " + OperatorText(relation.op);
  if (relation.op == Op::kIsNotNull) return text + " NULL";
  if (relation.op == Op::kIn) {
    text += " (";
    for (size_t i = 0; i < relation.terms.size(); ++i) {
      text += (i > 0 ? ", " : "") + cql::TermText(relation.terms[i]);
    }
    return text + ")";
  }
  return text + " " + cql::TermText(relation.terms.at(0));
}

}  // namespace

ViewWhereClause PrepareViewWhereClause(const schema::TableMetadata& base,
                                       const std::vector<cql::Relation>& where) {
  ViewWhereClause clause;
  for (const cql::Relation& relation : where) {
    switch (relation.lhs) {
      case cql::Relation::Lhs::kColumn:
        break;
      case cql::Relation::Lhs::kColumnTuple:
        ThrowNotSupported(relation, "Multi-column relations");
      case cql::Relation::Lhs::kMapElement:
        ThrowNotSupported(relation, "Map element relations");
      case cql::Relation::Lhs::kToken:
      case cql::Relation::Lhs::kCustomIndexExpression:
        ThrowNotSupported(relation, "Relations");
    }
    const schema::ColumnMetadata& column =
        base.columns[base.ExistingColumnIndex(relation.columns.at(0))];
    schema::ViewRestriction restriction;
    restriction.column = column.name;
    restriction.op = ToRestrictionOp(relation);
    if (relation.op != Op::kIsNotNull) {
      for (const cql::Term& term : relation.terms) {
        restriction.values.push_back(ConvertValue(term, column));
      }
    }
    if (!clause.text.empty()) clause.text += " AND ";
    clause.text += RelationCql(relation, column);
    clause.restrictions.push_back(std::move(restriction));
  }
  return clause;
}

std::string ViewWhereClauseText(const schema::TableMetadata& table,
                                const std::vector<schema::ViewRestriction>& restrictions) {
  std::string text;
  for (const schema::ViewRestriction& restriction : restrictions) {
    if (!text.empty()) text += " AND ";
    text += types::MaybeQuoteIdentifier(restriction.column) + " " + OpText(restriction.op);
    if (restriction.op == RestrictionOp::kIsNotNull) {
      text += " NULL";
      continue;
    }
    const schema::ColumnMetadata* column = table.FindColumn(restriction.column);
    std::vector<std::string> values;
    for (const Bytes& value : restriction.values) {
      values.push_back(column == nullptr ? "?" : types::ToCqlLiteral(*column->type, value));
    }
    if (restriction.op == RestrictionOp::kIn) {
      text += " (";
      for (size_t i = 0; i < values.size(); ++i) text += (i > 0 ? ", " : "") + values[i];
      text += ")";
    } else if (!values.empty()) {
      text += " " + values[0];
    }
  }
  return text;
}

}  // namespace sibyl::query::ddl
