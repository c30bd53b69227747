#pragma once
// A native CQL function as Cassandra 4.1 defines one (cql3/functions/
// AbstractFunction, NativeScalarFunction, NativeAggregateFunction): a name
// in the `system` keyspace, argument types, a return type, and either a
// scalar body or an aggregate state.
//
// Values travel serialized, as everywhere else: a scalar takes one
// optional<BytesView> per argument (nullopt = null) and returns the owned
// serialized result (nullopt = null). Aggregates hand out one state per
// group: Reset / Add (once per row) / Compute.
//
// Errors while executing: Cassandra's InvalidRequestExceptions become
// CqlError(kInvalid) (e.g. blobAsInt of 3 bytes); other failures become
// CqlError(kFunctionFailure) carrying FunctionFailureInfo, as Cassandra's
// FunctionExecutionException does (ThrowFunctionFailure below).
// REQUIRES for Execute: args.size() == arg_types().size().

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/clock.h"
#include "types/cql_type.h"

namespace sibyl::query {

// The keyspace of the native functions (Cassandra's system functions).
inline constexpr std::string_view kSystemKeyspace = "system";

// The arguments of one call, in order; nullopt is a null argument.
using FunctionArgs = std::span<const std::optional<BytesView>>;

// [keyspace.]name as written in the query (the parser lower-cases unquoted
// names). An empty keyspace means "not qualified".
struct FunctionName {
  std::string keyspace;
  std::string name;
  // FunctionName.toString: "name" or "keyspace.name", never quoted.
  [[nodiscard]] std::string ToString() const {
    return keyspace.empty() ? name : keyspace + "." + name;
  }
};

// What a call may need besides its arguments.
struct FunctionContext {
  // now(), currentTimestamp(), currentDate(), currentTime(), currentTimeUUID().
  // REQUIRES: set before executing one of those.
  Clock* clock = nullptr;
  // The client's protocol version (kept for parity with Cassandra, whose
  // functions receive it; none of the native ones depend on it since v3).
  int protocol_version = 4;
};

// One aggregate in progress (AggregateFunction.Aggregate).
class AggregateState {
 public:
  virtual ~AggregateState() = default;
  virtual void Reset() = 0;
  // One row's arguments. Nulls are skipped by every native aggregate but
  // countRows.
  virtual void Add(FunctionArgs args) = 0;
  [[nodiscard]] virtual OptBytes Compute() const = 0;
};

class Function {
 public:
  using ScalarBody = std::function<OptBytes(FunctionArgs, FunctionContext&)>;
  using AggregateFactory = std::function<std::unique_ptr<AggregateState>()>;

  static std::shared_ptr<Function> Scalar(std::string name, types::TypePtr return_type,
                                          std::vector<types::TypePtr> arg_types, ScalarBody body,
                                          bool pure = true);
  static std::shared_ptr<Function> Aggregate(std::string name, types::TypePtr return_type,
                                             std::vector<types::TypePtr> arg_types,
                                             AggregateFactory factory);

  // The name inside the system keyspace, e.g. "todate", "castAsInt".
  const std::string& name() const { return name_; }
  // "system.todate": how Cassandra's messages show fun.name().
  std::string QualifiedName() const { return "system." + name_; }
  const types::TypePtr& return_type() const { return return_type_; }
  const std::vector<types::TypePtr>& arg_types() const { return arg_types_; }
  bool is_aggregate() const { return static_cast<bool>(factory_); }
  // False for now() and friends: identical arguments, different results.
  bool is_pure() const { return pure_; }

  // REQUIRES: !is_aggregate(), args.size() == arg_types().size().
  [[nodiscard]] OptBytes Execute(FunctionArgs args, FunctionContext& context) const {
    return body_(args, context);
  }
  // REQUIRES: is_aggregate().
  [[nodiscard]] std::unique_ptr<AggregateState> NewAggregate() const { return factory_(); }

  // AbstractFunction.toString, as the resolution messages list signatures:
  // system.todate : (timeuuid) -> date; names quoted where CQL needs it:
  // system."castAsInt" : (bigint) -> int.
  [[nodiscard]] std::string ToString() const;
  // The result column's name: "system.todate(t)"; "count" for countRows;
  // "cast(c as int)" for casts (set with set_column_name_format).
  [[nodiscard]] std::string ColumnName(std::span<const std::string> argument_names) const;

  // Internal to the catalog: a fixed column name ("count"), a cast's
  // "cast(%s as int)" form or an operator's "%s + %s", where each %s is the
  // next argument's name.
  void set_column_name_format(std::string format) { column_name_format_ = std::move(format); }

 private:
  Function(std::string name, types::TypePtr return_type, std::vector<types::TypePtr> arg_types)
      : name_(std::move(name)),
        return_type_(std::move(return_type)),
        arg_types_(std::move(arg_types)) {}

  std::string name_;
  types::TypePtr return_type_;
  std::vector<types::TypePtr> arg_types_;
  ScalarBody body_;
  AggregateFactory factory_;
  bool pure_ = true;
  std::string column_name_format_;
};
using FunctionPtr = std::shared_ptr<const Function>;

// Cassandra's FunctionExecutionException (error 0x1400, carrying
// FunctionFailureInfo). Two forms, as Cassandra builds them:
//   ThrowFunctionFailure       "execution of 'system.fromjson[text]' failed: <detail>"
//   ThrowFunctionFailureCause  the Java exception that caused it, alone:
//                              "java.lang.NumberFormatException: Character N is ..."
// Cassandra raises these from function calls in terms; in the selection
// clause its selectors let the cause escape as a server error. Sibyl reports
// a function failure in both places (deliberately: the error names the
// function).
[[noreturn]] void ThrowFunctionFailure(std::string_view name,
                                       std::vector<std::string> argument_types,
                                       std::string_view detail);
[[noreturn]] void ThrowFunctionFailureCause(std::string_view name,
                                            std::vector<std::string> argument_types,
                                            std::string_view cause);

}  // namespace sibyl::query
