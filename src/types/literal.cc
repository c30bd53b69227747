#include "types/literal.h"

#include <algorithm>
#include <utility>

#include "common/error.h"
#include "types/collection_value.h"
#include "types/type_compatibility.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"

namespace sibyl::types {
namespace {

using LK = Literal::Kind;

std::string Join(const std::vector<Literal>& elements, const char* open, const char* close) {
  std::string out = open;
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out.append(", ");
    out.append(elements[i].ToText());
  }
  return out.append(close);
}

// AssignmentTestable.TestResult.testAll: exact if every element is, not
// assignable as soon as one is not.
AssignmentResult TestAll(const std::vector<const Literal*>& elements,
                         const std::vector<const CqlType*>& receivers) {
  AssignmentResult result = AssignmentResult::kExactMatch;
  for (size_t i = 0; i < elements.size(); ++i) {
    const AssignmentResult r = TestAssignment(*elements[i], *receivers[i]);
    if (r == AssignmentResult::kNotAssignable) return r;
    if (r == AssignmentResult::kWeaklyAssignable) result = r;
  }
  return result;
}

AssignmentResult TestAllAgainst(const std::vector<Literal>& elements, const CqlType& receiver) {
  std::vector<const Literal*> e;
  std::vector<const CqlType*> r;
  for (const auto& element : elements) {
    e.push_back(&element);
    r.push_back(&receiver);
  }
  return TestAll(e, r);
}

std::string ElementName(const char* role, std::string_view receiver) {
  return std::string(role) + "(" + std::string(receiver) + ")";
}

// Tuples.validateTupleAssignableTo; throws with Cassandra's messages.
void ValidateTupleAssignable(const Literal& literal, std::string_view receiver,
                             const CqlType& type) {
  if (type.kind() != Kind::kTuple) {
    ThrowInvalid("Invalid tuple type literal for " + std::string(receiver) + " of type " +
                 type.ToCql());
  }
  const size_t size = type.params().size();
  for (size_t i = 0; i < literal.elements.size(); ++i) {
    if (i >= size) {
      ThrowInvalid("Invalid tuple literal for " + std::string(receiver) +
                   ": too many elements. Type " + type.ToCql() + " expects " +
                   std::to_string(size) + " but got " + std::to_string(literal.elements.size()));
    }
    const CqlType& component = *type.params()[i];
    if (TestAssignment(literal.elements[i], component) == AssignmentResult::kNotAssignable) {
      ThrowInvalid("Invalid tuple literal for " + std::string(receiver) + ": component " +
                   std::to_string(i) + " is not of type " + component.ToCql());
    }
  }
}

// UserTypes.Literal.validateAssignableTo.
void ValidateUdtAssignable(const Literal& literal, std::string_view receiver, const CqlType& type) {
  if (type.kind() != Kind::kUdt) {
    ThrowInvalid("Invalid user type literal for " + std::string(receiver) + " of type " +
                 type.ToCql());
  }
  const std::vector<int> indexes = UdtFieldIndexes(literal, type);
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (indexes[i] < 0) continue;
    const CqlType& field_type = *type.params()[i];
    if (TestAssignment(literal.elements[static_cast<size_t>(indexes[i])], field_type) ==
        AssignmentResult::kNotAssignable) {
      ThrowInvalid("Invalid user type literal for " + std::string(receiver) + ": field " +
                   type.field_names()[i] + " is not of type " + field_type.ToCql());
    }
  }
}

[[noreturn]] void ThrowElementNotOfType(const char* what, std::string_view receiver,
                                        const Literal& element, const CqlType& element_type) {
  ThrowInvalid(std::string("Invalid ") + what + " literal for " + std::string(receiver) +
               ": value " + element.ToText() + " is not of type " + element_type.ToCql());
}

// AssignmentTestable for each element (Lists, Sets, Vectors: validateAssignableTo).
void CheckElementsAssignable(const std::vector<Literal>& elements, const char* what,
                             std::string_view receiver, const CqlType& element_type) {
  for (const Literal& element : elements) {
    if (TestAssignment(element, element_type) == AssignmentResult::kNotAssignable) {
      ThrowElementNotOfType(what, receiver, element, element_type);
    }
  }
}

// Lists.Literal.validateAssignableTo.
void ValidateListAssignable(const Literal& literal, std::string_view receiver,
                            const CqlType& type) {
  if (type.kind() != Kind::kList) {
    ThrowInvalid("Invalid list literal for " + std::string(receiver) + " of type " + type.ToCql());
  }
  CheckElementsAssignable(literal.elements, "list", receiver, *type.params()[0]);
}

