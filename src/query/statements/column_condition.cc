#include "query/statements/column_condition.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "query/restrictions/relation_text.h"
#include "types/collection_value.h"
#include "types/cql_identifier.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using Op = cql::Relation::Op;

bool IsSlice(Op op) { return op == Op::kLt || op == Op::kLte || op == Op::kGt || op == Op::kGte; }

bool IsMultiCell(const types::CqlType& type) {
  return !type.frozen() && (type.is_collection() || type.kind() == types::Kind::kUdt);
}

bool ReferencesDuration(const types::CqlType& type) {
  if (type.kind() == types::Kind::kDuration) return true;
  return std::any_of(type.params().begin(), type.params().end(),
                     [](const types::TypePtr& p) { return p && ReferencesDuration(*p); });
}

// ColumnCondition.Raw.validateOperationOnDurations.
void CheckDurationSlice(const types::CqlType& type, Op op) {
  if (!IsSlice(op) || !ReferencesDuration(type)) return;
  if (type.is_collection()) {
    ThrowInvalid("Slice conditions are not supported on collections containing durations");
  }
  if (type.kind() == types::Kind::kTuple) {
    ThrowInvalid("Slice conditions are not supported on tuples containing durations");
  }
  if (type.kind() == types::Kind::kUdt) {
    ThrowInvalid("Slice conditions are not supported on UDTs containing durations");
  }
  ThrowInvalid(std::string("Slice conditions ( ") + OperatorText(op) +
               " ) are not supported on durations");
}

// `comparison` is current <=> condition value.
bool Holds(Op op, int comparison) {
  switch (op) {
    case Op::kEq:
    case Op::kIn:
      return comparison == 0;
    case Op::kNeq:
      return comparison != 0;
    case Op::kLt:
      return comparison < 0;
    case Op::kLte:
      return comparison <= 0;
    case Op::kGt:
      return comparison > 0;
    case Op::kGte:
      return comparison >= 0;
    default:
      return false;
  }
}

// ColumnCondition.Bound.compareWithOperator: `value` is the condition's,
// `current` the row's.
bool CompareWithOperator(Op op, const types::CqlType& type, const std::optional<BytesView>& value,
                         const std::optional<BytesView>& current) {
  if (!value) {
    if (op == Op::kEq || op == Op::kIn) return !current.has_value();
    if (op == Op::kNeq) return current.has_value();
    ThrowInvalid(std::string("Invalid comparison with null for operator \"") + OperatorText(op) +
                 "\"");
  }
  if (!current) return op == Op::kNeq;
  return Holds(op, types::Compare(type, *current, *value));
}

}  // namespace

ColumnCondition ColumnCondition::Prepare(const schema::TableMetadata& table,
                                         const cql::Condition& raw, BindSpecCollector& binds) {
  const size_t index = table.ExistingColumnIndex(raw.column);
  const schema::ColumnMetadata& column = table.columns[index];
  const types::CqlType& type = *column.type;
  if (type.kind() == types::Kind::kCounter)
    ThrowInvalid("Conditions on counters are not supported");

  ColumnCondition condition;
  condition.column_ = static_cast<size_t>(index);
  condition.is_static_ = column.kind == schema::ColumnKind::kStatic;
  condition.column_type_ = column.type;
  condition.value_type_ = column.type;
  condition.op_ = raw.op;
  std::string receiver = column.name;
  if (raw.lhs == cql::Condition::Lhs::kElement) {
    condition.target_ = Target::kElement;
    if (!type.is_collection()) {
      ThrowInvalid("Invalid element access syntax for non-collection column " + column.name);
    }
    if (type.kind() == types::Kind::kSet) {
      ThrowInvalid("Invalid element access syntax for set column " + column.name);
    }
    const bool is_list = type.kind() == types::Kind::kList;
    condition.value_type_ = is_list ? type.params()[0] : type.params()[1];
    CheckDurationSlice(*condition.value_type_, raw.op);
    condition.element_ = PrepareTerm(
        raw.element.value_or(cql::Term{}), (is_list ? "idx(" : "key(") + column.name + ")",
        is_list ? types::CqlType::Native(types::Kind::kInt) : type.params()[0], binds);
    receiver = "value(" + column.name + ")";
  } else if (raw.lhs == cql::Condition::Lhs::kField) {
    condition.target_ = Target::kField;
    const auto& names = type.field_names();
    auto it = std::find(names.begin(), names.end(), raw.field);
    if (type.kind() != types::Kind::kUdt) {
      ThrowInvalid("Invalid field selection: " + column.name + " is not a user type");
    }
    if (it == names.end()) {
      ThrowInvalid("Unknown field " + raw.field + " for column " + column.name);
    }
    condition.field_ = static_cast<size_t>(it - names.begin());
    condition.value_type_ = type.params()[condition.field_];
    CheckDurationSlice(*condition.value_type_, raw.op);
    receiver = column.name + "." + raw.field;
  } else {
    CheckDurationSlice(type, raw.op);
  }

  if (raw.op == Op::kIn && raw.in_marker) {
    condition.in_marker_ = PrepareTerm(raw.values.at(0), "in(" + receiver + ")",
                                       types::CqlType::List(condition.value_type_), binds);
  } else {
    for (const cql::Term& term : raw.values) {
      condition.values_.push_back(PrepareTerm(term, receiver, condition.value_type_, binds));
    }
  }
  if (column.is_primary_key()) {
    ThrowInvalid("PRIMARY KEY column '" + column.name + "' cannot have IF conditions");
  }
  return condition;
}

