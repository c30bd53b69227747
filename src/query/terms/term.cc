#include "query/terms/term.h"

#include "cluster/token.h"
#include "common/error.h"
#include "query/functions/function_registry.h"
#include "query/terms/literal_conversion.h"
#include "schema/row_order.h"
#include "types/type_compatibility.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using TermKind = cql::Term::Kind;

bool IsFunctionTerm(const cql::Term& term) {
  return term.kind == TermKind::kFunctionCall || term.kind == TermKind::kArithmetic ||
         term.kind == TermKind::kNegation;
}

// The function a call, an operator or a negation names.
FunctionName CalledName(const cql::Term& term) {
  switch (term.kind) {
    case TermKind::kArithmetic: {
      const char* name = OperationFunctionName(term.text.empty() ? '?' : term.text[0]);
      if (name == nullptr) ThrowInvalid("Unknown operator " + term.text);
      return FunctionName{"system", name};
    }
    case TermKind::kNegation:
      return FunctionName{"system", "_negate"};
    default:
      return FunctionName{term.keyspace, term.text};
  }
}

types::TypePtr ParseHintType(const std::string& text) {
  types::TypePtr type = types::ParseCqlType(text);
  if (type->is_unresolved_udt()) {
    ThrowInvalid("Type hints naming a user type are not supported by Sibyl yet");
  }
  return type->is_native() ? type : types::CqlType::Frozen(type);
}

FunctionPtr ResolveCall(const cql::Term& term, const types::TypePtr& receiver);

// A term as an argument of a call, for overload resolution.
FunctionArgument DescribeArgument(const cql::Term& term) {
  switch (term.kind) {
    case TermKind::kBindMarker:
      return FunctionArgument::BindMarker(TermText(term));
    case TermKind::kTypeHint:
      return FunctionArgument::Typed(ParseHintType(term.text), TermText(term));
    case TermKind::kFunctionCall:
    case TermKind::kArithmetic:
    case TermKind::kNegation:
      // A nested call's type is its return type (resolved without a receiver).
      return FunctionArgument::Typed(ResolveCall(term, nullptr)->return_type(), TermText(term));
    default:
      return FunctionArgument::Literal(ToTypesLiteral(term));
  }
}

FunctionPtr ResolveCall(const cql::Term& term, const types::TypePtr& receiver) {
  std::vector<FunctionArgument> arguments;
  arguments.reserve(term.elements.size());
  for (const cql::Term& element : term.elements) arguments.push_back(DescribeArgument(element));
  FunctionPtr f =
      FunctionRegistry::Native().Resolve(CalledName(term), arguments, receiver, CallSite::kTerm);
  return f;
}

bool IsTokenCall(const cql::Term& term) {
  return term.kind == TermKind::kFunctionCall && term.text == "token" &&
         (term.keyspace.empty() || term.keyspace == "system");
}

// token(v1, ...) as a value (WHERE token(k) > token(42)): Cassandra's
// TokenFct, whose arguments are the table's partition key types and whose
// result is the Murmur3 token of the key they make.
FunctionPtr TokenFunction(const cql::Term& term, const BindSpecCollector& binds) {
  const std::vector<types::TypePtr>& key_types = binds.partition_key_types();
  if (key_types.empty()) ThrowInvalid("Unknown function token called");
  FunctionPtr f = Function::Scalar(
      "token", types::CqlType::Native(types::Kind::kBigint), key_types,
      [](FunctionArgs args, FunctionContext&) -> OptBytes {
        std::vector<BytesView> components;
        components.reserve(args.size());
        for (const auto& arg : args) {
          if (!arg) return std::nullopt;
          components.push_back(*arg);
        }
        return types::EncodeBigint(cluster::Murmur3Token(schema::RoutingKey(components)));
      });
  if (term.elements.size() != key_types.size()) {
    ThrowInvalid("Invalid number of arguments in call to function " + f->QualifiedName() + ": " +
                 std::to_string(key_types.size()) + " required but " +
                 std::to_string(term.elements.size()) + " provided");
  }
  for (size_t i = 0; i < key_types.size(); ++i) {
    const FunctionArgument argument = DescribeArgument(term.elements[i]);
    if (TestArgument(argument, *key_types[i]) == types::AssignmentResult::kNotAssignable) {
      ThrowInvalid("Type error: " + argument.text + " cannot be passed as argument " +
                   std::to_string(i) + " of function " + f->QualifiedName() + " of type " +
                   key_types[i]->ToCql());
    }
  }
  return f;
}

