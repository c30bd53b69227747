#include "query/restrictions/modification_where.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "query/restrictions/cartesian_product.h"
#include "query/restrictions/key_values.h"
#include "types/cql_identifier.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;

void Merge(KeyRestriction& r, const ColumnMetadata& column, const cql::Relation& relation,
           BindSpecCollector& binds) {
  using Op = cql::Relation::Op;
  const std::string& name = column.name;
  const Op op = relation.op;
  const bool is_slice = op == Op::kLt || op == Op::kLte || op == Op::kGt || op == Op::kGte;
  const bool is_eq = !r.is_in && !r.values.empty();
  if (is_eq && (op == Op::kEq || op == Op::kIn || is_slice)) {
    ThrowInvalid(name + " cannot be restricted by more than one relation if it includes an Equal");
  }
  if (r.is_in && (op == Op::kEq || op == Op::kIn || is_slice)) {
    ThrowInvalid(name + " cannot be restricted by more than one relation if it includes a IN");
  }
  if (r.is_slice() && (op == Op::kEq || op == Op::kIn)) {
    ThrowInvalid("Column \"" + name +
                 "\" cannot be restricted by both an equality and an inequality relation");
  }
  switch (op) {
    case Op::kEq:
      r.values.push_back(PrepareTerm(relation.terms.at(0), name, column.type, binds));
      break;
    case Op::kIn:
      r.is_in = true;
      if (relation.in_marker) {
        r.in_marker = PrepareTerm(relation.terms.at(0), "in(" + name + ")",
                                  types::CqlType::List(column.type), binds);
      } else {
        for (const auto& term : relation.terms) {
          r.values.push_back(PrepareTerm(term, name, column.type, binds));
        }
      }
      break;
    case Op::kGt:
    case Op::kGte:
      if (r.lower) {
        ThrowInvalid("More than one restriction was found for the start bound on " + name);
      }
      r.lower = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      r.lower_inclusive = op == Op::kGte;
      break;
    case Op::kLt:
    case Op::kLte:
      if (r.upper) ThrowInvalid("More than one restriction was found for the end bound on " + name);
      r.upper = PrepareTerm(relation.terms.at(0), name, column.type, binds);
      r.upper_inclusive = op == Op::kLte;
      break;
    case Op::kNeq:
      ThrowInvalid("Unsupported \"!=\" relation on column " + name);
    case Op::kContains:
    case Op::kContainsKey:
      ThrowInvalid("Cannot use CONTAINS on non-collection column " + name);
    case Op::kLike:
      ThrowInvalid("LIKE restriction is only supported on properly indexed columns. " + name +
                   " LIKE ... is not valid.");
    case Op::kIsNotNull:
      ThrowInvalid("Unsupported restriction: " + name + " IS NOT NULL");
  }
}

std::string JoinNames(const std::vector<const ColumnMetadata*>& columns) {
  std::string out;
  for (const auto* c : columns) {
    if (!out.empty()) out += ", ";
    out += c->name;
  }
  return out;
}

}  // namespace

