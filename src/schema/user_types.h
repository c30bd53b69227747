#pragma once
// User types inside column and field types. The type parser leaves a user
// type as a name (types::CqlType::is_unresolved_udt); the schema resolves it
// against the keyspace's definitions, as Cassandra's UTName/RawUT.prepare do,
// and follows definitions through ALTER TYPE and DROP TYPE.

#include <map>
#include <string>
#include <string_view>

#include "types/cql_type.h"

namespace sibyl::schema {

using UserTypeMap = std::map<std::string, types::TypePtr, std::less<>>;

// `type` with every user type it names replaced by its definition in
// `keyspace` (frozen where it was written frozen). Throws CqlError(kInvalid):
//   Unknown type ks.address
//   Statement on keyspace ks cannot refer to a user type in keyspace other;
//   user types can only be used in the keyspace they are defined in
[[nodiscard]] types::TypePtr ResolveUserTypes(const types::TypePtr& type, std::string_view keyspace,
                                              const UserTypeMap& user_types);

// True when `type` contains the user type keyspace.name at any depth.
[[nodiscard]] bool ReferencesUserType(const types::CqlType& type, std::string_view keyspace,
                                      std::string_view name);

// `type` with every occurrence of the user type `updated` names replaced by
// `updated` (each occurrence keeps its frozenness); `type` itself when it
// does not reference it.
[[nodiscard]] types::TypePtr ReplaceUserType(const types::TypePtr& type,
                                             const types::TypePtr& updated);

// A value stored as several cells: a non-frozen collection or user type.
[[nodiscard]] bool IsMultiCell(const types::CqlType& type);
[[nodiscard]] bool IsCounter(const types::CqlType& type);
// AbstractType.referencesDuration: duration at any depth.
[[nodiscard]] bool ReferencesDuration(const types::CqlType& type);

}  // namespace sibyl::schema