PreparedTerm PrepareCall(const cql::Term& term, std::string_view receiver, types::TypePtr type,
                         BindSpecCollector& binds) {
  FunctionPtr f = IsTokenCall(term) ? TokenFunction(term, binds) : ResolveCall(term, type);
  if (f->is_aggregate()) ThrowInvalid("Aggregation function are not supported in the where clause");
  if (IsOperationFunctionName(f->name())) {
    const types::TypePtr result = types::CqlType::Frozen(f->return_type());
    const types::TypePtr frozen_receiver = types::CqlType::Frozen(type);
    if (!result->Equals(*frozen_receiver) &&
        !types::IsValueCompatibleWith(*frozen_receiver, *result)) {
      ThrowInvalid(std::string("Type error: cannot assign result of operation ") +
                   OperatorOfFunction(f->name()) + " (type " + f->return_type()->ToCql() + ") to " +
                   std::string(receiver) + " (type " + type->ToCql() + ")");
    }
  } else {
    CheckResultAssignable(*f, receiver, *type);
  }
  if (f->arg_types().size() != term.elements.size()) {
    ThrowInvalid("Incorrect number of arguments specified for function " + f->ToString() +
                 " (expected " + std::to_string(f->arg_types().size()) + ", found " +
                 std::to_string(term.elements.size()) + ")");
  }
  PreparedTerm prepared;
  prepared.kind = PreparedTerm::Kind::kFunction;
  prepared.type = std::move(type);
  prepared.function = f;
  prepared.arguments.reserve(term.elements.size());
  for (size_t i = 0; i < term.elements.size(); ++i) {
    prepared.arguments.push_back(
        PrepareTerm(term.elements[i], ArgumentSpecName(*f, i), f->arg_types()[i], binds));
  }
  return prepared;
}

// TypeCast.prepare: the hinted term must fit the hint, the hint the receiver;
// the term is then prepared for the receiver itself.
PreparedTerm PrepareTypeHint(const cql::Term& term, std::string_view receiver, types::TypePtr type,
                             BindSpecCollector& binds) {
  const types::TypePtr hint = ParseHintType(term.text);
  const cql::Term& inner = term.elements.at(0);
  if (TestArgument(DescribeArgument(inner), *hint) == types::AssignmentResult::kNotAssignable) {
    ThrowInvalid("Cannot cast value " + TermText(inner) + " to type " + hint->ToCql());
  }
  if (!hint->Equals(*type) && !types::IsValueCompatibleWith(*type, *hint)) {
    ThrowInvalid("Cannot assign value " + TermText(term) + " to " + std::string(receiver) +
                 " of type " + type->ToCql());
  }
  return PrepareTerm(inner, receiver, std::move(type), binds);
}

}  // namespace

Value PreparedTerm::Bind(const BoundValues& values) const {
  switch (kind) {
    case Kind::kNull:
      return Value::Null();
    case Kind::kConstant:
      return Value::Of(constant);
    case Kind::kMarker: {
      const Value& value = values[marker];
      if (value.kind == Value::Kind::kBytes) types::Validate(*type, value.bytes);
      return value;
    }
    case Kind::kFunction: {
      std::vector<std::optional<BytesView>> args;
      args.reserve(arguments.size());
      for (const PreparedTerm& argument : arguments) {
        const Value value = argument.Bind(values);
        if (value.is_unset()) {
          ThrowInvalid("Invalid unset value for argument in call to function " + function->name());
        }
        args.push_back(value.is_null() ? std::nullopt : std::optional<BytesView>(value.bytes));
      }
      OptBytes result = function->Execute(args, values.function_context());
      if (!result) return Value::Null();
      // FunctionCall.execute: the function must not lie about its type.
      types::Validate(*function->return_type(), *result);
      return Value::Of(values.Keep(std::move(*result)));
    }
  }
  return Value::Null();
}

PreparedTerm PrepareTerm(const cql::Term& term, std::string_view receiver, types::TypePtr type,
                         BindSpecCollector& binds) {
  if (IsFunctionTerm(term)) return PrepareCall(term, receiver, std::move(type), binds);
  if (term.kind == TermKind::kTypeHint) {
    return PrepareTypeHint(term, receiver, std::move(type), binds);
  }
  PreparedTerm prepared;
  prepared.type = type;
  switch (term.kind) {
    case TermKind::kNull:
      prepared.kind = PreparedTerm::Kind::kNull;
      break;
    case TermKind::kBindMarker:
      prepared.kind = PreparedTerm::Kind::kMarker;
      prepared.marker = term.bind_index;
      binds.Receive(term, std::string(receiver), std::move(type));
      break;
    default:
      prepared.kind = PreparedTerm::Kind::kConstant;
      prepared.constant = ConvertLiteral(term, receiver, *prepared.type);
      break;
  }
  return prepared;
}

std::string TermText(const cql::Term& term) {
  auto joined = [&](size_t from) {
    std::string out;
    for (size_t i = from; i < term.elements.size(); ++i) {
      if (i > from) out += ", ";
      out += TermText(term.elements[i]);
    }
    return out;
  };
  switch (term.kind) {
    case TermKind::kBindMarker:
      return term.bind_name.empty() ? "?" : ":" + term.bind_name;
    case TermKind::kFunctionCall:
      return (term.keyspace.empty() ? "" : term.keyspace + ".") + term.text + "(" + joined(0) + ")";
    case TermKind::kArithmetic:
    case TermKind::kNegation: {
      const FunctionName name = CalledName(term);
      return name.ToString() + "(" + joined(0) + ")";
    }
    case TermKind::kTypeHint:
      return "(" + term.text + ")" + TermText(term.elements.at(0));
    case TermKind::kCast:
      return "CAST(" + TermText(term.elements.at(0)) + " AS " + term.text + ")";
    default:
      try {
        return ToTypesLiteral(term).ToText();
      } catch (const CqlError&) {
        // A collection literal holding markers or calls: its elements' texts.
        return "[" + joined(0) + "]";
      }
  }
}

}  // namespace sibyl::query