ModificationWhere ModificationWhere::Prepare(const TableMetadata& table,
                                             const std::vector<cql::Relation>& where,
                                             std::string_view statement_type, bool static_only,
                                             BindSpecCollector& binds) {
  const std::string type(statement_type);
  ModificationWhere result;
  std::vector<const ColumnMetadata*> non_key;
  for (const cql::Relation& relation : where) {
    switch (relation.lhs) {
      case cql::Relation::Lhs::kToken:
        ThrowInvalid("The token function cannot be used in WHERE clauses for " + type +
                     " statements");
      case cql::Relation::Lhs::kColumnTuple:
        ThrowInvalid("Multi-column relations in " + type +
                     " statements are not supported by Sibyl yet");
      case cql::Relation::Lhs::kMapElement:
        ThrowInvalid("Restrictions on map elements are not supported by Sibyl yet");
      case cql::Relation::Lhs::kCustomIndexExpression:
        ThrowInvalid(
            "Custom index expressions cannot be used in WHERE clauses for UPDATE or DELETE "
            "statements");
      case cql::Relation::Lhs::kColumn:
        break;
    }
    const std::string& name = relation.columns.at(0);
    const int index = table.ColumnIndex(name);
    if (index < 0) {
      ThrowInvalid("Undefined column name " + types::MaybeQuoteIdentifier(name) + " in table " +
                   table.QualifiedName());
    }
    const ColumnMetadata& column = table.columns[static_cast<size_t>(index)];
    if (!column.is_primary_key()) {
      if (std::find(non_key.begin(), non_key.end(), &column) == non_key.end()) {
        non_key.push_back(&column);
      }
      continue;
    }
    auto it = std::find_if(result.restrictions_.begin(), result.restrictions_.end(),
                           [&](const KeyRestriction& r) { return r.column == size_t(index); });
    if (it == result.restrictions_.end()) {
      result.restrictions_.push_back(KeyRestriction{});
      it = std::prev(result.restrictions_.end());
      it->column = static_cast<size_t>(index);
    }
    Merge(*it, column, relation, binds);
  }

  // Partition key: every column by = or IN.
  std::vector<const ColumnMetadata*> missing;
  bool pk_slice = false;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    const KeyRestriction* r = result.Find(i);
    if (r == nullptr || !r->is_eq_or_in()) {
      if (r == nullptr) missing.push_back(&table.columns[i]);
      if (r != nullptr) pk_slice = true;
    }
  }
  if (!missing.empty()) {
    ThrowInvalid("Some partition key parts are missing: " + JoinNames(missing));
  }
  if (pk_slice) {
    ThrowInvalid(
        "Only EQ and IN relation are supported on the partition key (unless you use the "
        "token() function) for " +
        type + " statements");
  }

  const size_t ck_begin = table.clustering_begin();
  const size_t ck_end = ck_begin + table.clustering_size();
  bool any_clustering = false;
  for (size_t i = ck_begin; i < ck_end; ++i) any_clustering |= result.Find(i) != nullptr;
  if (static_only && any_clustering && type != "INSERT") {
    ThrowInvalid("Invalid restrictions on clustering columns since the " + type +
                 " statement modifies only static columns");
  }

  const bool allows_slices = type == "DELETE";
  if (!allows_slices) {
    missing.clear();
    for (size_t i = ck_begin; i < ck_end; ++i) {
      const KeyRestriction* r = result.Find(i);
      if (r != nullptr && r->is_slice()) {
        ThrowInvalid("Slice restrictions are not supported on the clustering columns in " + type +
                     " statements");
      }
      if (r == nullptr) missing.push_back(&table.columns[i]);
    }
    if (!static_only && !missing.empty()) {
      ThrowInvalid("Some clustering keys are missing: " + JoinNames(missing));
    }
    result.clustering_restricted_ = table.clustering_size() - missing.size();
  } else {
    // A prefix of = / IN, at most one slice, last.
    const ColumnMetadata* slice_column = nullptr;
    const ColumnMetadata* first_unrestricted = nullptr;
    for (size_t i = ck_begin; i < ck_end; ++i) {
      const KeyRestriction* r = result.Find(i);
      const ColumnMetadata& column = table.columns[i];
      if (r == nullptr) {
        if (first_unrestricted == nullptr) first_unrestricted = &column;
        continue;
      }
      if (slice_column != nullptr) {
        ThrowInvalid("Clustering column \"" + column.name +
                     "\" cannot be restricted (preceding column \"" + slice_column->name +
                     "\" is restricted by a non-EQ relation)");
      }
      if (first_unrestricted != nullptr) {
        ThrowInvalid("PRIMARY KEY column \"" + column.name +
                     "\" cannot be restricted as preceding column \"" + first_unrestricted->name +
                     "\" is not restricted");
      }
      if (r->is_slice()) slice_column = &column;
      ++result.clustering_restricted_;
    }
    result.has_slices_ =
        result.clustering_restricted_ > 0 &&
        (slice_column != nullptr || result.clustering_restricted_ < table.clustering_size());
  }

  if (!non_key.empty()) {
    ThrowInvalid("Non PRIMARY KEY columns found in where clause: " + JoinNames(non_key) + " ");
  }
  return result;
}

const KeyRestriction* ModificationWhere::Find(size_t column) const {
  for (const auto& r : restrictions_) {
    if (r.column == column) return &r;
  }
  return nullptr;
}

std::vector<uint16_t> ModificationWhere::PartitionKeyMarkers(const TableMetadata& table) const {
  std::vector<uint16_t> markers;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    const KeyRestriction* r = Find(i);
    int marker = -1;
    if (r != nullptr) {
      for (const auto& term : r->values) {
        if (term.kind == PreparedTerm::Kind::kMarker) marker = term.marker;
      }
    }
    if (marker < 0) return {};
    markers.push_back(static_cast<uint16_t>(marker));
  }
  return markers;
}

std::vector<BytesView> ModificationWhere::BindValues(const KeyRestriction& r,
                                                     const TableMetadata& table,
                                                     const BoundValues& values) const {
  const ColumnMetadata& column = table.columns[r.column];
  std::vector<BytesView> out;
  if (r.in_marker) {
    const Value list = r.in_marker->Bind(values);
    if (list.is_null()) ThrowInvalid("Invalid null value for column " + column.name);
    if (list.is_unset()) ThrowInvalid("Invalid unset value for column " + column.name);
    for (BytesView element : types::DecodeListElements(list.bytes)) {
      types::Validate(*column.type, element);
      out.push_back(element);
    }
    return out;
  }
  out.reserve(r.values.size());
  for (const auto& term : r.values) out.push_back(RequireKeyValue(term.Bind(values), column.name));
  return out;
}

