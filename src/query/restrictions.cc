#include "query/restrictions.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;

const char* OperatorSymbol(cql::Relation::Op op) {
  switch (op) {
    case cql::Relation::Op::kEq:
      return "=";
    case cql::Relation::Op::kNeq:
      return "!=";
    case cql::Relation::Op::kLt:
      return "<";
    case cql::Relation::Op::kLte:
      return "<=";
    case cql::Relation::Op::kGt:
      return ">";
    case cql::Relation::Op::kGte:
      return ">=";
    case cql::Relation::Op::kIn:
      return "IN";
    case cql::Relation::Op::kContains:
      return "CONTAINS";
    case cql::Relation::Op::kContainsKey:
      return "CONTAINS KEY";
    case cql::Relation::Op::kLike:
      return "LIKE";
    case cql::Relation::Op::kIsNotNull:
      return "IS NOT";
  }
  return "?";
}

bool IsNonFrozenCollection(const types::CqlType& type) {
  return type.is_collection() && !type.frozen();
}

// Adds one relation to its column's restriction, with Cassandra's checks on
// how relations on one column combine.
void Merge(ColumnRestriction& r, const ColumnMetadata& column, const cql::Relation& relation,
           BindSpecCollector& binds) {
  using Op = cql::Relation::Op;
  const std::string& name = column.name;
  const Op op = relation.op;
  const bool is_slice = op == Op::kLt || op == Op::kLte || op == Op::kGt || op == Op::kGte;

  if (r.is_eq() && (op == Op::kEq || op == Op::kIn || is_slice)) {
    ThrowInvalid(name + " cannot be restricted by more than one relation if it includes an Equal");
  }
  if (r.is_in() && (op == Op::kEq || op == Op::kIn || is_slice)) {
    ThrowInvalid(name + " cannot be restricted by more than one relation if it includes a IN");
  }
  if (r.is_slice() && (op == Op::kEq || op == Op::kIn)) {
    ThrowInvalid("Column \"" + name +
                 "\" cannot be restricted by both an equality and an inequality relation");
  }

  switch (op) {
    case Op::kEq:
      r.eq = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      break;
    case Op::kIn:
      if (relation.in_marker) {
        r.in_marker = PrepareTerm(relation.terms.at(0), "in(" + name + ")",
                                  types::CqlType::List(column.type), binds);
      } else {
        std::vector<PreparedTerm> values;
        for (const auto& term : relation.terms) {
          values.push_back(PrepareTerm(term, name, column.type, binds));
        }
        r.in_values = std::move(values);
      }
      break;
    case Op::kGt:
    case Op::kGte:
      if (r.lower)
        ThrowInvalid("More than one restriction was found for the start bound on " + name);
      r.lower = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      r.lower_inclusive = op == Op::kGte;
      break;
    case Op::kLt:
    case Op::kLte:
      if (r.upper) ThrowInvalid("More than one restriction was found for the end bound on " + name);
      r.upper = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      r.upper_inclusive = op == Op::kLte;
      break;
    case Op::kContains: {
      const types::CqlType& type = *column.type;
      if (!type.is_collection()) {
        ThrowInvalid("Cannot use CONTAINS on non-collection column " + name);
      }
      // Lists and sets contain elements; maps are searched by value.
      const types::TypePtr& element = type.params()[type.kind() == types::Kind::kMap ? 1 : 0];
      r.contains.push_back(
          PrepareTerm(relation.terms.at(0), "value(" + name + ")", element, binds));
      break;
    }
    case Op::kContainsKey:
      if (column.type->kind() != types::Kind::kMap) {
        ThrowInvalid("Cannot use CONTAINS KEY on non-map column " + name);
      }
      r.contains_key.push_back(
          PrepareTerm(relation.terms.at(0), "key(" + name + ")", column.type->params()[0], binds));
      break;
    case Op::kNeq:
      ThrowInvalid("Unsupported \"!=\" relation on column " + name);
    case Op::kLike:
      ThrowInvalid("LIKE restriction is only supported on properly indexed columns. " + name +
                   " LIKE ... is not valid.");
    case Op::kIsNotNull:
      ThrowInvalid("Unsupported restriction: " + name + " IS NOT NULL");
  }
}

BytesView RequireValue(const Value& value, const std::string& column) {
  if (value.is_unset()) ThrowInvalid("Invalid unset value for column " + column);
  if (value.is_null()) ThrowInvalid("Invalid null value in condition for column " + column);
  return value.bytes;
}

}  // namespace

