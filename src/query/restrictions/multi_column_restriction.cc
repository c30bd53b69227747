// Tuple relations on clustering columns (`(c1, c2) = (1, 2)`, `(c1, c2) IN
// ((1, 2), (3, 4))`, `(c1, c2) > (1, 2)`) as Cassandra 4.1's
// MultiColumnRelation prepares them and MultiColumnRestriction merges them
// (single-column relations on the same columns are converted and merged, so
// `(c1, c2) > (1, 2) AND c1 < 3` is one slice).

#include <algorithm>
#include <string>

#include "common/error.h"
#include "cql/term_text.h"
#include "query/restrictions/restriction_preparation.h"

namespace sibyl::query::restriction_preparation {
namespace {

using Op = cql::Relation::Op;
using schema::TableMetadata;

// "(c1,c2)": how Cassandra names the receiver of a marker standing for a tuple.
std::string TupleReceiverName(const TableMetadata& table, size_t first, size_t count) {
  std::string name = "(";
  for (size_t i = 0; i < count; ++i) name += (i ? "," : "") + table.columns[first + i].name;
  return name + ")";
}

types::TypePtr TupleType(const TableMetadata& table, size_t first, size_t count) {
  std::vector<types::TypePtr> types;
  types.reserve(count);
  for (size_t i = 0; i < count; ++i) types.push_back(table.columns[first + i].type);
  return types::CqlType::Tuple(std::move(types));
}

TupleTerm PrepareTuple(const TableMetadata& table, size_t first, size_t count,
                       const cql::Term& term, BindSpecCollector& binds) {
  TupleTerm tuple;
  tuple.size = count;
  if (term.kind == cql::Term::Kind::kBindMarker) {
    tuple.marker = PrepareTerm(term, TupleReceiverName(table, first, count),
                               TupleType(table, first, count), binds);
    return tuple;
  }
  if (term.kind != cql::Term::Kind::kTuple) {
    ThrowInvalid("Invalid value " + cql::TermText(term) + " for a multi-column relation");
  }
  if (term.elements.size() != count) {
    ThrowInvalid("Expected " + std::to_string(count) + " elements in value tuple, but got " +
                 std::to_string(term.elements.size()) + ": " + cql::TermText(term));
  }
  tuple.elements.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const auto& column = table.columns[first + i];
    tuple.elements.push_back(PrepareTerm(term.elements[i], column.name, column.type, binds));
  }
  return tuple;
}

TupleTerm OneColumnTuple(const PreparedTerm& term) {
  TupleTerm tuple;
  tuple.elements.push_back(term);
  tuple.size = 1;
  return tuple;
}

// Cassandra's getColumnsInCommons: the shared columns' names joined by " ,".
std::string ColumnsInCommon(const TableMetadata& table, const MultiColumnRestriction& a,
                            const MultiColumnRestriction& b) {
  std::string names;
  const size_t begin = std::max(a.first, b.first);
  const size_t end = std::min(a.last(), b.last());
  for (size_t i = begin; i <= end; ++i) {
    if (!names.empty()) names += " ,";
    names += table.columns[i].name;
  }
  return names;
}

}  // namespace

