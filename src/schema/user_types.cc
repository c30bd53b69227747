#include "schema/user_types.h"

#include <utility>
#include <vector>

#include "common/error.h"

namespace sibyl::schema {
namespace {

using types::CqlType;
using types::Kind;
using types::TypePtr;

// Rebuilds `type` with `map_child` applied to each parameter; returns `type`
// itself when no parameter changed.
template <typename MapChild>
TypePtr Rebuild(const TypePtr& type, MapChild&& map_child) {
  std::vector<TypePtr> params;
  bool changed = false;
  for (const auto& param : type->params()) {
    params.push_back(map_child(param));
    changed |= params.back() != param;
  }
  if (!changed) return type;
  switch (type->kind()) {
    case Kind::kList:
      return CqlType::List(params[0], type->frozen());
    case Kind::kSet:
      return CqlType::Set(params[0], type->frozen());
    case Kind::kMap:
      return CqlType::Map(params[0], params[1], type->frozen());
    case Kind::kTuple:
      return CqlType::Tuple(std::move(params));
    case Kind::kVector:
      return CqlType::Vector(params[0], type->vector_dimension());
    case Kind::kUdt:
      return CqlType::Udt(type->udt_keyspace(), type->udt_name(), type->field_names(),
                          std::move(params), type->frozen());
    default:
      return type;
  }
}

}  // namespace

TypePtr ResolveUserTypes(const TypePtr& type, std::string_view keyspace,
                         const UserTypeMap& user_types) {
  if (type->is_unresolved_udt()) {
    if (!type->udt_keyspace().empty() && type->udt_keyspace() != keyspace) {
      ThrowInvalid("Statement on keyspace " + std::string(keyspace) +
                   " cannot refer to a user type in keyspace " + type->udt_keyspace() +
                   "; user types can only be used in the keyspace they are defined in");
    }
    auto it = user_types.find(type->udt_name());
    if (it == user_types.end()) {
      ThrowInvalid("Unknown type " + std::string(keyspace) + "." + type->udt_name());
    }
    return type->frozen() ? CqlType::Frozen(it->second) : it->second;
  }
  if (type->kind() == Kind::kUdt) return type;  // already a definition
  return Rebuild(
      type, [&](const TypePtr& child) { return ResolveUserTypes(child, keyspace, user_types); });
}

bool ReferencesUserType(const CqlType& type, std::string_view keyspace, std::string_view name) {
  if (type.kind() == Kind::kUdt && type.udt_keyspace() == keyspace && type.udt_name() == name) {
    return true;
  }
  for (const auto& param : type.params()) {
    if (ReferencesUserType(*param, keyspace, name)) return true;
  }
  return false;
}

TypePtr ReplaceUserType(const TypePtr& type, const TypePtr& updated) {
  if (type->kind() == Kind::kUdt && type->udt_keyspace() == updated->udt_keyspace() &&
      type->udt_name() == updated->udt_name()) {
    return type->frozen() ? CqlType::Frozen(updated) : updated;
  }
  if (!ReferencesUserType(*type, updated->udt_keyspace(), updated->udt_name())) return type;
  return Rebuild(type, [&](const TypePtr& child) { return ReplaceUserType(child, updated); });
}

bool IsMultiCell(const CqlType& type) {
  return (type.is_collection() || type.kind() == Kind::kUdt) && !type.frozen();
}

bool IsCounter(const CqlType& type) { return type.kind() == Kind::kCounter; }

bool ReferencesDuration(const CqlType& type) {
  if (type.kind() == Kind::kDuration) return true;
  for (const auto& param : type.params()) {
    if (ReferencesDuration(*param)) return true;
  }
  return false;
}

}  // namespace sibyl::schema
