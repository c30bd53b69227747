#pragma once
// What a secondary index indexes, as system_schema.indexes' `target` option
// spells it (Cassandra 4.1's IndexTarget): `c` (the column's value; for a
// frozen collection the whole value), `values(c)`, `keys(c)`, `entries(c)`
// or `full(c)`, with the column name in CQL form (quoted where needed).

#include <optional>
#include <string>
#include <string_view>

namespace sibyl::schema {

struct IndexTargetSpec {
  enum class Kind {
    kSimple,   // c: a column's value (not a non-frozen collection)
    kValues,   // values(c): the elements of a list or set, or a map's values
    kKeys,     // keys(c): a map's keys
    kEntries,  // entries(c): a map's (key, value) pairs
    kFull,     // full(c): a frozen collection's whole value
  };
  Kind kind = Kind::kSimple;
  std::string column;  // unquoted

  friend bool operator==(const IndexTargetSpec&, const IndexTargetSpec&) = default;
};

// "values", "keys", "entries", "full", or "" for kSimple.
[[nodiscard]] std::string_view IndexTargetFunction(IndexTargetSpec::Kind kind);

// The target option's text: `c`, `values(c)`, ... (c quoted where CQL needs it).
[[nodiscard]] std::string FormatIndexTarget(const IndexTargetSpec& target);

// The target option parsed back; nullopt when it is not one FormatIndexTarget
// writes (an index created by a custom class with several targets, say).
[[nodiscard]] std::optional<IndexTargetSpec> ParseIndexTarget(std::string_view text);

}  // namespace sibyl::schema
