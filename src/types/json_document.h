#pragma once
// A JSON document parsed into a tree, as INSERT JSON and fromJson() read it
// (RFC 8259, with Java's Map semantics for a repeated key: the last value
// wins). Numbers keep their text, so no precision is lost before the
// receiving CQL type reads them. Nesting deeper than 256 levels is refused,
// so a hostile document cannot exhaust the stack.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::types {

struct JsonMember;

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;  // bool ("true"/"false"), number, string
  std::vector<JsonValue> elements;
  // A vector of a type completed below (a pair of this incomplete type does
  // not compile with clang and libstdc++).
  std::vector<JsonMember> members;
};

struct JsonMember {
  std::string first;
  JsonValue second;
};

// Exactly one JSON value, surrounded by optional white space. Throws
// std::invalid_argument naming the problem and where it is ("expected ':' at
// character 7").
[[nodiscard]] JsonValue ParseJsonDocument(std::string_view text);

}  // namespace sibyl::types