// Sets.Literal.validateAssignableTo: {} is parsed as a set literal, and for
// a map it is the empty map.
void ValidateSetAssignable(const Literal& literal, std::string_view receiver, const CqlType& type) {
  if (type.kind() != Kind::kSet) {
    if (type.kind() == Kind::kMap && literal.elements.empty()) return;
    ThrowInvalid("Invalid set literal for " + std::string(receiver) + " of type " + type.ToCql());
  }
  CheckElementsAssignable(literal.elements, "set", receiver, *type.params()[0]);
}

// Maps.Literal.validateAssignableTo.
void ValidateMapAssignable(const Literal& literal, std::string_view receiver, const CqlType& type) {
  if (type.kind() != Kind::kMap) {
    ThrowInvalid("Invalid map literal for " + std::string(receiver) + " of type " + type.ToCql());
  }
  const CqlType& key_type = *type.params()[0];
  const CqlType& value_type = *type.params()[1];
  const auto& e = literal.elements;
  for (size_t i = 0; i + 1 < e.size(); i += 2) {
    if (TestAssignment(e[i], key_type) == AssignmentResult::kNotAssignable) {
      ThrowInvalid("Invalid map literal for " + std::string(receiver) + ": key " + e[i].ToText() +
                   " is not of type " + key_type.ToCql());
    }
    if (TestAssignment(e[i + 1], value_type) == AssignmentResult::kNotAssignable) {
      ThrowInvalid("Invalid map literal for " + std::string(receiver) + ": value " +
                   e[i + 1].ToText() + " is not of type " + value_type.ToCql());
    }
  }
}

// Vectors.Literal (5.0): as many elements as the dimension.
void ValidateVectorSize(const Literal& literal, std::string_view receiver, const CqlType& type) {
  const auto dimension = static_cast<size_t>(type.vector_dimension());
  if (literal.elements.size() != dimension) {
    ThrowInvalid("Invalid vector literal for " + std::string(receiver) + " of type " +
                 type.ToCql() + "; expected " + std::to_string(dimension) +
                 " elements, but given " + std::to_string(literal.elements.size()));
  }
}

[[noreturn]] void ThrowMarkersInCollection(const char* what, std::string_view receiver) {
  ThrowInvalid(std::string("Invalid ") + what + " literal for " + std::string(receiver) +
               ": bind variables are not supported inside collection literals");
}

class Converter {
 public:
  explicit Converter(int64_t now_millis) : now_millis_(now_millis) {}

  std::optional<Bytes> Convert(const Literal& literal, std::string_view receiver,
                               const CqlType& type) {
    switch (literal.kind) {
      case LK::kNull:
        if (type.kind() == Kind::kCounter) {
          ThrowInvalid("Invalid null value for counter increment/decrement");
        }
        return std::nullopt;
      case LK::kUnset:
        ThrowInvalid("Invalid unset value for " + std::string(receiver));
      case LK::kConstant:
        return ConvertConstant(literal.constant_kind, literal.text, receiver, type, now_millis_);
      case LK::kValue:
        if (!literal.value) return std::nullopt;
        Validate(type, *literal.value);
        return literal.value;
      case LK::kList:
        if (type.kind() == Kind::kVector) return ConvertVector(literal, receiver, type);
        return ConvertList(literal, receiver, type);
      case LK::kSet:
        return ConvertSet(literal, receiver, type);
      case LK::kMap:
        return ConvertMap(literal, receiver, type);
      case LK::kTuple:
        return ConvertTuple(literal, receiver, type);
      case LK::kUdt:
        return ConvertUdt(literal, receiver, type);
    }
    ThrowInvalid("Unsupported literal for " + std::string(receiver));
  }

 private:
  // Converts each element (all conversion errors first, as Cassandra
  // prepares every element before binding), then refuses nulls.
  std::vector<Bytes> ConvertElements(const std::vector<Literal>& elements, const char* what,
                                     std::string_view receiver, const CqlType& element_type) {
    const std::string element_receiver = ElementName("value", receiver);
    std::vector<std::optional<Bytes>> converted;
    converted.reserve(elements.size());
    for (const Literal& element : elements) {
      if (element.kind == LK::kUnset) ThrowMarkersInCollection(what, receiver);
      converted.push_back(Convert(element, element_receiver, element_type));
    }
    std::vector<Bytes> values;
    values.reserve(converted.size());
    for (auto& value : converted) {
      if (!value) ThrowInvalid("null is not supported inside collections");
      values.push_back(std::move(*value));
    }
    return values;
  }

