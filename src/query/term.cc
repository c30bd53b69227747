#include "query/term.h"

#include "query/literal.h"
#include "types/value_codec.h"

namespace sibyl::query {

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
  }
  return Value::Null();
}

PreparedTerm PrepareTerm(const cql::Term& term, std::string_view receiver, types::TypePtr type,
                         BindSpecCollector& binds) {
  PreparedTerm prepared;
  prepared.type = type;
  switch (term.kind) {
    case cql::Term::Kind::kNull:
      prepared.kind = PreparedTerm::Kind::kNull;
      break;
    case cql::Term::Kind::kBindMarker:
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

}  // namespace sibyl::query
