#pragma once
// Helpers for the function library's tests: resolve a native function by
// exact argument types and call it on serialized values.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "query/functions/function_registry.h"
#include "types/big_number.h"
#include "types/cql_type.h"
#include "types/value_codec.h"

namespace sibyl::query::testing {

inline types::TypePtr T(types::Kind kind) { return types::CqlType::Native(kind); }

// A decimal value from its text ("1.5").
inline Bytes Decimal(std::string_view text) { return *types::ParseDecimal(text); }

// The overload of `name` whose argument types are exactly `types`.
inline FunctionPtr Overload(const std::string& name, const std::vector<types::TypePtr>& types) {
  for (const FunctionPtr& f : FunctionRegistry::Native().Overloads(name)) {
    if (f->arg_types().size() != types.size()) continue;
    bool same = true;
    for (size_t i = 0; i < types.size(); ++i) same = same && f->arg_types()[i]->Equals(*types[i]);
    if (same) return f;
  }
  ADD_FAILURE() << "no overload " << name;
  return nullptr;
}

class FunctionTest : public ::testing::Test {
 protected:
  FunctionTest() { context_.clock = &clock_; }

  // Calls `name`(args) with args typed as `types`.
  OptBytes Call(const std::string& name, const std::vector<types::TypePtr>& types,
                const std::vector<std::optional<Bytes>>& args) {
    FunctionPtr f = Overload(name, types);
    if (!f) return std::nullopt;
    return Execute(*f, args);
  }
  OptBytes Execute(const Function& f, const std::vector<std::optional<Bytes>>& args) {
    std::vector<std::optional<BytesView>> views;
    for (const auto& a : args) views.push_back(a ? std::optional<BytesView>(*a) : std::nullopt);
    return f.Execute(views, context_);
  }
  // One-argument shorthand.
  OptBytes Call1(const std::string& name, types::Kind kind, const std::optional<Bytes>& arg) {
    return Call(name, {T(kind)}, {arg});
  }

  ManualClock clock_{1'700'000'000'123'456};  // 2023-11-14T22:13:20.123456Z
  FunctionContext context_;
};

}  // namespace sibyl::query::testing
