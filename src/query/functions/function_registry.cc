#include "query/functions/function_registry.h"

#include <algorithm>
#include <cctype>

#include "common/error.h"
#include "types/type_compatibility.h"

namespace sibyl::query {
namespace {

using types::AssignmentResult;

// A TypePtr that does not own `type` (CqlType::Frozen takes a TypePtr).
types::TypePtr Unowned(const types::CqlType& type) {
  return types::TypePtr(types::TypePtr(), &type);
}

std::string JoinSignatures(std::span<const FunctionPtr> functions) {
  std::string out;
  for (const FunctionPtr& f : functions) {
    if (!out.empty()) out += ", ";
    out += f->ToString();
  }
  return out;
}

bool IsNativeName(const FunctionName& name, std::string_view native) {
  return (name.keyspace.empty() || name.keyspace == kSystemKeyspace) && name.name == native;
}

// AbstractType.testAssignment(receiverType) for a function's return type:
// frozenness never matters for function results.
bool ResultFits(const types::CqlType& result, const types::CqlType& receiver) {
  const types::TypePtr frozen_result = types::CqlType::Frozen(Unowned(result));
  const types::TypePtr frozen_receiver = types::CqlType::Frozen(Unowned(receiver));
  return frozen_result->Equals(*frozen_receiver) ||
         types::IsValueCompatibleWith(*frozen_receiver, *frozen_result);
}

// FunctionResolver.validateTypes: the one-candidate path, precise messages.
void ValidateTypes(const Function& function, std::span<const FunctionArgument> arguments) {
  if (arguments.size() != function.arg_types().size()) {
    ThrowInvalid("Invalid number of arguments in call to function " + function.QualifiedName() +
                 ": " + std::to_string(function.arg_types().size()) + " required but " +
                 std::to_string(arguments.size()) + " provided");
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    const types::CqlType& parameter = *function.arg_types()[i];
    if (TestArgument(arguments[i], parameter) == AssignmentResult::kNotAssignable) {
      ThrowInvalid("Type error: " + arguments[i].text + " cannot be passed as argument " +
                   std::to_string(i) + " of function " + function.QualifiedName() + " of type " +
                   parameter.ToCql());
    }
  }
}

// FunctionResolver.matchAguments: exact only if every argument is.
AssignmentResult MatchArguments(const Function& function,
                                std::span<const FunctionArgument> arguments) {
  if (arguments.size() != function.arg_types().size()) return AssignmentResult::kNotAssignable;
  AssignmentResult result = AssignmentResult::kExactMatch;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const AssignmentResult r = TestArgument(arguments[i], *function.arg_types()[i]);
    if (r == AssignmentResult::kNotAssignable) return r;
    if (r == AssignmentResult::kWeaklyAssignable) result = r;
  }
  return result;
}

// toJson(x): one argument with a type of its own, in a selection only.
FunctionPtr ResolveToJsonCall(std::span<const FunctionArgument> arguments, CallSite site) {
  if (site != CallSite::kSelection) {
    ThrowInvalid("toJson() may only be used within the selection clause of SELECT statements");
  }
  if (arguments.size() != 1) {
    ThrowInvalid("toJson() only accepts one argument (got " + std::to_string(arguments.size()) +
                 ")");
  }
  // A literal or marker has no type of its own (Selectable.WithTerm).
  if (arguments[0].kind != FunctionArgument::Kind::kTyped) {
    ThrowInvalid("Cannot infer type for term " + arguments[0].text +
                 " in selection clause (try using a cast to force a type)");
  }
  return ToJsonFunction(arguments[0].type);
}

// fromJson(text): its result takes the receiver's type, so it needs one.
FunctionPtr ResolveFromJsonCall(std::span<const FunctionArgument> arguments,
                                const types::TypePtr& receiver) {
  if (receiver == nullptr) {
    ThrowInvalid("fromJson() cannot be used in the selection clause of a SELECT statement");
  }
  FunctionPtr from_json = FromJsonFunction(receiver);
  // FunctionCall.Raw.prepare's check (the resolver itself skips fromJson).
  if (arguments.size() != 1) {
    ThrowInvalid("Incorrect number of arguments specified for function " + from_json->ToString() +
                 " (expected 1, found " + std::to_string(arguments.size()) + ")");
  }
  return from_json;
}

[[noreturn]] void ThrowNoOverloadMatches(const FunctionName& name,
                                         std::span<const FunctionPtr> candidates,
                                         std::span<const FunctionArgument> arguments) {
  if (IsOperationFunctionName(name.name) && arguments.size() == 2) {
    ThrowInvalid(std::string("the '") + OperatorOfFunction(name.name) +
                 "' operation is not supported between " + arguments[0].text + " and " +
                 arguments[1].text);
  }
  ThrowInvalid("Invalid call to function " + name.ToString() +
               ", none of its type signatures match (known type signatures: " +
               JoinSignatures(candidates) + ")");
}

// Several overloads accept the arguments, none exactly: an error, but for
// an operation whose receiver settles it.
FunctionPtr ResolveAmbiguousCall(const FunctionName& name, std::span<const FunctionPtr> compatibles,
                                 std::span<const FunctionArgument> arguments,
                                 const types::TypePtr& receiver) {
  if (IsOperationFunctionName(name.name)) {
    // FunctionResolver: with a receiver and no marker, the overload taking
    // the receiver's type on both sides wins.
    const bool has_marker = std::any_of(
        arguments.begin(), arguments.end(),
        [](const FunctionArgument& a) { return a.kind == FunctionArgument::Kind::kBindMarker; });
    if (receiver != nullptr && !has_marker) {
      for (const FunctionPtr& f : compatibles) {
        if (f->arg_types().size() == 2 && f->arg_types()[0]->Equals(*receiver) &&
            f->arg_types()[1]->Equals(*receiver)) {
          return f;
        }
      }
    }
    ThrowInvalid(std::string("Ambiguous '") + OperatorOfFunction(name.name) +
                 "' operation: use type casts to disambiguate");
  }
  if (name.name == "_negate") ThrowInvalid("Ambiguous negation: use type casts to disambiguate");
  ThrowInvalid("Ambiguous call to function " + name.ToString() +
               " (can be matched by following signatures: " + JoinSignatures(compatibles) +
               "): use type casts to disambiguate");
}

// Several candidates: those whose result fits the receiver, the first exact
// match among them, else the one weakly assignable.
FunctionPtr PickOverload(const FunctionName& name, std::span<const FunctionPtr> candidates,
                         std::span<const FunctionArgument> arguments,
                         const types::TypePtr& receiver) {
  std::vector<FunctionPtr> compatibles;
  for (const FunctionPtr& candidate : candidates) {
    if (receiver != nullptr && !ResultFits(*candidate->return_type(), *receiver)) continue;
    switch (MatchArguments(*candidate, arguments)) {
      case AssignmentResult::kExactMatch:
        return candidate;  // exact matches always win
      case AssignmentResult::kWeaklyAssignable:
        compatibles.push_back(candidate);
        break;
      case AssignmentResult::kNotAssignable:
        break;
    }
  }
  if (compatibles.empty()) ThrowNoOverloadMatches(name, candidates, arguments);
  if (compatibles.size() > 1) return ResolveAmbiguousCall(name, compatibles, arguments, receiver);
  return compatibles.front();
}

}  // namespace