std::vector<Bytes> ModificationWhere::PartitionKeys(const TableMetadata& table,
                                                    const BoundValues& values) const {
  std::vector<std::vector<BytesView>> per_column;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    per_column.push_back(BindValues(*Find(i), table, values));
  }
  std::vector<Bytes> keys;
  for (const auto& components : CartesianProduct(per_column)) {
    Bytes key = CheckedRoutingKey(components);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
  }
  return keys;
}

std::vector<storage::Clustering> ModificationWhere::Clusterings(const TableMetadata& table,
                                                                const BoundValues& values) const {
  std::vector<std::vector<BytesView>> per_column;
  const size_t begin = table.clustering_begin();
  for (size_t i = begin; i < begin + clustering_restricted_; ++i) {
    const KeyRestriction* r = Find(i);
    if (r->is_slice()) break;
    per_column.push_back(BindValues(*r, table, values));
  }
  std::vector<storage::Clustering> out;
  for (const auto& combination : CartesianProduct(per_column)) {
    storage::Clustering clustering;
    for (BytesView value : combination) {
      CheckKeyLength(value.size());
      clustering.emplace_back(value);
    }
    if (std::find(out.begin(), out.end(), clustering) == out.end()) {
      out.push_back(std::move(clustering));
    }
  }
  return out;
}

std::vector<DeletedRange> ModificationWhere::Slices(const TableMetadata& table,
                                                    const BoundValues& values) const {
  const size_t begin = table.clustering_begin();
  const size_t last = begin + clustering_restricted_ - 1;
  const KeyRestriction* last_restriction = Find(last);
  std::vector<storage::Clustering> prefixes = Clusterings(table, values);
  std::vector<DeletedRange> out;
  if (!last_restriction->is_slice()) {
    // A clustering prefix: every row that starts with it.
    for (auto& prefix : prefixes) {
      DeletedRange range;
      range.start = {prefix, true};
      range.end = {std::move(prefix), true};
      out.push_back(std::move(range));
    }
    return out;
  }
  const ColumnMetadata& column = table.columns[last];
  std::optional<BytesView> lower, upper;
  if (last_restriction->lower) {
    lower = RequireKeyValue(last_restriction->lower->Bind(values), column.name);
  }
  if (last_restriction->upper) {
    upper = RequireKeyValue(last_restriction->upper->Bind(values), column.name);
  }
  // On a DESC column the greatest values come first: the lower bound ends the range.
  const bool descending = column.order == schema::ClusteringOrder::kDesc;
  std::optional<BytesView> start_value = descending ? upper : lower;
  std::optional<BytesView> end_value = descending ? lower : upper;
  const bool start_inclusive =
      descending ? last_restriction->upper_inclusive : last_restriction->lower_inclusive;
  const bool end_inclusive =
      descending ? last_restriction->lower_inclusive : last_restriction->upper_inclusive;
  if (start_value && end_value) {
    const int c = descending ? types::CompareReversed(*column.type, *start_value, *end_value)
                             : types::Compare(*column.type, *start_value, *end_value);
    // An empty range deletes nothing.
    if (c > 0 || (c == 0 && !(start_inclusive && end_inclusive))) return out;
  }
  for (const auto& prefix : prefixes) {
    DeletedRange range;
    range.start.prefix = prefix;
    range.start.inclusive = true;
    if (start_value) {
      CheckKeyLength(start_value->size());
      range.start.prefix.emplace_back(*start_value);
      range.start.inclusive = start_inclusive;
    }
    range.end.prefix = prefix;
    range.end.inclusive = true;
    if (end_value) {
      CheckKeyLength(end_value->size());
      range.end.prefix.emplace_back(*end_value);
      range.end.inclusive = end_inclusive;
    }
    out.push_back(std::move(range));
  }
  return out;
}

namespace {
// Cassandra turns `c IN (v)` with one value into `c = v` (SingleColumnRelation).
bool IsRealIn(const KeyRestriction& r) {
  return r.in_marker.has_value() || (r.is_in && r.values.size() != 1);
}
}  // namespace

bool ModificationWhere::partition_key_has_in(const schema::TableMetadata& table) const {
  return std::any_of(restrictions_.begin(), restrictions_.end(), [&](const KeyRestriction& r) {
    return r.column < table.partition_key_size() && IsRealIn(r);
  });
}

bool ModificationWhere::clustering_has_in(const schema::TableMetadata& table) const {
  return std::any_of(restrictions_.begin(), restrictions_.end(), [&](const KeyRestriction& r) {
    return r.column >= table.clustering_begin() && IsRealIn(r);
  });
}

}  // namespace sibyl::query
