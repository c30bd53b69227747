#pragma once
// Cassandra's rules for the names of keyspaces and tables
// (SchemaConstants.isValidName): 1 to 48 characters, each an ASCII letter,
// digit or underscore. Quoted identifiers may hold anything, so the rule is
// checked when the schema changes, not when the statement is parsed.

#include <cstddef>
#include <string_view>

namespace sibyl::schema {

// SchemaConstants.NAME_LENGTH in Cassandra 4.1.
inline constexpr size_t kSchemaNameLength = 48;

[[nodiscard]] bool IsValidSchemaName(std::string_view name);

}  // namespace sibyl::schema