FunctionArgument FunctionArgument::Typed(types::TypePtr type, std::string text) {
  FunctionArgument a;
  a.kind = Kind::kTyped;
  a.type = std::move(type);
  a.text = std::move(text);
  return a;
}

FunctionArgument FunctionArgument::Literal(types::Literal literal) {
  FunctionArgument a;
  a.kind = Kind::kLiteral;
  a.text = literal.ToText();
  a.literal = std::move(literal);
  return a;
}

FunctionArgument FunctionArgument::BindMarker(std::string text) {
  FunctionArgument a;
  a.kind = Kind::kBindMarker;
  a.text = std::move(text);
  return a;
}

types::AssignmentResult TestArgument(const FunctionArgument& argument,
                                     const types::CqlType& parameter) {
  switch (argument.kind) {
    case FunctionArgument::Kind::kBindMarker:
      return AssignmentResult::kWeaklyAssignable;  // AbstractMarker.Raw.testAssignment
    case FunctionArgument::Kind::kLiteral:
      return types::TestAssignment(argument.literal, parameter);
    case FunctionArgument::Kind::kTyped: {
      // Selectable.testAssignment: frozenness is ignored (function
      // parameters are never declared frozen).
      const types::TypePtr type = types::CqlType::Frozen(argument.type);
      const types::TypePtr param = types::CqlType::Frozen(Unowned(parameter));
      if (type->Equals(*param)) return AssignmentResult::kExactMatch;
      if (types::IsValueCompatibleWith(*param, *type)) return AssignmentResult::kWeaklyAssignable;
      return AssignmentResult::kNotAssignable;
    }
  }
  return AssignmentResult::kNotAssignable;
}