BoundCondition ColumnCondition::Bind(const BoundValues& values) const {
  BoundCondition bound;
  bound.condition_ = this;
  if (element_) {
    const Value element = element_->Bind(values);
    if (element.is_unset()) ThrowInvalid("Invalid 'unset' value in condition");
    if (element.is_null()) {
      ThrowInvalid(std::string("Invalid null value for ") +
                   (column_type_->kind() == types::Kind::kMap ? "map" : "list") +
                   " element access");
    }
    bound.element_ = element.bytes;
  }
  if (in_marker_) {
    const Value list = in_marker_->Bind(values);
    if (list.is_null()) ThrowInvalid("Invalid null list in IN condition");
    if (list.is_unset()) ThrowInvalid("Invalid 'unset' value in condition");
    for (BytesView element : types::DecodeListElements(list.bytes)) {
      bound.values_.emplace_back(element);
    }
  } else {
    for (const PreparedTerm& term : values_) {
      const Value value = term.Bind(values);
      if (value.is_unset()) {
        if (op_ == Op::kIn) continue;  // IN skips unset values
        ThrowInvalid("Invalid 'unset' value in condition");
      }
      if (value.is_null()) {
        bound.values_.emplace_back(std::nullopt);
      } else {
        bound.values_.emplace_back(value.bytes);
      }
    }
  }
  // A whole non-frozen set or map compares in the element order the
  // stored cells have: sort (and dedupe) the condition's elements likewise.
  const types::CqlType& type = *column_type_;
  if (target_ == Target::kColumn && IsMultiCell(type) &&
      (type.kind() == types::Kind::kSet || type.kind() == types::Kind::kMap)) {
    bound.normalized_.reserve(bound.values_.size());
    for (auto& value : bound.values_) {
      if (!value) continue;
      if (type.kind() == types::Kind::kSet) {
        std::vector<Bytes> elements;
        for (BytesView e : types::DecodeListElements(*value)) elements.emplace_back(e);
        bound.normalized_.push_back(types::BuildSetValue(*type.params()[0], std::move(elements)));
      } else {
        std::vector<std::pair<Bytes, Bytes>> entries;
        for (auto [k, v] : types::DecodeMapEntries(*value)) entries.emplace_back(k, v);
        bound.normalized_.push_back(types::BuildMapValue(*type.params()[0], std::move(entries)));
      }
      value = BytesView(bound.normalized_.back());
    }
  }
  return bound;
}

size_t BoundCondition::column() const { return condition_->column_; }

bool BoundCondition::AppliesTo(const OptBytes& current) const {
  const ColumnCondition& c = *condition_;
  const types::CqlType& type = *c.column_type_;
  std::optional<BytesView> row_value;
  if (current) row_value = BytesView(*current);

  switch (c.target_) {
    case ColumnCondition::Target::kElement: {
      std::optional<BytesView> element_value;
      if (type.kind() == types::Kind::kList) {
        if (element_->empty()) ThrowInvalid("Invalid empty value for list index");
        const int32_t index = types::DecodeInt(*element_);
        if (index < 0) ThrowInvalid("Invalid negative list index " + std::to_string(index));
        if (row_value) {
          const auto elements = types::DecodeListElements(*row_value);
          if (static_cast<size_t>(index) < elements.size()) element_value = elements[index];
        }
      } else if (row_value) {
        for (auto [key, value] : types::DecodeMapEntries(*row_value)) {
          if (types::Compare(*type.params()[0], key, *element_) == 0) {
            element_value = value;
            break;
          }
        }
      }
      for (const auto& value : values_) {
        if (CompareWithOperator(c.op_, *c.value_type_, value, element_value)) return true;
      }
      return false;
    }
    case ColumnCondition::Target::kField: {
      std::optional<BytesView> field_value;
      if (row_value) {
        const auto fields = types::DecodeTupleComponents(*row_value);
        if (c.field_ < fields.size()) field_value = fields[c.field_];
      }
      for (const auto& value : values_) {
        if (CompareWithOperator(c.op_, *c.value_type_, value, field_value)) return true;
      }
      return false;
    }
    case ColumnCondition::Target::kColumn:
      break;
  }

  if (IsMultiCell(type) && type.is_collection()) {
    // MultiCellCollectionBound: no cells reads as the empty collection,
    // except against a null condition value.
    static const Bytes kEmptyCollection = types::EncodeList({});
    for (const auto& value : values_) {
      if (!value) {
        if (c.op_ == Op::kEq || c.op_ == Op::kIn) {
          if (!row_value) return true;
          continue;
        }
        if (c.op_ == Op::kNeq) return row_value.has_value();
        ThrowInvalid(std::string("Invalid comparison with null for operator \"") +
                     OperatorText(c.op_) + "\"");
      }
      const BytesView have = row_value ? *row_value : BytesView(kEmptyCollection);
      if (Holds(c.op_, types::Compare(type, have, *value))) return true;
    }
    return false;
  }
  for (const auto& value : values_) {
    if (CompareWithOperator(c.op_, type, value, row_value)) return true;
  }
  return false;
}

}  // namespace sibyl::query