MultiColumnRestriction PrepareMultiColumn(const TableMetadata& table, const cql::Relation& relation,
                                          BindSpecCollector& binds) {
  std::vector<size_t> columns;
  for (const std::string& name : relation.columns) {
    const size_t index = table.ExistingColumnIndex(name);
    const auto& column = table.columns[index];
    if (column.kind != schema::ColumnKind::kClustering) {
      ThrowInvalid(
          "Multi-column relations can only be applied to clustering columns but was applied "
          "to: " +
          column.name);
    }
    if (std::find(columns.begin(), columns.end(), index) != columns.end()) {
      ThrowInvalid("Column \"" + column.name +
                   "\" appeared twice in a relation: " + RelationText(relation));
    }
    if (!columns.empty() && index != columns.back() + 1) {
      ThrowInvalid(
          "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: " +
          RelationText(relation));
    }
    columns.push_back(index);
  }
  MultiColumnRestriction r;
  r.first = columns.front();
  r.count = columns.size();
  switch (relation.op) {
    case Op::kEq:
      r.kind = MultiColumnRestriction::Kind::kEq;
      r.eq = PrepareTuple(table, r.first, r.count, relation.terms.at(0), binds);
      break;
    case Op::kIn:
      if (relation.in_marker) {
        r.kind = MultiColumnRestriction::Kind::kIn;
        r.in_marker =
            PrepareTerm(relation.terms.at(0), "in" + TupleReceiverName(table, r.first, r.count),
                        types::CqlType::List(TupleType(table, r.first, r.count)), binds);
      } else if (relation.terms.size() == 1) {
        // An IN with one tuple is an EQ (Cassandra's newINRestriction).
        r.kind = MultiColumnRestriction::Kind::kEq;
        r.eq = PrepareTuple(table, r.first, r.count, relation.terms[0], binds);
      } else {
        r.kind = MultiColumnRestriction::Kind::kIn;
        for (const auto& term : relation.terms) {
          r.in_values.push_back(PrepareTuple(table, r.first, r.count, term, binds));
        }
      }
      break;
    case Op::kGt:
    case Op::kGte:
      r.kind = MultiColumnRestriction::Kind::kSlice;
      r.lower = PrepareTuple(table, r.first, r.count, relation.terms.at(0), binds);
      r.lower_inclusive = relation.op == Op::kGte;
      break;
    case Op::kLt:
    case Op::kLte:
      r.kind = MultiColumnRestriction::Kind::kSlice;
      r.upper = PrepareTuple(table, r.first, r.count, relation.terms.at(0), binds);
      r.upper_inclusive = relation.op == Op::kLte;
      break;
    default:
      ThrowInvalid(std::string(OperatorText(relation.op)) +
                   " cannot be used for multi-column relations");
  }
  return r;
}

std::optional<MultiColumnRestriction> ToMultiColumn(const ColumnRestriction& single) {
  if (single.is_contains()) return std::nullopt;
  MultiColumnRestriction r;
  r.first = single.column;
  r.count = 1;
  if (single.eq) {
    r.kind = MultiColumnRestriction::Kind::kEq;
    r.eq = OneColumnTuple(*single.eq);
  } else if (single.in_values) {
    r.kind = MultiColumnRestriction::Kind::kIn;
    for (const auto& term : *single.in_values) r.in_values.push_back(OneColumnTuple(term));
  } else if (single.in_marker) {
    r.kind = MultiColumnRestriction::Kind::kIn;
    r.in_marker = single.in_marker;
    r.in_marker_of_tuples = false;
  } else {
    r.kind = MultiColumnRestriction::Kind::kSlice;
    if (single.lower) r.lower = OneColumnTuple(*single.lower);
    r.lower_inclusive = single.lower_inclusive;
    if (single.upper) r.upper = OneColumnTuple(*single.upper);
    r.upper_inclusive = single.upper_inclusive;
  }
  return r;
}

void MergeMultiColumn(MultiColumnRestriction& existing, MultiColumnRestriction added,
                      const TableMetadata& table) {
  using Kind = MultiColumnRestriction::Kind;
  const std::string common = ColumnsInCommon(table, existing, added);
  if (existing.kind == Kind::kEq) {
    ThrowInvalid(common +
                 " cannot be restricted by more than one relation if it includes an Equal");
  }
  if (existing.kind == Kind::kIn) {
    ThrowInvalid(common + " cannot be restricted by more than one relation if it includes a IN");
  }
  if (added.kind != Kind::kSlice) {
    ThrowInvalid("Column \"" + common +
                 "\" cannot be restricted by both an equality and an inequality relation");
  }
  if (existing.first != added.first) {
    const size_t later = std::max(existing.first, added.first);
    ThrowInvalid("Column \"" + table.columns[later].name +
                 "\" cannot be restricted by two inequalities not starting with the same column");
  }
  MergeSliceBounds(existing, added, common);
  existing.count = std::max(existing.count, added.count);
}

}  // namespace sibyl::query::restriction_preparation
