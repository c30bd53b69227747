#pragma once
// The catalog of Cassandra 4.1's native functions and the overload
// resolution of cql3/functions/FunctionResolver.
//
// Lookup: an unqualified name finds the native (system) functions of that
// name plus, later, user functions of the current keyspace; `system.name`
// finds only natives; any other keyspace finds only its user functions
// (none exist yet). Names are case-sensitive: the parser has already
// lower-cased unquoted names, so toDate(x) finds "todate" and "toDate"(x)
// finds nothing.
//
// Resolution (FunctionResolver.get):
//   - one candidate: argument count and each argument's assignability are
//     checked, with precise messages;
//   - several: candidates whose return type does not fit the receiver (when
//     there is one) are dropped; the first exact match wins; otherwise the
//     one weakly assignable candidate; none or several is an error.
// An argument is an exact match when its type is the parameter's type, or a
// literal's preferred type is; weakly assignable when the parameter type
// accepts its values (types::IsValueCompatibleWith) or the literal converts
// to it; a bind marker is always weakly assignable (its type becomes the
// parameter's: ArgumentSpecName gives the marker's name).
//
// Messages, verbatim from Cassandra 4.1 (names as FunctionName.toString):
//   Unknown function 'foo'                                    (selection)
//   Unknown function foo called                               (terms)
//   Invalid number of arguments in call to function system.todate: 1 required but 2 provided
//   Type error: 'a' cannot be passed as argument 0 of function system.dateof of type timeuuid
//   Ambiguous call to function todate (can be matched by following signatures: system.todate :
//     (timeuuid) -> date, system.todate : (timestamp) -> date): use type casts to disambiguate
//   Invalid call to function todate, none of its type signatures match (known type signatures:
//     system.todate : (timeuuid) -> date, ...)
//   toJson() may only be used within the selection clause of SELECT statements
//   toJson() only accepts one argument (got 2)
//   Cannot infer type for term 1 in selection clause (try using a cast to force a type)
//   fromJson() cannot be used in the selection clause of a SELECT statement
//   Incorrect number of arguments specified for function system.fromjson : (text) -> int
//     (expected 1, found 2)
// and for the operators (names "_add", ..., "_negate"; arithmetic_functions.cc):
//   the '+' operation is not supported between v and 'a'
//   Ambiguous '+' operation: use type casts to disambiguate
//   Ambiguous negation: use type casts to disambiguate
// fromJson's argument is not type-checked here: the term layer prepares it
// as text, named ArgumentSpecName(f, 0), and reports its own conversion error.
//
// token() is not in the catalog: its argument types depend on the table, and
// the statement layer handles it before asking here.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "query/functions/function_definition.h"
#include "types/cql_type.h"
#include "types/literal.h"

namespace sibyl::query {

// One argument of a call, as prepared so far.
struct FunctionArgument {
  enum class Kind : uint8_t {
    kTyped,       // a column, a nested function call, a cast: `type` is known
    kLiteral,     // a constant, NULL, or a collection/tuple/UDT literal: `literal`
    kBindMarker,  // ? or :name; takes the parameter's type
  };
  Kind kind = Kind::kTyped;
  types::TypePtr type;     // kTyped
  types::Literal literal;  // kLiteral
  // The argument as Cassandra shows it in messages: a column's name, a
  // literal's text ('a', 42, [1, 2]), ?, or a nested call's column name
  // (Function::ColumnName, e.g. system.todate(t)).
  std::string text;

  static FunctionArgument Typed(types::TypePtr type, std::string text);
  static FunctionArgument Literal(types::Literal literal);  // text = literal.ToText()
  static FunctionArgument BindMarker(std::string text = "?");
};

// Where the call is written: the messages and the JSON functions differ.
enum class CallSite : uint8_t {
  kSelection,  // a selector of SELECT (no receiver; toJson allowed, fromJson not)
  kTerm,       // a term with a receiver: INSERT values, SET, WHERE (fromJson allowed)
};

class FunctionRegistry {
 public:
  // The native functions of Cassandra 4.1 (built once, immutable, thread-safe).
  static const FunctionRegistry& Native();

