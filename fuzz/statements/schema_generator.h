#pragma once
// Random, well-typed schema for the statement fuzzer: CQL type texts of
// every kind (native types, frozen and non-frozen collections, tuples, user
// types, counters), user types, and tables with composite partition keys,
// clustering columns in either order and static columns. What it writes is
// mostly valid; now and then it is something Cassandra refuses (a duration
// in a key, a counter beside a regular column), so the refusals run too.

#include <string>
#include <vector>

#include "fuzz/statements/choices.h"

namespace sibyl::fuzz {

// The keyspace every generated statement works in.
inline constexpr const char* kFuzzKeyspace = "fz";

// Where a type is used: what Cassandra allows there differs.
enum class TypeRole {
  kKey,      // partition or clustering column: frozen only, no duration or counter
  kRegular,  // a regular or static column: non-frozen collections and user types too
  kElement,  // inside a collection, tuple or user type: frozen only
};

// A type's CQL text. `user_types` names the keyspace's user types (unqualified).
[[nodiscard]] std::string RandomTypeText(Choices& choices, TypeRole role,
                                         const std::vector<std::string>& user_types, int depth = 0);

// CREATE TYPE fz.<name> (...).
[[nodiscard]] std::string RandomCreateType(Choices& choices, const std::string& name,
                                           const std::vector<std::string>& user_types);

// CREATE TABLE fz.<name> (...): 1-2 partition key columns, 0-3 clustering
// columns, static columns when there are clustering columns, regular
// columns; sometimes a counter table (every non-key column a counter), a
// default TTL or gc_grace_seconds 0.
[[nodiscard]] std::string RandomCreateTable(Choices& choices, const std::string& name,
                                            const std::vector<std::string>& user_types);

}  // namespace sibyl::fuzz
