#include "query/terms/term.h"

#include "common/error.h"
#include "dht/token.h"
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

// Term.containsBindMarker.
bool ContainsMarker(const cql::Term& term) {
  if (term.kind == TermKind::kBindMarker) return true;
  for (const cql::Term& element : term.elements) {
    if (ContainsMarker(element)) return true;
  }
  return false;
}

// Whether the term is made of literals only, so that it is converted once,
// when it is prepared (a Terminal in Cassandra's terms).
bool IsTerminal(const cql::Term& term) {
  switch (term.kind) {
    case TermKind::kBindMarker:
    case TermKind::kFunctionCall:
    case TermKind::kArithmetic:
    case TermKind::kNegation:
    case TermKind::kTypeHint:
    case TermKind::kCast:
      return false;
    default:
      for (const cql::Term& element : term.elements) {
        if (!IsTerminal(element)) return false;
      }
      return true;
  }
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

// The term as the type layer's literal, for assignment tests and messages:
// a marker fits any receiver (kUnset), a call is a value of its return type
// and a type hint one of its type (FunctionCall.Raw and TypeCast's
// testAssignment).
types::Literal AssignmentLiteral(const cql::Term& term) {
  auto elements = [&] {
    std::vector<types::Literal> out;
    out.reserve(term.elements.size());
    for (const cql::Term& element : term.elements) out.push_back(AssignmentLiteral(element));
    return out;
  };
  switch (term.kind) {
    case TermKind::kFunctionCall:
    case TermKind::kArithmetic:
    case TermKind::kNegation: {
      types::TypePtr type;
      try {
        type = ResolveCall(term, nullptr)->return_type();
      } catch (const CqlError&) {
        // Weakly assignable, as in Cassandra: preparing the call reports it.
      }
      return types::Literal::Value(std::nullopt, std::move(type), TermText(term));
    }
    case TermKind::kTypeHint:
      return types::Literal::Value(std::nullopt, ParseHintType(term.text), TermText(term));
    case TermKind::kList:
      return types::Literal::Collection(types::Literal::Kind::kList, elements());
    case TermKind::kSet:
      return types::Literal::Collection(types::Literal::Kind::kSet, elements());
    case TermKind::kMap:
      return types::Literal::Collection(types::Literal::Kind::kMap, elements());
    case TermKind::kTuple:
      return types::Literal::Collection(types::Literal::Kind::kTuple, elements());
    case TermKind::kUdt:
      return types::Literal::Udt(term.field_names, elements());
    default:
      return ToTypesLiteral(term);
  }
}

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
      return FunctionArgument::Literal(AssignmentLiteral(term));
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
        return types::EncodeBigint(dht::Murmur3Token(schema::RoutingKey(components)));
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

// Lists, Sets, Maps, Tuples and UserTypes .Literal.prepare (and 5.0's
// Vectors) for a literal holding markers or calls: the literal's assignment
// test, then each element prepared for its receiver, in order. A list, set,
// map or vector refuses an element holding a marker once it is prepared;
// a tuple or UDT collects its markers' specs.
PreparedTerm PrepareLiteral(const cql::Term& term, std::string_view receiver, types::TypePtr type,
                            BindSpecCollector& binds) {
  const std::string name(receiver);
  const types::Literal literal = AssignmentLiteral(term);
  types::ValidateAssignable(literal, receiver, *type);
  PreparedTerm prepared;
  prepared.kind = PreparedTerm::Kind::kLiteral;
  prepared.literal_kind = literal.kind;
  prepared.type = type;
  const bool vector = type->kind() == types::Kind::kVector;
  auto add = [&](const cql::Term& element, const std::string& element_receiver,
                 const types::TypePtr& element_type) {
    prepared.arguments.push_back(PrepareTerm(element, element_receiver, element_type, binds));
  };
  auto refuse_markers = [&](const char* what) {
    ThrowInvalid(std::string("Invalid ") + what + " literal for " + name +
                 ": bind variables are not supported inside " +
                 (vector ? "vector literals" : "collection literals"));
  };
  const auto& params = type->params();
  switch (term.kind) {
    case TermKind::kList:
    case TermKind::kSet: {
      // A non-empty {..} for a map was refused above; an empty one is terminal.
      const char* what = vector ? "vector" : term.kind == TermKind::kList ? "list" : "set";
      for (const cql::Term& element : term.elements) {
        add(element, "value(" + name + ")", params[0]);
        if (ContainsMarker(element)) refuse_markers(what);
      }
      break;
    }
    case TermKind::kMap:
      for (size_t i = 0; i + 1 < term.elements.size(); i += 2) {
        add(term.elements[i], "key(" + name + ")", params[0]);
        add(term.elements[i + 1], "value(" + name + ")", params[1]);
        if (ContainsMarker(term.elements[i]) || ContainsMarker(term.elements[i + 1])) {
          refuse_markers("map");
        }
      }
      break;
    case TermKind::kTuple:
      for (size_t i = 0; i < term.elements.size(); ++i) {
        add(term.elements[i], name + "[" + std::to_string(i) + "]", params[i]);
      }
      break;
    default: {  // kUdt: every field of the type, null where the literal has none
      const std::vector<int> indexes = types::UdtFieldIndexes(literal, *type);
      const cql::Term null_term;
      for (size_t i = 0; i < indexes.size(); ++i) {
        const cql::Term& element =
            indexes[i] < 0 ? null_term : term.elements[static_cast<size_t>(indexes[i])];
        add(element, name + "." + type->field_names()[i], params[i]);
      }
      types::CheckUdtFieldsKnown(literal, *type);
      break;
    }
  }
  return prepared;
}

// The DelayedValue's bind of a literal with bound elements.
Value BindLiteral(const PreparedTerm& term, const BoundValues& values) {
  // Each element in order, then the value built as the type layer builds a
  // literal's (sets and maps sorted, the nulls and unsets each kind refuses).
  const bool unset_refused =
      term.literal_kind == types::Literal::Kind::kTuple || term.type->frozen();
  std::vector<types::Literal> elements;
  elements.reserve(term.arguments.size());
  for (const PreparedTerm& argument : term.arguments) {
    const Value value = argument.Bind(values);
    if (value.is_unset()) {
      elements.push_back(types::Literal::Unset());
      // The first unset of a tuple or frozen UDT fails the request before
      // any later element is bound.
      if (unset_refused) break;
      continue;
    }
    elements.push_back(types::Literal::Value(
        value.is_null() ? std::nullopt : std::optional<Bytes>(Bytes(value.bytes)), argument.type,
        "?"));
  }
  types::Literal literal;
  if (term.literal_kind == types::Literal::Kind::kUdt) {
    std::vector<std::string> names(
        term.type->field_names().begin(),
        term.type->field_names().begin() + static_cast<std::ptrdiff_t>(elements.size()));
    literal = types::Literal::Udt(std::move(names), std::move(elements));
  } else {
    literal = types::Literal::Collection(term.literal_kind, std::move(elements));
  }
  // Every element is a value by now: no constant is left whose conversion
  // reads the clock, and no message names the receiver.
  std::optional<Bytes> value = types::ConvertLiteral(literal, "", *term.type, /*now_millis=*/0);
  if (!value) return Value::Null();
  return Value::Of(values.Keep(std::move(*value)));
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
    case Kind::kLiteral:
      return BindLiteral(*this, values);
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
    case TermKind::kList:
    case TermKind::kSet:
    case TermKind::kMap:
    case TermKind::kTuple:
    case TermKind::kUdt:
      if (!IsTerminal(term)) return PrepareLiteral(term, receiver, std::move(type), binds);
      prepared.kind = PreparedTerm::Kind::kConstant;
      prepared.constant = ConvertLiteral(term, receiver, *prepared.type);
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
    case TermKind::kList:
      return "[" + joined(0) + "]";
    case TermKind::kSet:
      return "{" + joined(0) + "}";
    case TermKind::kTuple:
      return "(" + joined(0) + ")";
    case TermKind::kMap:
    case TermKind::kUdt: {
      // As Maps.Literal and UserTypes.Literal.getText: {k: v, ...}.
      std::string out = "{";
      const bool udt = term.kind == TermKind::kUdt;
      const size_t step = udt ? 1 : 2;
      for (size_t i = 0; i + step - 1 < term.elements.size(); i += step) {
        if (i > 0) out += ", ";
        out += udt ? (i < term.field_names.size() ? term.field_names[i] : std::string())
                   : TermText(term.elements[i]);
        out += ": " + TermText(term.elements[i + step - 1]);
      }
      return out + "}";
    }
    default:
      return ToTypesLiteral(term).ToText();
  }
}

}  // namespace sibyl::query
