#include "query/selection/selector_preparation.h"

#include <algorithm>

#include "common/error.h"
#include "dht/token.h"
#include "query/functions/function_registry.h"
#include "query/terms/literal_conversion.h"
#include "schema/row_order.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using Kind = cql::Selector::Kind;
using types::CqlType;
using types::TypePtr;

// Selectable.WithTerm names every marker of the select clause so.
constexpr std::string_view kSelectionMarkerName = "[selection]";

[[noreturn]] void ThrowInferType(std::string_view text) {
  ThrowInvalid("Cannot infer type for term " + std::string(text) +
               " in selection clause (try using a cast to force a type)");
}

// The type a hint or cast names (WithTypeHint freezes what can be frozen).
TypePtr ParseSelectionType(const std::string& text) {
  TypePtr type = types::ParseCqlType(text);
  if (type->is_unresolved_udt()) {
    ThrowInvalid(
        "Type hints naming a user type in the selection clause are not supported by Sibyl yet");
  }
  return type->is_native() ? type : CqlType::Frozen(type);
}

// An argument of a call: prepared at once when it has a type of its own,
// kept for later when it is a literal or marker (typed by the parameter).
struct CallArgument {
  const cql::Selector* raw = nullptr;
  SelectorFactoryPtr factory;  // null: a term, prepared once the parameter type is known
  FunctionArgument description;
};

CallArgument DescribeArgument(const cql::Selector& selector, SelectorPreparation& p) {
  CallArgument argument;
  argument.raw = &selector;
  if (selector.kind == Kind::kTerm) {
    const cql::Term& term = selector.terms.at(0);
    argument.description = term.kind == cql::Term::Kind::kBindMarker
                               ? FunctionArgument::BindMarker(TermText(term))
                               : FunctionArgument::Literal(ToTypesLiteral(term));
    return argument;
  }
  argument.factory = PrepareSelector(selector, nullptr, p);
  argument.description =
      FunctionArgument::Typed(argument.factory->type(), argument.factory->column_name());
  return argument;
}

std::vector<CallArgument> DescribeArguments(const std::vector<cql::Selector>& selectors,
                                            SelectorPreparation& p) {
  std::vector<CallArgument> arguments;
  arguments.reserve(selectors.size());
  for (const cql::Selector& s : selectors) arguments.push_back(DescribeArgument(s, p));
  return arguments;
}

std::vector<FunctionArgument> Descriptions(const std::vector<CallArgument>& arguments) {
  std::vector<FunctionArgument> out;
  out.reserve(arguments.size());
  for (const CallArgument& a : arguments) out.push_back(a.description);
  return out;
}

// The terms among the arguments take the parameters' types.
SelectorFactoryPtr FinishCall(FunctionPtr function, std::vector<CallArgument>& arguments,
                              SelectorPreparation& p) {
  std::vector<SelectorFactoryPtr> factories;
  factories.reserve(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    factories.push_back(arguments[i].factory
                            ? arguments[i].factory
                            : PrepareSelector(*arguments[i].raw, function->arg_types().at(i), p));
  }
  return FunctionSelectorFactory(std::move(function), std::move(factories));
}

SelectorFactoryPtr PrepareCall(const FunctionName& name, const std::vector<cql::Selector>& args,
                               SelectorPreparation& p) {
  std::vector<CallArgument> arguments = DescribeArguments(args, p);
  FunctionPtr f = FunctionRegistry::Native().Resolve(name, Descriptions(arguments), nullptr,
                                                     CallSite::kSelection, p.table.keyspace);
  return FinishCall(std::move(f), arguments, p);
}

// token(k1, k2, ...): TokenFct, whose parameters are the partition key's
// types. As in Cassandra, any selectors of those types may be passed.
SelectorFactoryPtr PrepareToken(const cql::Selector& selector, SelectorPreparation& p) {
  std::vector<TypePtr> key_types;
  for (size_t i = 0; i < p.table.partition_key_size(); ++i) {
    key_types.push_back(p.table.columns[i].type);
  }
  auto token = Function::Scalar(
      "token", CqlType::Native(types::Kind::kBigint), key_types,
      [](FunctionArgs args, FunctionContext&) -> OptBytes {
        std::vector<BytesView> components;
        components.reserve(args.size());
        for (const auto& a : args) {
          if (!a) return std::nullopt;
          components.push_back(*a);
        }
        return types::EncodeBigint(dht::Murmur3Token(schema::RoutingKey(components)));
      });
  std::vector<CallArgument> arguments = DescribeArguments(selector.args, p);
  if (arguments.size() != key_types.size()) {
    ThrowInvalid("Invalid number of arguments in call to function system.token: " +
                 std::to_string(key_types.size()) + " required but " +
                 std::to_string(arguments.size()) + " provided");
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (TestArgument(arguments[i].description, *key_types[i]) ==
        types::AssignmentResult::kNotAssignable) {
      ThrowInvalid("Type error: " + arguments[i].description.text +
                   " cannot be passed as argument " + std::to_string(i) +
                   " of function system.token of type " + key_types[i]->ToCql());
    }
  }
  return FinishCall(std::move(token), arguments, p);
}