const FunctionRegistry& FunctionRegistry::Native() {
  // Cassandra 4.1's SystemKeyspace.functions(): UuidFcts, TimeFcts,
  // BytesConversionFcts, AggregateFcts, CastFcts, OperationFcts.
  static const FunctionRegistry* const registry = [] {
    auto* r = new FunctionRegistry();
    AddUuidFunctions(*r);
    AddTimeFunctions(*r);
    AddBlobFunctions(*r);
    AddAggregateFunctions(*r);
    AddCastFunctions(*r);
    AddOperationFunctions(*r);
    return r;
  }();
  return *registry;
}

void FunctionRegistry::Add(FunctionPtr function) {
  by_name_[function->name()].push_back(std::move(function));
}

std::span<const FunctionPtr> FunctionRegistry::Overloads(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return {};
  return it->second;
}

FunctionPtr FunctionRegistry::CountRows() const { return Overloads("countRows").front(); }

FunctionPtr FunctionRegistry::Resolve(const FunctionName& name,
                                      std::span<const FunctionArgument> arguments,
                                      const types::TypePtr& receiver, CallSite site,
                                      std::string_view current_keyspace) const {
  if (IsNativeName(name, "token")) {
    // The selection resolves token() itself, against its table's partition
    // key; a term (token(k) > token(1)) would need that table too.
    ThrowInvalid("token() as a value (token(k) > token(...)) is not supported by Sibyl yet");
  }
  if (IsNativeName(name, "tojson")) return ResolveToJsonCall(arguments, site);
  if (IsNativeName(name, "fromjson")) return ResolveFromJsonCall(arguments, receiver);

  // Candidates: natives, then the current keyspace's user functions (none
  // exist yet); a keyspace other than system has only user functions.
  std::span<const FunctionPtr> candidates;
  if (name.keyspace.empty() || name.keyspace == kSystemKeyspace) {
    candidates = Overloads(name.name);
  }
  (void)current_keyspace;
  if (candidates.empty()) {
    if (site == CallSite::kSelection) ThrowInvalid("Unknown function '" + name.ToString() + "'");
    ThrowInvalid("Unknown function " + name.ToString() + " called");
  }

  if (candidates.size() == 1) {
    ValidateTypes(*candidates.front(), arguments);
    return candidates.front();
  }
  return PickOverload(name, candidates, arguments, receiver);
}

FunctionPtr FunctionRegistry::ResolveCast(const FunctionArgument& argument,
                                          const types::TypePtr& target) const {
  if (argument.kind == FunctionArgument::Kind::kTyped && argument.type->Equals(*target)) {
    return nullptr;  // the argument already has the type
  }
  const std::string cast_name = CastFunctionName(*target);
  if (Overloads(cast_name).empty()) {
    ThrowInvalid(argument.text + " cannot be cast to " + target->ToCql());
  }
  return Resolve(FunctionName{std::string(kSystemKeyspace), cast_name},
                 std::span<const FunctionArgument>(&argument, 1), nullptr, CallSite::kSelection);
}

std::span<const types::Kind> NativeKindsInCqlOrder() {
  using types::Kind;
  static constexpr Kind kKinds[] = {
      Kind::kAscii,     Kind::kBigint,   Kind::kBlob,     Kind::kBoolean,  Kind::kCounter,
      Kind::kDate,      Kind::kDecimal,  Kind::kDouble,   Kind::kDuration, Kind::kFloat,
      Kind::kInet,      Kind::kInt,      Kind::kSmallint, Kind::kText,     Kind::kTime,
      Kind::kTimestamp, Kind::kTimeuuid, Kind::kTinyint,  Kind::kUuid,     Kind::kVarint};
  return kKinds;
}

std::string CastFunctionName(const types::CqlType& target) {
  std::string type = target.ToCql();
  if (!type.empty()) type[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(type[0])));
  return "castAs" + type;
}

std::string ArgumentSpecName(const Function& function, size_t index) {
  // makeArgSpec lower-cases the whole qualified name.
  std::string name = function.QualifiedName();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return "arg" + std::to_string(index) + "(" + name + ")";
}

void CheckResultAssignable(const Function& function, std::string_view receiver_name,
                           const types::CqlType& receiver) {
  if (ResultFits(*function.return_type(), receiver)) return;
  ThrowInvalid("Type error: cannot assign result of function " + function.QualifiedName() +
               " (type " + function.return_type()->ToCql() + ") to " + std::string(receiver_name) +
               " (type " + receiver.ToCql() + ")");
}

}  // namespace sibyl::query
