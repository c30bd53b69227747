#pragma once
// JSON values converted to CQL values, as Cassandra 4.1's types do it in
// fromJSONObject (used by fromJson() and INSERT JSON):
//   - each value is converted to the receiving type: numbers, or strings
//     holding one, for the numeric types; a string holding JSON for
//     collections, tuples, UDTs and vectors; map keys of non-text types are
//     JSON strings holding the key; timestamps as strings or milliseconds;
//   - a value of the wrong shape reads "Expected a value of type T, but got
//     a Number" (Java's class names).

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "types/cql_type.h"
#include "types/json_document.h"

namespace sibyl::types {

// Why one JSON value could not become a value of its type.
class JsonValueError : public std::runtime_error {
 public:
  enum class Kind {
    kSyntax,      // the text is not exactly one JSON value
    kConversion,  // a JSON value of the wrong shape or range for the type
  };
  JsonValueError(Kind kind, const std::string& detail) : std::runtime_error(detail), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Cassandra's Json.handleCaseSensitivity, for the keys naming columns and
// UDT fields: "\"Name\"" keeps its case, any other key is lower-cased.
[[nodiscard]] std::string JsonKeyName(const std::string& key);

// One parsed JSON value as a value of `type` (`receiver` names it in
// messages; nullopt for JSON null). Throws JsonValueError(kConversion).
[[nodiscard]] std::optional<Bytes> JsonToValue(const JsonValue& value, const CqlType& type,
                                               std::string_view receiver);

// fromJson: the text of one JSON value converted to `type` (nullopt for JSON
// null). Throws JsonValueError.
[[nodiscard]] std::optional<Bytes> ParseJsonValue(std::string_view json, const CqlType& type);

}  // namespace sibyl::types
