#include "query/terms/literal_conversion.h"

#include <chrono>

#include "common/error.h"
#include "types/literal.h"

namespace sibyl::query {
namespace {

using TermKind = cql::Term::Kind;

// The query's terms mapped onto the type layer's literals, which hold
// Cassandra's acceptance rules for every type.
types::Literal ToLiteral(const cql::Term& term) {
  auto constant = [&](types::ConstantKind kind) {
    return types::Literal::Constant(kind, term.text);
  };
  auto elements = [&] {
    std::vector<types::Literal> out;
    out.reserve(term.elements.size());
    for (const auto& e : term.elements) out.push_back(ToLiteral(e));
    return out;
  };
  switch (term.kind) {
    case TermKind::kString:
      return constant(types::ConstantKind::kString);
    case TermKind::kInteger:
      return constant(types::ConstantKind::kInteger);
    case TermKind::kFloat:
      return constant(types::ConstantKind::kFloat);
    case TermKind::kBoolean:
      return constant(types::ConstantKind::kBoolean);
    case TermKind::kUuid:
      return constant(types::ConstantKind::kUuid);
    case TermKind::kBlob:
      return constant(types::ConstantKind::kHex);
    case TermKind::kDuration:
      return constant(types::ConstantKind::kDuration);
    case TermKind::kNull:
      return types::Literal::Null();
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
    case TermKind::kBindMarker: {
      // Stands for the marker: it fits any receiver, and a list, set or map
      // refuses it (Sibyl prepares tuples and UDTs holding markers itself:
      // PrepareTerm, term.h).
      types::Literal marker = types::Literal::Unset();
      marker.text = term.bind_name.empty() ? "?" : ":" + term.bind_name;
      return marker;
    }
    default:
      ThrowInvalid(
          "Function calls, type hints and arithmetic in terms are not supported by Sibyl "
          "yet");
  }
}

}  // namespace

types::Literal ToTypesLiteral(const cql::Term& term) { return ToLiteral(term); }

Bytes ConvertLiteral(const cql::Term& term, std::string_view receiver, const types::CqlType& type) {
  const int64_t now_millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
  auto value = types::ConvertLiteral(ToLiteral(term), receiver, type, now_millis);
  // REQUIRES of this function: the caller handled NULL, so a value is present.
  if (!value) ThrowInvalid("Invalid null value for " + std::string(receiver));
  return std::move(*value);
}

}  // namespace sibyl::query
