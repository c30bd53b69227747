#include "cql/term_text.h"

namespace sibyl::cql {
namespace {

std::string Join(const std::vector<Term>& terms, const char* open, const char* close) {
  std::string text = open;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) text += ", ";
    text += TermText(terms[i]);
  }
  return text + close;
}

}  // namespace

std::string TermText(const Term& term) {
  using Kind = Term::Kind;
  switch (term.kind) {
    case Kind::kString:
      return "'" + term.text + "'";
    case Kind::kNull:
      return "NULL";
    case Kind::kBindMarker:
      return term.bind_name.empty() ? "?" : ":" + term.bind_name;
    case Kind::kList:
      return Join(term.elements, "[", "]");
    case Kind::kSet:
      return Join(term.elements, "{", "}");
    case Kind::kTuple:
      return Join(term.elements, "(", ")");
    case Kind::kMap: {
      std::string text = "{";
      for (size_t i = 0; i + 1 < term.elements.size(); i += 2) {
        if (i > 0) text += ", ";
        text += TermText(term.elements[i]) + ": " + TermText(term.elements[i + 1]);
      }
      return text + "}";
    }
    case Kind::kUdt: {
      std::string text = "{";
      for (size_t i = 0; i < term.elements.size(); ++i) {
        if (i > 0) text += ", ";
        text += term.field_names[i] + ": " + TermText(term.elements[i]);
      }
      return text + "}";
    }
    case Kind::kFunctionCall: {
      std::string name = term.keyspace.empty() ? term.text : term.keyspace + "." + term.text;
      return name + Join(term.elements, "(", ")");
    }
    case Kind::kTypeHint:
      return "(" + term.text + ")" + TermText(term.elements[0]);
    case Kind::kCast:
      return "CAST(" + TermText(term.elements[0]) + " AS " + term.text + ")";
    case Kind::kArithmetic:
      return TermText(term.elements[0]) + " " + term.text + " " + TermText(term.elements[1]);
    case Kind::kNegation:
      return "-" + TermText(term.elements[0]);
    default:  // the other constants: as written
      return term.text;
  }
}

}  // namespace sibyl::cql