  Bytes ConvertList(const Literal& literal, std::string_view receiver, const CqlType& type) {
    ValidateListAssignable(literal, receiver, type);
    return EncodeList(ConvertElements(literal.elements, "list", receiver, *type.params()[0]));
  }

  Bytes ConvertSet(const Literal& literal, std::string_view receiver, const CqlType& type) {
    ValidateSetAssignable(literal, receiver, type);
    if (type.kind() == Kind::kMap) return EncodeMap({});  // {} for a map
    const CqlType& element_type = *type.params()[0];
    return BuildSetValue(element_type,
                         ConvertElements(literal.elements, "set", receiver, element_type));
  }

  Bytes ConvertMap(const Literal& literal, std::string_view receiver, const CqlType& type) {
    ValidateMapAssignable(literal, receiver, type);
    const CqlType& key_type = *type.params()[0];
    const CqlType& value_type = *type.params()[1];
    const auto& e = literal.elements;
    const std::string key_receiver = ElementName("key", receiver);
    const std::string value_receiver = ElementName("value", receiver);
    std::vector<std::pair<std::optional<Bytes>, std::optional<Bytes>>> converted;
    for (size_t i = 0; i + 1 < e.size(); i += 2) {
      if (e[i].kind == LK::kUnset || e[i + 1].kind == LK::kUnset) {
        ThrowMarkersInCollection("map", receiver);
      }
      auto key = Convert(e[i], key_receiver, key_type);
      auto value = Convert(e[i + 1], value_receiver, value_type);
      converted.emplace_back(std::move(key), std::move(value));
    }
    std::vector<std::pair<Bytes, Bytes>> entries;
    entries.reserve(converted.size());
    for (auto& [key, value] : converted) {
      if (!key || !value) ThrowInvalid("null is not supported inside collections");
      entries.emplace_back(std::move(*key), std::move(*value));
    }
    return BuildMapValue(key_type, std::move(entries));
  }

  Bytes ConvertTuple(const Literal& literal, std::string_view receiver, const CqlType& type) {
    ValidateTupleAssignable(literal, receiver, type);
    std::vector<std::optional<Bytes>> components;
    components.reserve(literal.elements.size());
    for (size_t i = 0; i < literal.elements.size(); ++i) {
      const Literal& element = literal.elements[i];
      if (element.kind == LK::kUnset) {
        ThrowInvalid("Invalid unset value for tuple field number " + std::to_string(i));
      }
      components.push_back(Convert(element, std::string(receiver) + "[" + std::to_string(i) + "]",
                                   *type.params()[i]));
    }
    return EncodeComponents(components);
  }

  Bytes ConvertUdt(const Literal& literal, std::string_view receiver, const CqlType& type) {
    ValidateUdtAssignable(literal, receiver, type);
    const std::vector<int> indexes = UdtFieldIndexes(literal, type);
    std::vector<std::optional<Bytes>> fields;
    fields.reserve(indexes.size());
    for (size_t i = 0; i < indexes.size(); ++i) {
      if (indexes[i] < 0) {
        fields.emplace_back(std::nullopt);
        continue;
      }
      const Literal& element = literal.elements[static_cast<size_t>(indexes[i])];
      if (element.kind == LK::kUnset) {
        // UserTypes.DelayedValue: a frozen value is written whole, so an
        // unset field is refused; in a non-frozen one it is the empty value
        // (UNSET_BYTE_BUFFER), which Cassandra writes as the field's cell.
        if (type.frozen()) {
          ThrowInvalid("Invalid unset value for field '" + type.field_names()[i] +
                       "' of user defined type " + type.udt_name());
        }
        fields.emplace_back(Bytes());
        continue;
      }
      fields.push_back(
          Convert(element, std::string(receiver) + "." + type.field_names()[i], *type.params()[i]));
    }
    // Fields the type does not have are reported after the others convert.
    CheckUdtFieldsKnown(literal, type);
    return EncodeComponents(fields);
  }

