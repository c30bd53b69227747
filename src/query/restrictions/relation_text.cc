#include "query/restrictions/relation_text.h"

#include <string>
#include <vector>

#include "cql/term_text.h"

namespace sibyl::query {
namespace {

using Op = cql::Relation::Op;

std::string ColumnsText(const std::vector<std::string>& names) {
  std::string text = "(";
  for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
  return text + ")";
}

}  // namespace

const char* OperatorText(Op op) {
  switch (op) {
    case Op::kEq:
      return "=";
    case Op::kNeq:
      return "!=";
    case Op::kLt:
      return "<";
    case Op::kLte:
      return "<=";
    case Op::kGt:
      return ">";
    case Op::kGte:
      return ">=";
    case Op::kIn:
      return "IN";
    case Op::kContains:
      return "CONTAINS";
    case Op::kContainsKey:
      return "CONTAINS KEY";
    case Op::kLike:
      return "LIKE";
    case Op::kIsNotNull:
      return "IS NOT";
  }
  return "?";
}

std::string RelationText(const cql::Relation& relation) {
  std::string lhs;
  switch (relation.lhs) {
    case cql::Relation::Lhs::kToken:
      lhs = "token" + ColumnsText(relation.columns);
      break;
    case cql::Relation::Lhs::kColumnTuple:
      lhs = ColumnsText(relation.columns);
      break;
    case cql::Relation::Lhs::kMapElement:
      lhs = relation.columns.at(0) + "[" +
            (relation.map_key ? cql::TermText(*relation.map_key) : std::string()) + "]";
      break;
    default:
      lhs = relation.columns.empty() ? std::string() : relation.columns[0];
  }
  if (relation.op == Op::kIsNotNull) return lhs + " IS NOT NULL";
  if (relation.op == Op::kIn) {
    if (relation.in_marker) return lhs + " IN ?";
    // Java's List.toString for single columns, Tuples.tupleToString for tuples.
    const bool tuple = relation.lhs == cql::Relation::Lhs::kColumnTuple;
    std::string values = tuple ? "(" : "[";
    for (size_t i = 0; i < relation.terms.size(); ++i) {
      values += (i ? ", " : "") + cql::TermText(relation.terms[i]);
    }
    return lhs + " IN " + values + (tuple ? ")" : "]");
  }
  const std::string value = relation.terms.empty() ? "" : cql::TermText(relation.terms[0]);
  return lhs + " " + OperatorText(relation.op) + " " + value;
}

}  // namespace sibyl::query
