#pragma once
// CQL keywords: which word lexes to which keyword token, and where the
// grammar accepts a keyword as an identifier (Cassandra 4.1 Parser.g:
// basic_unreserved_keyword, unreserved_function_keyword, unreserved_keyword).

#include <string_view>

#include "cql/lexer_token.h"

namespace sibyl::cql {

enum class KeywordClass : uint8_t {
  kNotKeyword,
  kReserved,
  kBasicUnreserved,
  kNativeType,
  kUnreserved,
};

[[nodiscard]] KeywordClass ClassOf(TokenType type);

// The token a word made of [A-Za-z][A-Za-z0-9_]* lexes to: a keyword, a
// boolean (true/false) or an identifier. Case-insensitive.
[[nodiscard]] TokenType ClassifyWord(std::string_view word);

// basic_unreserved_keyword.
[[nodiscard]] inline bool IsBasicUnreservedKeyword(TokenType t) {
  return ClassOf(t) == KeywordClass::kBasicUnreserved;
}
// native_type.
[[nodiscard]] inline bool IsNativeTypeKeyword(TokenType t) {
  return ClassOf(t) == KeywordClass::kNativeType;
}
// unreserved_function_keyword: allowed as function names.
[[nodiscard]] inline bool IsUnreservedFunctionKeyword(TokenType t) {
  KeywordClass c = ClassOf(t);
  return c == KeywordClass::kBasicUnreserved || c == KeywordClass::kNativeType;
}
// unreserved_keyword: allowed as column, table, keyspace, field and alias names.
[[nodiscard]] inline bool IsUnreservedKeyword(TokenType t) {
  KeywordClass c = ClassOf(t);
  return c == KeywordClass::kBasicUnreserved || c == KeywordClass::kNativeType ||
         c == KeywordClass::kUnreserved;
}

// True when `word` (any case) lexes to a reserved keyword, so that it needs
// double quotes to be used as a name.
[[nodiscard]] bool IsReservedWord(std::string_view word);

}  // namespace sibyl::cql