  // Vectors (Cassandra 5.0): per element, the assignment test then the
  // conversion; nulls refused at the end.
  Bytes ConvertVector(const Literal& literal, std::string_view receiver, const CqlType& type) {
    ValidateVectorSize(literal, receiver, type);
    const auto dimension = static_cast<size_t>(type.vector_dimension());
    const CqlType& element_type = *type.params()[0];
    const std::string element_receiver = ElementName("value", receiver);
    std::vector<std::optional<Bytes>> converted;
    converted.reserve(dimension);
    for (const Literal& element : literal.elements) {
      if (TestAssignment(element, element_type) == AssignmentResult::kNotAssignable) {
        ThrowElementNotOfType("vector", receiver, element, element_type);
      }
      if (element.kind == LK::kUnset) {
        converted.emplace_back(std::nullopt);  // refused below, as Cassandra does
        continue;
      }
      converted.push_back(Convert(element, element_receiver, element_type));
    }
    // An empty value of a fixed-width type is that type's null.
    const bool fixed_width = FixedValueLength(element_type).has_value();
    std::vector<Bytes> values;
    values.reserve(dimension);
    for (auto& value : converted) {
      if (!value || (fixed_width && value->empty())) {
        ThrowInvalid("null is not supported inside vectors");
      }
      values.push_back(std::move(*value));
    }
    return BuildVectorValue(type, values);
  }

  static Bytes EncodeComponents(const std::vector<std::optional<Bytes>>& components) {
    std::vector<std::optional<BytesView>> views;
    views.reserve(components.size());
    for (const auto& component : components) {
      views.push_back(component ? std::optional<BytesView>(*component) : std::nullopt);
    }
    return EncodeTuple(views);
  }

  int64_t now_millis_;
};

AssignmentResult TestValueAssignment(const Literal& literal, const CqlType& receiver) {
  if (!literal.value_type) return AssignmentResult::kWeaklyAssignable;
  const CqlType& value_type = *literal.value_type;
  // AbstractType.testAssignment: frozenness and order make no difference.
  const TypePtr frozen_receiver =
      value_type.frozen() && (value_type.is_collection() || value_type.kind() == Kind::kUdt)
          ? CqlType::Frozen(std::make_shared<CqlType>(receiver))
          : nullptr;
  const CqlType& effective = frozen_receiver ? *frozen_receiver : receiver;
  if (value_type.Equals(effective)) return AssignmentResult::kExactMatch;
  return IsValueCompatibleWith(effective, value_type) ? AssignmentResult::kWeaklyAssignable
                                                      : AssignmentResult::kNotAssignable;
}

}  // namespace

Literal Literal::Constant(ConstantKind kind, std::string text) {
  Literal literal;
  literal.kind = Kind::kConstant;
  literal.constant_kind = kind;
  literal.text = std::move(text);
  return literal;
}

Literal Literal::Collection(Kind kind, std::vector<Literal> elements) {
  Literal literal;
  literal.kind = kind;
  literal.elements = std::move(elements);
  return literal;
}

Literal Literal::Udt(std::vector<std::string> field_names, std::vector<Literal> values) {
  Literal literal;
  literal.kind = Kind::kUdt;
  literal.field_names = std::move(field_names);
  literal.elements = std::move(values);
  return literal;
}

Literal Literal::Value(std::optional<Bytes> value, TypePtr type, std::string text) {
  Literal literal;
  literal.kind = Kind::kValue;
  literal.value = std::move(value);
  literal.value_type = std::move(type);
  literal.text = std::move(text);
  return literal;
}

Literal Literal::Unset() {
  Literal literal;
  literal.kind = Kind::kUnset;
  literal.text = "?";
  return literal;
}

std::string Literal::ToText() const {
  switch (kind) {
    case Kind::kConstant:
      return constant_kind == ConstantKind::kString ? "'" + text + "'" : text;
    case Kind::kNull:
      return "NULL";
    case Kind::kList:
      return Join(elements, "[", "]");
    case Kind::kSet:
      return Join(elements, "{", "}");
    case Kind::kTuple:
      return Join(elements, "(", ")");
    case Kind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i + 1 < elements.size(); i += 2) {
        if (i > 0) out.append(", ");
        out.append(elements[i].ToText()).append(": ").append(elements[i + 1].ToText());
      }
      return out.append("}");
    }
    case Kind::kUdt: {
      std::string out = "{";
      for (size_t i = 0; i < elements.size() && i < field_names.size(); ++i) {
        if (i > 0) out.append(", ");
        out.append(field_names[i]).append(": ").append(elements[i].ToText());
      }
      return out.append("}");
    }
    case Kind::kValue:
    case Kind::kUnset:
      return text;
  }
  return text;
}