// writetime(c) / ttl(c) as Cassandra 4.1 checks them (Selectable.WritetimeOrTTL).
SelectorFactoryPtr PrepareCellMetadata(const cql::Selector& selector, bool is_writetime,
                                       SelectorPreparation& p) {
  const char* function = is_writetime ? "writeTime" : "ttl";
  if (selector.args.size() != 1 || selector.args[0].kind != Kind::kColumn) {
    ThrowInvalid(std::string("Selecting ") + selector.name +
                 "() of anything but a column is not supported by Sibyl yet");
  }
  const size_t index = p.table.ExistingColumnIndex(selector.args[0].name);
  const auto& column = p.table.columns[index];
  if (column.is_primary_key()) {
    ThrowInvalid(std::string("Cannot use selection function ") + function +
                 " on PRIMARY KEY part " + column.name);
  }
  if (column.type->is_collection()) {
    ThrowInvalid(std::string("Cannot use selection function ") + function + " on collections");
  }
  if (column.type->kind() == types::Kind::kUdt && !column.type->frozen()) {
    ThrowInvalid(std::string("Cannot use selection function ") + function + " on non-frozen UDT " +
                 column.name);
  }
  const size_t source_index = p.table.columns.size() + p.cell_metadata.size();
  p.cell_metadata.push_back(CellMetadata{
      is_writetime ? CellMetadata::Kind::kWritetime : CellMetadata::Kind::kTtl, index});
  p.columns_read.push_back(index);
  return ColumnSelectorFactory(
      std::string(is_writetime ? "writetime" : "ttl") + "(" + column.name + ")",
      CqlType::Native(is_writetime ? types::Kind::kBigint : types::Kind::kInt), source_index);
}

// Selectable.WithTerm: a literal or marker takes the type expected of it.
SelectorFactoryPtr PrepareTermSelector(const cql::Term& term, const TypePtr& expected,
                                       SelectorPreparation& p) {
  const std::string text = TermText(term);
  if (expected == nullptr) ThrowInferType(text);
  if (term.kind != cql::Term::Kind::kBindMarker &&
      TestArgument(FunctionArgument::Literal(ToTypesLiteral(term)), *expected) ==
          types::AssignmentResult::kNotAssignable) {
    ThrowInvalid(text + " is not of the expected type: " + expected->ToCql());
  }
  return TermSelectorFactory(text, PrepareTerm(term, kSelectionMarkerName, expected, p.binds));
}

// Selectable.WithTypeHint: (type) selector.
SelectorFactoryPtr PrepareTypeHint(const cql::Selector& selector, SelectorPreparation& p) {
  const TypePtr type = ParseSelectionType(selector.text);
  CallArgument inner = DescribeArgument(selector.args.at(0), p);
  const std::string text = "(" + selector.text + ")" + inner.description.text;
  if (TestArgument(inner.description, *type) == types::AssignmentResult::kNotAssignable) {
    ThrowInvalid("Cannot assign value " + text + " to " + text + " of type " + type->ToCql());
  }
  SelectorFactoryPtr factory = inner.factory ? inner.factory : PrepareSelector(*inner.raw, type, p);
  return RenamedSelectorFactory(factory, "(" + selector.text + ")" + factory->column_name(), type);
}

SelectorFactoryPtr PrepareCast(const cql::Selector& selector, SelectorPreparation& p) {
  const TypePtr target = ParseSelectionType(selector.text);
  SelectorFactoryPtr argument = PrepareSelector(selector.args.at(0), nullptr, p);
  FunctionPtr cast = FunctionRegistry::Native().ResolveCast(
      FunctionArgument::Typed(argument->type(), argument->column_name()), target);
  if (cast == nullptr) return argument;  // a cast to the value's own type is ignored
  return FunctionSelectorFactory(std::move(cast), {std::move(argument)});
}

SelectorFactoryPtr PrepareField(const cql::Selector& selector, SelectorPreparation& p) {
  SelectorFactoryPtr selected = PrepareSelector(selector.args.at(0), nullptr, p);
  const CqlType& type = *selected->type();
  if (type.kind() != types::Kind::kUdt) {
    ThrowInvalid("Invalid field selection: " + selected->column_name() + " of type " +
                 type.ToCql() + " is not a user type");
  }
  const auto& fields = type.field_names();
  const auto it = std::find(fields.begin(), fields.end(), selector.name);
  if (it == fields.end()) {
    ThrowInvalid(selected->column_name() + " of type " + type.ToCql() + " has no field " +
                 selector.name);
  }
  std::string name = selected->column_name() + "." + selector.name;
  return FieldSelectorFactory(std::move(name), std::move(selected),
                              static_cast<size_t>(it - fields.begin()));
}