  // Resolves a call. `receiver` is the type the result is assigned to, or
  // null when unknown (selection). `current_keyspace` is the session's
  // keyspace (for user functions, later).
  // Throws CqlError(kInvalid) with the messages above.
  [[nodiscard]] FunctionPtr Resolve(const FunctionName& name,
                                    std::span<const FunctionArgument> arguments,
                                    const types::TypePtr& receiver, CallSite site,
                                    std::string_view current_keyspace = {}) const;

  // Every native overload of `name` (no keyspace), in declaration order;
  // empty if none.
  [[nodiscard]] std::span<const FunctionPtr> Overloads(std::string_view name) const;

  // count(*) / COUNT(1): Cassandra's "countRows" aggregate.
  [[nodiscard]] FunctionPtr CountRows() const;

  // CAST(arg AS target) (Selectable.WithCast): null when the argument
  // already has the target type (no function applies); else resolves
  // "castAs<Type>" (castAsInt, castAsText, ...) as a call with `argument`,
  // so a cast Cassandra lacks fails with the resolution messages above. A
  // target with no cast functions at all (blob, a collection) fails with
  // "<argument text> cannot be cast to <target>".
  [[nodiscard]] FunctionPtr ResolveCast(const FunctionArgument& argument,
                                        const types::TypePtr& target) const;

  // Registration (the *_functions.cc files). Order matters: it is the order
  // of signatures in messages.
  void Add(FunctionPtr function);

 private:
  FunctionRegistry() = default;

  std::unordered_map<std::string, std::vector<FunctionPtr>> by_name_;
};

// FunctionResolver.makeArgSpec: the name a bind marker passed as argument i
// takes in the prepared metadata, e.g. "arg0(system.todate)".
[[nodiscard]] std::string ArgumentSpecName(const Function& function, size_t index);

// CastFcts.getFunctionName: "castAs" + the type's name capitalized
// (castAsInt, castAsBigint, castAsText).
[[nodiscard]] std::string CastFunctionName(const types::CqlType& target);

// How well `argument` fits a parameter of type `parameter` (the
// AssignmentTestable rules above).
[[nodiscard]] types::AssignmentResult TestArgument(const FunctionArgument& argument,
                                                   const types::CqlType& parameter);

// FunctionCall.Raw.prepare's return type check for a call used as a term:
// throws "Type error: cannot assign result of function system.now (type
// timeuuid) to k (type int)" when the result does not fit the receiver.
void CheckResultAssignable(const Function& function, std::string_view receiver_name,
                           const types::CqlType& receiver);

// The toJson and fromJson instances for a type (ToJsonFct, FromJsonFct).
[[nodiscard]] FunctionPtr ToJsonFunction(const types::TypePtr& argument_type);
[[nodiscard]] FunctionPtr FromJsonFunction(const types::TypePtr& result_type);

// CQL3Type.Native's order without varchar (one type with text) and empty
// (not a Sibyl type): ascii, bigint, blob, boolean, counter, date, decimal,
// double, duration, float, inet, int, smallint, text, time, timestamp,
// timeuuid, tinyint, uuid, varint. Internal to the catalog.
[[nodiscard]] std::span<const types::Kind> NativeKindsInCqlOrder();

// Registration of each family, in Cassandra's order (internal to the catalog).
void AddUuidFunctions(FunctionRegistry& registry);
void AddTimeFunctions(FunctionRegistry& registry);
void AddFloorFunctions(FunctionRegistry& registry);  // called by AddTimeFunctions
void AddBlobFunctions(FunctionRegistry& registry);
void AddAggregateFunctions(FunctionRegistry& registry);
void AddCastFunctions(FunctionRegistry& registry);
void AddOperationFunctions(FunctionRegistry& registry);  // arithmetic_functions.cc

// The arithmetic operators (OperationFcts): "_add" for '+', "_substract"
// for '-', "_multiply", "_divide", "_modulo"; nullptr for other symbols.
// Negation is "_negate".
[[nodiscard]] const char* OperationFunctionName(char symbol);
[[nodiscard]] bool IsOperationFunctionName(std::string_view name);
[[nodiscard]] char OperatorOfFunction(std::string_view name);

}  // namespace sibyl::query
