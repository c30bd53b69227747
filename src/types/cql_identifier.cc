#include "types/cql_identifier.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace sibyl::types {
namespace {

// Cassandra 4.1's reserved keywords (the same list cqlsh keeps in
// cqlhandling.py), sorted for binary search. Words such as REPLACE, DEFAULT,
// UNSET and MBEAN are keywords but not reserved, so they may stay bare.
constexpr std::array<std::string_view, 57> kReserved = {
    "ADD",      "ALLOW",    "ALTER",        "AND",          "APPLY",  "ASC",         "AUTHORIZE",
    "BATCH",    "BEGIN",    "BY",           "COLUMNFAMILY", "CREATE", "DELETE",      "DESC",
    "DESCRIBE", "DROP",     "ENTRIES",      "EXECUTE",      "FROM",   "FULL",        "GRANT",
    "IF",       "IN",       "INDEX",        "INFINITY",     "INSERT", "INTO",        "IS",
    "KEYSPACE", "LIMIT",    "MATERIALIZED", "MODIFY",       "NAN",    "NORECURSIVE", "NOT",
    "NULL",     "OF",       "ON",           "OR",           "ORDER",  "PRIMARY",     "RENAME",
    "REVOKE",   "SCHEMA",   "SELECT",       "SET",          "TABLE",  "TO",          "TOKEN",
    "TRUNCATE", "UNLOGGED", "UPDATE",       "USE",          "USING",  "VIEW",        "WHERE",
    "WITH",
};
static_assert(std::is_sorted(kReserved.begin(), kReserved.end()));

bool IsPlainIdentifier(std::string_view name) {
  if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

bool IsReservedKeyword(std::string_view word) {
  // The longest reserved word is 12 characters; anything longer is not one.
  if (word.empty() || word.size() > 12) return false;
  char upper[12];
  for (size_t i = 0; i < word.size(); ++i) {
    upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[i])));
  }
  return std::binary_search(kReserved.begin(), kReserved.end(),
                            std::string_view(upper, word.size()));
}

std::string MaybeQuoteIdentifier(std::string_view name) {
  if (IsPlainIdentifier(name) && !IsReservedKeyword(name)) return std::string(name);
  std::string quoted;
  quoted.reserve(name.size() + 2);
  quoted.push_back('"');
  for (char c : name) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

}  // namespace sibyl::types
