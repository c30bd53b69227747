// Single-column relations (`c = 1`, `c IN (1, 2)`, `c > 1`, `c CONTAINS 1`,
// `m['k'] = 1`) as Cassandra 4.1's SingleColumnRelation prepares them and
// SingleColumnRestriction merges them.

#include <string>

#include "common/error.h"
#include "query/restrictions/restriction_preparation.h"

namespace sibyl::query::restriction_preparation {
namespace {

using Op = cql::Relation::Op;
using schema::ColumnMetadata;
using schema::TableMetadata;
using types::Kind;

bool IsSlice(Op op) { return op == Op::kLt || op == Op::kLte || op == Op::kGt || op == Op::kGte; }

bool ReferencesDuration(const types::CqlType& type) {
  if (type.kind() == Kind::kDuration) return true;
  for (const auto& param : type.params()) {
    if (ReferencesDuration(*param)) return true;
  }
  return false;
}

// SingleColumnRelation.toReceivers' checks, in its order.
void CheckReceiver(const ColumnMetadata& column, const cql::Relation& relation) {
  const types::CqlType& type = *column.type;
  const Op op = relation.op;
  if (op == Op::kIn && !column.is_primary_key() &&
      !(!relation.in_marker && relation.terms.size() == 1)) {
    ThrowInvalid("IN predicates on non-primary-key columns (" + column.name +
                 ") is not yet supported");
  }
  if (op == Op::kContainsKey && type.kind() != Kind::kMap) {
    ThrowInvalid("Cannot use CONTAINS KEY on non-map column " + column.name);
  }
  if (op == Op::kContains && !type.is_collection()) {
    ThrowInvalid("Cannot use CONTAINS on non-collection column " + column.name);
  }
  const bool map_entry = relation.lhs == cql::Relation::Lhs::kMapElement;
  if (map_entry) {
    if (type.kind() == Kind::kList) {
      ThrowInvalid("Indexes on list entries (" + column.name +
                   "[index] = value) are not currently supported.");
    }
    if (type.kind() != Kind::kMap)
      ThrowInvalid("Column " + column.name + " cannot be used as a map");
    if (type.frozen()) {
      ThrowInvalid("Map-entry equality predicates on frozen map column " + column.name +
                   " are not supported");
    }
    if (op != Op::kEq) ThrowInvalid("Only EQ relations are supported on map entries");
  }
  if (type.kind() == Kind::kUdt && !type.frozen()) {
    ThrowInvalid("Non-frozen UDT column '" + column.name + "' (" + type.ToCql() +
                 ") cannot be restricted by any relation");
  }
  if (type.is_collection() && !type.frozen() && op != Op::kContains && op != Op::kContainsKey &&
      !(map_entry && op == Op::kEq)) {
    ThrowInvalid("Collection column '" + column.name + "' (" + type.ToCql() +
                 ") cannot be restricted by a '" + OperatorText(op) + "' relation");
  }
}

}  // namespace

ColumnRestriction PrepareSingleColumn(const TableMetadata& table, size_t index,
                                      const cql::Relation& relation, BindSpecCollector& binds) {
  const ColumnMetadata& column = table.columns[index];
  const std::string& name = column.name;
  const Op op = relation.op;
  if (IsSlice(op) && ReferencesDuration(*column.type)) {
    const Kind kind = column.type->kind();
    if (column.type->is_collection()) {
      ThrowInvalid("Slice restrictions are not supported on collections containing durations");
    }
    if (kind == Kind::kTuple) {
      ThrowInvalid("Slice restrictions are not supported on tuples containing durations");
    }
    if (kind == Kind::kUdt) {
      ThrowInvalid("Slice restrictions are not supported on UDTs containing durations");
    }
    ThrowInvalid("Slice restrictions are not supported on duration columns");
  }
  CheckReceiver(column, relation);

  ColumnRestriction r;
  r.column = index;
  const types::CqlType& type = *column.type;
  switch (op) {
    case Op::kEq:
      if (relation.lhs == cql::Relation::Lhs::kMapElement) {
        PreparedTerm key =
            PrepareTerm(*relation.map_key, "key(" + name + ")", type.params()[0], binds);
        PreparedTerm value =
            PrepareTerm(relation.terms.at(0), "value(" + name + ")", type.params()[1], binds);
        r.map_entries.emplace_back(std::move(key), std::move(value));
      } else {
        r.eq = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      }
      break;
    case Op::kIn:
      if (relation.in_marker) {
        r.in_marker = PrepareTerm(relation.terms.at(0), "in(" + name + ")",
                                  types::CqlType::List(column.type), binds);
      } else if (relation.terms.size() == 1) {
        // An IN with one value is an EQ (Cassandra's newINRestriction).
        r.eq = PrepareTerm(relation.terms[0], name, column.type, binds);
      } else {
        std::vector<PreparedTerm> values;
        values.reserve(relation.terms.size());
        for (const auto& term : relation.terms) {
          values.push_back(PrepareTerm(term, name, column.type, binds));
        }
        r.in_values = std::move(values);
      }
      break;
    case Op::kGt:
    case Op::kGte:
      r.lower = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      r.lower_inclusive = op == Op::kGte;
      break;
    case Op::kLt:
    case Op::kLte:
      r.upper = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      r.upper_inclusive = op == Op::kLte;
      break;
    case Op::kContains: {
      // Lists and sets contain elements; maps are searched by value.
      const types::TypePtr& element = type.params()[type.kind() == Kind::kMap ? 1 : 0];
      r.contains.push_back(
          PrepareTerm(relation.terms.at(0), "value(" + name + ")", element, binds));
      break;
    }
    case Op::kContainsKey:
      r.contains_key.push_back(
          PrepareTerm(relation.terms.at(0), "key(" + name + ")", type.params()[0], binds));
      break;
    case Op::kNeq:
    case Op::kLike:
    case Op::kIsNotNull:
      ThrowInvalid(std::string("Unsupported \"") + OperatorText(op) +
                   "\" relation: " + RelationText(relation));
  }
  return r;
}

void ThrowContainsMerge(const ColumnMetadata& column) {
  ThrowInvalid("Collection column " + column.name +
               " can only be restricted by CONTAINS, CONTAINS KEY, or map-entry equality");
}

void MergeSingleColumn(ColumnRestriction& existing, ColumnRestriction added,
                       const ColumnMetadata& column) {
  const std::string& name = column.name;
  if (existing.is_eq()) {
    ThrowInvalid(name + " cannot be restricted by more than one relation if it includes an Equal");
  }
  if (existing.is_in()) {
    ThrowInvalid(name + " cannot be restricted by more than one relation if it includes a IN");
  }
  if (existing.is_slice()) {
    if (!added.is_slice()) {
      ThrowInvalid("Column \"" + name +
                   "\" cannot be restricted by both an equality and an inequality relation");
    }
    MergeSliceBounds(existing, added, name);
    return;
  }
  // CONTAINS, CONTAINS KEY and map entries combine with each other only.
  if (!added.is_contains()) ThrowContainsMerge(column);
  for (auto& t : added.contains) existing.contains.push_back(std::move(t));
  for (auto& t : added.contains_key) existing.contains_key.push_back(std::move(t));
  for (auto& e : added.map_entries) existing.map_entries.push_back(std::move(e));
}

}  // namespace sibyl::query::restriction_preparation
