#pragma once
// Helpers shared by the parser tests (header-only, tests only).

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <variant>

#include "common/error.h"
#include "cql/parser.h"

namespace sibyl::cql::testing {

// Parses `query`, expecting a statement of type T (a test failure otherwise).
template <typename T>
T Parse(std::string_view query) {
  ParsedStatement parsed = ParseStatement(query);
  const auto* statement = std::get_if<T>(&parsed.statement);
  EXPECT_NE(statement, nullptr) << query;
  return statement ? *statement : T{};
}

// The error for `query` as "syntax: <message>" or "invalid: <message>", or "parsed".
inline std::string ErrorOf(std::string_view query) {
  try {
    static_cast<void>(ParseStatement(query));
  } catch (const CqlError& e) {
    return (e.code() == ErrorCode::kSyntaxError ? "syntax: " : "invalid: ") + std::string(e.what());
  }
  return "parsed";
}

}  // namespace sibyl::cql::testing