Restrictions Restrictions::Prepare(const TableMetadata& table,
                                   const std::vector<cql::Relation>& where, bool allow_filtering,
                                   BindSpecCollector& binds) {
  Restrictions result;
  for (const cql::Relation& relation : where) {
    switch (relation.lhs) {
      case cql::Relation::Lhs::kToken:
        ThrowInvalid("token() restrictions are not supported by Sibyl yet");
      case cql::Relation::Lhs::kColumnTuple:
        ThrowInvalid("Multi-column relations are not supported by Sibyl yet");
      case cql::Relation::Lhs::kMapElement:
        ThrowInvalid("Restrictions on map elements are not supported by Sibyl yet");
      case cql::Relation::Lhs::kCustomIndexExpression:
        ThrowInvalid("Custom index expressions are not supported by Sibyl yet");
      case cql::Relation::Lhs::kColumn:
        break;
    }
    const std::string& name = relation.columns.at(0);
    const int index = table.ColumnIndex(name);
    if (index < 0) {
      ThrowInvalid("Undefined column name " + name + " in table " + table.QualifiedName());
    }
    const ColumnMetadata& column = table.columns[static_cast<size_t>(index)];
    using Op = cql::Relation::Op;
    if (IsNonFrozenCollection(*column.type) && relation.op != Op::kContains &&
        relation.op != Op::kContainsKey) {
      ThrowInvalid("Collection column '" + name + "' (" + column.type->ToCql() +
                   ") cannot be restricted by a '" + OperatorSymbol(relation.op) + "' relation");
    }
    if (relation.op == Op::kIn && !column.is_primary_key()) {
      ThrowInvalid("IN predicates on non-primary-key columns (" + name + ") is not yet supported");
    }
    auto it = std::find_if(result.restrictions_.begin(), result.restrictions_.end(),
                           [&](const ColumnRestriction& r) { return r.column == size_t(index); });
    if (it == result.restrictions_.end()) {
      result.restrictions_.push_back(ColumnRestriction{});
      it = std::prev(result.restrictions_.end());
      it->column = static_cast<size_t>(index);
    }
    Merge(*it, column, relation, binds);
  }

  // Partition key: every column by = or IN, or else the query scans a range
  // and the partition key relations filter it.
  const size_t pk_size = table.partition_key_size();
  size_t pk_restricted = 0;
  bool pk_all_eq_in = true;
  bool pk_all_eq = true;
  for (size_t i = 0; i < pk_size; ++i) {
    const ColumnRestriction* r = result.Find(i);
    if (r == nullptr) {
      pk_all_eq_in = pk_all_eq = false;
      continue;
    }
    ++pk_restricted;
    if (!(r->is_eq() || r->is_in()) || r->is_slice() || r->is_contains()) pk_all_eq_in = false;
    if (!r->is_eq()) pk_all_eq = false;
  }
  result.selects_partitions_ = pk_all_eq_in;
  result.selects_one_partition_ = pk_all_eq_in && pk_all_eq;
  if (pk_restricted > 0 && !pk_all_eq_in && !allow_filtering) {
    ThrowInvalid(std::string(kRequiresAllowFilteringMessage));
  }

  // Clustering columns: a prefix of = / IN, at most one slice last; anything
  // else needs filtering.
  const size_t ck_begin = table.clustering_begin();
  const size_t ck_end = ck_begin + table.clustering_size();
  bool clustering_needs_filtering = false;
  const ColumnMetadata* first_unrestricted = nullptr;
  const ColumnMetadata* slice_column = nullptr;
  // The first restricted clustering column after an unrestricted one, and that unrestricted one.
  const ColumnMetadata* gap_column = nullptr;
  const ColumnMetadata* gap_missing = nullptr;
  for (size_t i = ck_begin; i < ck_end; ++i) {
    const ColumnRestriction* r = result.Find(i);
    const ColumnMetadata& column = table.columns[i];
    if (r == nullptr) {
      if (first_unrestricted == nullptr) first_unrestricted = &column;
      continue;
    }
    result.has_clustering_ = true;
    if (slice_column != nullptr) {
      if (!allow_filtering) {
        ThrowInvalid("Clustering column \"" + column.name +
                     "\" cannot be restricted (preceding column \"" + slice_column->name +
                     "\" is restricted by a non-EQ relation)");
      }
      clustering_needs_filtering = true;
    }
    if (first_unrestricted != nullptr) {
      if (gap_column == nullptr) {
        gap_column = &column;
        gap_missing = first_unrestricted;
      }
      clustering_needs_filtering = true;
    }
    if (r->is_slice() && slice_column == nullptr) slice_column = &column;
    if (r->is_contains()) clustering_needs_filtering = true;
  }
  if (gap_column != nullptr && !allow_filtering) {
    ThrowInvalid("PRIMARY KEY column \"" + gap_column->name +
                 "\" cannot be restricted as preceding column \"" + gap_missing->name +
                 "\" is not restricted");
  }

  for (const auto& r : result.restrictions_) {
    if (!table.columns[r.column].is_primary_key()) result.has_non_key_ = true;
  }
  if (result.has_non_key_ && !allow_filtering) {
    ThrowInvalid(std::string(kRequiresAllowFilteringMessage));
  }
  // A scan over partitions that must also check clustering values filters.
  if (!allow_filtering &&
      ((!pk_all_eq_in && result.has_clustering_) || clustering_needs_filtering)) {
    ThrowInvalid(std::string(kRequiresAllowFilteringMessage));
  }
  return result;
}