AssignmentResult TestAssignment(const Literal& literal, const CqlType& receiver) {
  using R = AssignmentResult;
  switch (literal.kind) {
    case LK::kConstant:
      return TestConstantAssignment(literal.constant_kind, literal.text, receiver);
    case LK::kNull:
      return receiver.kind() == Kind::kCounter ? R::kNotAssignable : R::kWeaklyAssignable;
    case LK::kUnset:
      return R::kWeaklyAssignable;  // stands for a bind marker, which fits anything
    case LK::kValue:
      return TestValueAssignment(literal, receiver);
    case LK::kList:
      if (receiver.kind() == Kind::kVector) {
        if (literal.elements.size() != static_cast<size_t>(receiver.vector_dimension())) {
          return R::kNotAssignable;
        }
        return TestAllAgainst(literal.elements, *receiver.params()[0]);
      }
      if (receiver.kind() != Kind::kList) return R::kNotAssignable;
      // An empty collection fits any element type, so it is never exact.
      if (literal.elements.empty()) return R::kWeaklyAssignable;
      return TestAllAgainst(literal.elements, *receiver.params()[0]);
    case LK::kSet:
      if (receiver.kind() != Kind::kSet) {
        return receiver.kind() == Kind::kMap && literal.elements.empty() ? R::kWeaklyAssignable
                                                                         : R::kNotAssignable;
      }
      if (literal.elements.empty()) return R::kWeaklyAssignable;
      return TestAllAgainst(literal.elements, *receiver.params()[0]);
    case LK::kMap: {
      if (receiver.kind() != Kind::kMap) return R::kNotAssignable;
      if (literal.elements.empty()) return R::kWeaklyAssignable;
      std::vector<const Literal*> elements;
      std::vector<const CqlType*> receivers;
      for (size_t i = 0; i + 1 < literal.elements.size(); i += 2) {
        elements.push_back(&literal.elements[i]);
        receivers.push_back(receiver.params()[0].get());
        elements.push_back(&literal.elements[i + 1]);
        receivers.push_back(receiver.params()[1].get());
      }
      return TestAll(elements, receivers);
    }
    case LK::kTuple:
    case LK::kUdt:
      try {
        if (literal.kind == LK::kTuple) {
          ValidateTupleAssignable(literal, "", receiver);
        } else {
          ValidateUdtAssignable(literal, "", receiver);
        }
        return R::kWeaklyAssignable;
      } catch (const CqlError&) {
        return R::kNotAssignable;
      }
  }
  return R::kNotAssignable;
}

std::optional<Bytes> ConvertLiteral(const Literal& literal, std::string_view receiver,
                                    const CqlType& type, int64_t now_millis) {
  return Converter(now_millis).Convert(literal, receiver, type);
}

void ValidateAssignable(const Literal& literal, std::string_view receiver, const CqlType& type) {
  switch (literal.kind) {
    case LK::kList:
      if (type.kind() == Kind::kVector) {
        // Vectors.Literal.prepare (5.0): the dimension, then every element.
        ValidateVectorSize(literal, receiver, type);
        CheckElementsAssignable(literal.elements, "vector", receiver, *type.params()[0]);
      } else {
        ValidateListAssignable(literal, receiver, type);
      }
      return;
    case LK::kSet:
      return ValidateSetAssignable(literal, receiver, type);
    case LK::kMap:
      return ValidateMapAssignable(literal, receiver, type);
    case LK::kTuple:
      return ValidateTupleAssignable(literal, receiver, type);
    case LK::kUdt:
      return ValidateUdtAssignable(literal, receiver, type);
    default:
      return;
  }
}

// The UDT literal's fields as the grammar collects them: a map where a
// repeated name keeps its last value.
std::vector<int> UdtFieldIndexes(const Literal& literal, const CqlType& type) {
  std::vector<int> indexes(type.field_names().size(), -1);
  for (size_t i = 0; i < type.field_names().size(); ++i) {
    for (size_t j = 0; j < literal.field_names.size(); ++j) {
      if (literal.field_names[j] == type.field_names()[i]) indexes[i] = static_cast<int>(j);
    }
  }
  return indexes;
}

void CheckUdtFieldsKnown(const Literal& literal, const CqlType& type) {
  for (const std::string& name : literal.field_names) {
    if (std::find(type.field_names().begin(), type.field_names().end(), name) ==
        type.field_names().end()) {
      ThrowInvalid("Unknown field '" + name + "' in value of user defined type " + type.udt_name());
    }
  }
}

}  // namespace sibyl::types
