#include "types/type_compatibility.h"

#include <optional>

namespace sibyl::types {
namespace {

bool IsMultiCell(const CqlType& type) {
  return (type.is_collection() || type.kind() == Kind::kUdt) && !type.frozen();
}

bool IsTupleLike(const CqlType& type) {
  // UserType extends TupleType in Cassandra, so tuple rules see UDTs too.
  return type.kind() == Kind::kTuple || type.kind() == Kind::kUdt;
}

// AbstractType.valueLengthIfFixed in Cassandra 4.1 (tinyint, smallint, date
// and time are stored variable-length there, unlike their wire widths).
std::optional<size_t> StoredLengthIfFixed(const CqlType& type) {
  switch (type.kind()) {
    case Kind::kBoolean:
      return 1;
    case Kind::kInt:
    case Kind::kFloat:
      return 4;
    case Kind::kBigint:
    case Kind::kDouble:
    case Kind::kTimestamp:
      return 8;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return 16;
    case Kind::kVector: {
      const auto element = StoredLengthIfFixed(*type.params()[0]);
      if (!element) return std::nullopt;
      return *element * static_cast<size_t>(type.vector_dimension());
    }
    default:
      return std::nullopt;
  }
}

// TupleType.isCompatibleWith / isValueCompatibleWithInternal: components may
// be added at the end, and each old one must stay compatible.
bool TupleComponentsCompatible(const CqlType& new_type, const CqlType& old_type, bool value) {
  if (!IsTupleLike(old_type) || new_type.params().size() < old_type.params().size()) return false;
  for (size_t i = 0; i < old_type.params().size(); ++i) {
    const CqlType& n = *new_type.params()[i];
    const CqlType& o = *old_type.params()[i];
    if (!(value ? IsValueCompatibleWith(n, o) : IsCompatibleWith(n, o))) return false;
  }
  return true;
}

// CollectionType.isCompatibleWithFrozen for each collection kind.
bool FrozenCollectionCompatible(const CqlType& n, const CqlType& o) {
  if (n.kind() == Kind::kMap) {
    return IsCompatibleWith(*n.params()[0], *o.params()[0]) &&
           IsCompatibleWith(*n.params()[1], *o.params()[1]);
  }
  return IsCompatibleWith(*n.params()[0], *o.params()[0]);
}

bool CollectionCompatible(const CqlType& n, const CqlType& o) {
  if (n.Equals(o)) return true;
  if (n.kind() != o.kind() || IsMultiCell(n) != IsMultiCell(o)) return false;
  if (!IsMultiCell(n)) return FrozenCollectionCompatible(n, o);
  // Non-frozen: the cell path compares as the name comparator (timeuuids for
  // lists, the elements for sets, the keys for maps), and only the cell
  // values' serialization matters.
  switch (n.kind()) {
    case Kind::kList:
      return IsSerializationCompatibleWith(*n.params()[0], *o.params()[0]);
    case Kind::kSet:
      return IsCompatibleWith(*n.params()[0], *o.params()[0]);
    default:
      return IsCompatibleWith(*n.params()[0], *o.params()[0]) &&
             IsSerializationCompatibleWith(*n.params()[1], *o.params()[1]);
  }
}

bool CollectionValueCompatible(const CqlType& n, const CqlType& o) {
  if (IsMultiCell(n)) return CollectionCompatible(n, o);
  if (n.Equals(o)) return true;
  if (n.kind() != o.kind() || IsMultiCell(o)) return false;
  switch (n.kind()) {
    case Kind::kList:
      return IsValueCompatibleWith(*n.params()[0], *o.params()[0]);
    case Kind::kSet:
      // Sets are sorted: a change must keep the elements' order.
      return IsCompatibleWith(*n.params()[0], *o.params()[0]);
    default:
      return IsCompatibleWith(*n.params()[0], *o.params()[0]) &&
             IsValueCompatibleWith(*n.params()[1], *o.params()[1]);
  }
}

// UserType.isValueCompatibleWith: a user type of the same keyspace and
// multi-cell-ness whose fields stay compatible (by name only through their
// position); new fields may follow.
bool UdtValueCompatible(const CqlType& n, const CqlType& o) {
  if (n.Equals(o)) return true;
  if (o.kind() != Kind::kUdt || IsMultiCell(n) != IsMultiCell(o) ||
      n.udt_keyspace() != o.udt_keyspace() || n.params().size() < o.params().size()) {
    return false;
  }
  for (size_t i = 0; i < o.params().size(); ++i) {
    if (!IsCompatibleWith(*n.params()[i], *o.params()[i])) return false;
  }
  return true;
}

}  // namespace

bool IsCompatibleWith(const CqlType& new_type, const CqlType& old_type) {
  switch (new_type.kind()) {
    case Kind::kText:
      return old_type.kind() == Kind::kText || old_type.kind() == Kind::kAscii;
    case Kind::kBlob:
      return old_type.kind() == Kind::kBlob || old_type.kind() == Kind::kAscii ||
             old_type.kind() == Kind::kText;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return CollectionCompatible(new_type, old_type);
    case Kind::kTuple:
    case Kind::kUdt:
      return new_type.Equals(old_type) || TupleComponentsCompatible(new_type, old_type, false);
    default:
      return new_type.Equals(old_type);
  }
}

bool IsValueCompatibleWith(const CqlType& new_type, const CqlType& old_type) {
  const Kind old_kind = old_type.kind();
  switch (new_type.kind()) {
    case Kind::kBlob:
      return true;  // a blob can hold anything
    case Kind::kVarint:
      return old_kind == Kind::kVarint || old_kind == Kind::kInt || old_kind == Kind::kBigint ||
             old_kind == Kind::kTimestamp;
    case Kind::kBigint:
    case Kind::kTimestamp:
      return old_kind == Kind::kBigint || old_kind == Kind::kTimestamp;
    case Kind::kTime:
      return old_kind == Kind::kTime || old_kind == Kind::kBigint;
    case Kind::kDate:
      return old_kind == Kind::kDate || old_kind == Kind::kInt;
    case Kind::kUuid:
      return old_kind == Kind::kUuid || old_kind == Kind::kTimeuuid;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return CollectionValueCompatible(new_type, old_type);
    case Kind::kTuple:
      return new_type.Equals(old_type) || TupleComponentsCompatible(new_type, old_type, true);
    case Kind::kUdt:
      return UdtValueCompatible(new_type, old_type);
    default:
      return IsCompatibleWith(new_type, old_type);
  }
}

bool IsSerializationCompatibleWith(const CqlType& new_type, const CqlType& old_type) {
  if (new_type.is_collection()) {
    // CollectionType: value-compatible, and the cell values (list elements,
    // map values; nothing for sets) stored alike.
    if (!IsValueCompatibleWith(new_type, old_type)) return false;
    switch (new_type.kind()) {
      case Kind::kList:
        return IsSerializationCompatibleWith(*new_type.params()[0], *old_type.params()[0]);
      case Kind::kMap:
        return IsSerializationCompatibleWith(*new_type.params()[1], *old_type.params()[1]);
      default:
        return true;
    }
  }
  return IsValueCompatibleWith(new_type, old_type) &&
         StoredLengthIfFixed(new_type) == StoredLengthIfFixed(old_type) &&
         IsMultiCell(new_type) == IsMultiCell(old_type);
}

TypePtr ExpandUserTypes(const TypePtr& type) {
  switch (type->kind()) {
    case Kind::kList:
      return CqlType::List(ExpandUserTypes(type->params()[0]), type->frozen());
    case Kind::kSet:
      return CqlType::Set(ExpandUserTypes(type->params()[0]), type->frozen());
    case Kind::kMap:
      return CqlType::Map(ExpandUserTypes(type->params()[0]), ExpandUserTypes(type->params()[1]),
                          type->frozen());
    case Kind::kTuple:
    case Kind::kUdt: {
      std::vector<TypePtr> components;
      components.reserve(type->params().size());
      for (const auto& param : type->params()) components.push_back(ExpandUserTypes(param));
      return CqlType::Tuple(std::move(components));
    }
    case Kind::kVector:
      return CqlType::Vector(ExpandUserTypes(type->params()[0]), type->vector_dimension());
    default:
      return type;
  }
}

}  // namespace sibyl::types