// The receiver of the key of c[k] / c[a..b] (Sets.valueSpecOf, Maps.keySpecOf).
std::string CheckedKeyReceiver(const SelectorFactory& selected, const char* what) {
  const CqlType& type = *selected.type();
  if (!type.is_collection()) {
    if (std::string_view(what) == "Element") {
      ThrowInvalid("Invalid element selection: " + selected.column_name() + " is of type " +
                   type.ToCql() + " is not a collection");
    }
    ThrowInvalid("Invalid slice selection: " + selected.column_name() + " of type " + type.ToCql() +
                 " is not a collection");
  }
  if (type.kind() == types::Kind::kList) {
    ThrowInvalid(std::string(what) + " selection is only allowed on sets and maps, but " +
                 selected.column_name() + " is a list");
  }
  return (type.kind() == types::Kind::kSet ? "value(" : "key(") + selected.column_name() + ")";
}

SelectorFactoryPtr PrepareElement(const cql::Selector& selector, SelectorPreparation& p) {
  SelectorFactoryPtr selected = PrepareSelector(selector.args.at(0), nullptr, p);
  const std::string receiver = CheckedKeyReceiver(*selected, "Element");
  const cql::Term& key = selector.terms.at(0);
  PreparedTerm prepared = PrepareTerm(key, receiver, selected->type()->params()[0], p.binds);
  std::string name = selected->column_name() + "[" + TermText(key) + "]";
  return ElementSelectorFactory(std::move(name), std::move(selected), std::move(prepared));
}

SelectorFactoryPtr PrepareSlice(const cql::Selector& selector, const TypePtr& expected,
                                SelectorPreparation& p) {
  SelectorFactoryPtr selected = PrepareSelector(selector.args.at(0), expected, p);
  const std::string receiver = CheckedKeyReceiver(*selected, "Slice");
  const TypePtr& key_type = selected->type()->params()[0];
  auto bound = [&](const std::optional<cql::Term>& term) -> std::optional<PreparedTerm> {
    if (!term) return std::nullopt;
    return PrepareTerm(*term, receiver, key_type, p.binds);
  };
  std::optional<PreparedTerm> from = bound(selector.slice_from);
  std::optional<PreparedTerm> to = bound(selector.slice_to);
  std::string name = selected->column_name() + "[" +
                     (selector.slice_from ? TermText(*selector.slice_from) : "") + ".." +
                     (selector.slice_to ? TermText(*selector.slice_to) : "") + "]";
  return SliceSelectorFactory(std::move(name), std::move(selected), std::move(from), std::move(to));
}

bool IsNative(const cql::Selector& selector, std::string_view name) {
  return (selector.keyspace.empty() || selector.keyspace == "system") && selector.name == name;
}

}  // namespace

SelectorFactoryPtr PrepareSelector(const cql::Selector& selector, const TypePtr& expected,
                                   SelectorPreparation& p) {
  switch (selector.kind) {
    case Kind::kColumn: {
      const size_t index = p.table.ExistingColumnIndex(selector.name);
      p.columns_read.push_back(index);
      const auto& column = p.table.columns[index];
      return ColumnSelectorFactory(column.name, column.type, index);
    }
    case Kind::kTerm:
      return PrepareTermSelector(selector.terms.at(0), expected, p);
    case Kind::kCountStar:
      return FunctionSelectorFactory(FunctionRegistry::Native().CountRows(), {});
    case Kind::kFunction:
      if (selector.keyspace.empty() && (selector.name == "writetime" || selector.name == "ttl")) {
        return PrepareCellMetadata(selector, selector.name == "writetime", p);
      }
      if (IsNative(selector, "token")) return PrepareToken(selector, p);
      return PrepareCall(FunctionName{selector.keyspace, selector.name}, selector.args, p);
    case Kind::kArithmetic: {
      const char* name = OperationFunctionName(selector.text.empty() ? '?' : selector.text[0]);
      if (name == nullptr) ThrowInvalid("Unknown operator " + selector.text);
      return PrepareCall(FunctionName{"system", name}, selector.args, p);
    }
    case Kind::kNegation:
      return PrepareCall(FunctionName{"system", "_negate"}, selector.args, p);
    case Kind::kCast:
      return PrepareCast(selector, p);
    case Kind::kTypeHint:
      return PrepareTypeHint(selector, p);
    case Kind::kFieldAccess:
      return PrepareField(selector, p);
    case Kind::kElement:
      return PrepareElement(selector, p);
    case Kind::kSlice:
      return PrepareSlice(selector, expected, p);
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMapOrUdt:
    case Kind::kTuple:
      ThrowInvalid(
          "Collection, tuple and user type literals in the selection clause are not supported "
          "by Sibyl yet");
  }
  ThrowInvalid("This selector is not supported by Sibyl yet");
}

}  // namespace sibyl::query