const ColumnRestriction* Restrictions::Find(size_t column) const {
  for (const auto& r : restrictions_) {
    if (r.column == column) return &r;
  }
  return nullptr;
}

std::vector<uint16_t> Restrictions::PartitionKeyMarkers(const TableMetadata& table) const {
  std::vector<uint16_t> markers;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    const ColumnRestriction* r = Find(i);
    int marker = -1;
    if (r != nullptr && r->eq && r->eq->kind == PreparedTerm::Kind::kMarker) marker = r->eq->marker;
    if (r != nullptr && r->in_values) {
      for (const auto& term : *r->in_values) {
        if (term.kind == PreparedTerm::Kind::kMarker) marker = term.marker;
      }
    }
    if (marker < 0) return {};
    markers.push_back(static_cast<uint16_t>(marker));
  }
  return markers;
}

RowFilter Restrictions::Bind(const TableMetadata& table, const BoundValues& values) const {
  RowFilter filter;
  filter.conditions_.reserve(restrictions_.size());
  for (const ColumnRestriction& r : restrictions_) {
    const ColumnMetadata& column = table.columns[r.column];
    RowFilter::Condition condition;
    condition.column = r.column;
    condition.type = column.type.get();
    if (r.eq) {
      condition.has_values = true;
      condition.values.push_back(RequireValue(r.eq->Bind(values), column.name));
    }
    if (r.in_values) {
      condition.has_values = true;
      for (const auto& term : *r.in_values) {
        condition.values.push_back(RequireValue(term.Bind(values), column.name));
      }
    }
    if (r.in_marker) {
      condition.has_values = true;
      BytesView list = RequireValue(r.in_marker->Bind(values), column.name);
      for (BytesView element : types::DecodeListElements(list)) {
        types::Validate(*column.type, element);
        condition.values.push_back(element);
      }
    }
    if (r.lower) {
      condition.lower = RequireValue(r.lower->Bind(values), column.name);
      condition.lower_inclusive = r.lower_inclusive;
    }
    if (r.upper) {
      condition.upper = RequireValue(r.upper->Bind(values), column.name);
      condition.upper_inclusive = r.upper_inclusive;
    }
    for (const auto& term : r.contains) {
      condition.contains.push_back(RequireValue(term.Bind(values), column.name));
    }
    for (const auto& term : r.contains_key) {
      condition.contains_key.push_back(RequireValue(term.Bind(values), column.name));
    }
    filter.conditions_.push_back(std::move(condition));
  }
  return filter;
}

bool RowFilter::Matches(const schema::Row& row) const {
  for (const Condition& c : conditions_) {
    const OptBytes& cell = row[c.column];
    if (!cell) return false;  // a null never satisfies a relation
    const BytesView value(*cell);
    const types::CqlType& type = *c.type;
    if (c.has_values) {
      bool any = false;
      for (BytesView candidate : c.values) {
        if (types::Compare(type, value, candidate) == 0) {
          any = true;
          break;
        }
      }
      if (!any) return false;
    }
    if (c.lower) {
      int cmp = types::Compare(type, value, *c.lower);
      if (cmp < 0 || (cmp == 0 && !c.lower_inclusive)) return false;
    }
    if (c.upper) {
      int cmp = types::Compare(type, value, *c.upper);
      if (cmp > 0 || (cmp == 0 && !c.upper_inclusive)) return false;
    }
    if (!c.contains.empty() || !c.contains_key.empty()) {
      const bool is_map = type.kind() == types::Kind::kMap;
      std::vector<BytesView> elements;
      if (is_map) {
        for (const auto& [key, mapped] : types::DecodeMapEntries(value)) {
          elements.push_back(key);
          elements.push_back(mapped);
        }
      } else {
        elements = types::DecodeListElements(value);
      }
      // Map entries alternate key, value.
      auto has = [&](BytesView wanted, const types::CqlType& element_type, size_t first,
                     size_t step) {
        for (size_t i = first; i < elements.size(); i += step) {
          if (types::Compare(element_type, elements[i], wanted) == 0) return true;
        }
        return false;
      };
      for (BytesView wanted : c.contains) {
        bool found =
            is_map ? has(wanted, *type.params()[1], 1, 2) : has(wanted, *type.params()[0], 0, 1);
        if (!found) return false;
      }
      for (BytesView wanted : c.contains_key) {
        if (!has(wanted, *type.params()[0], 0, 2)) return false;
      }
    }
  }
  return true;
}

}  // namespace sibyl::query
