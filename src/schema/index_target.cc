#include "schema/index_target.h"

#include "types/cql_identifier.h"

namespace sibyl::schema {

std::string_view IndexTargetFunction(IndexTargetSpec::Kind kind) {
  switch (kind) {
    case IndexTargetSpec::Kind::kSimple:
      return "";
    case IndexTargetSpec::Kind::kValues:
      return "values";
    case IndexTargetSpec::Kind::kKeys:
      return "keys";
    case IndexTargetSpec::Kind::kEntries:
      return "entries";
    case IndexTargetSpec::Kind::kFull:
      return "full";
  }
  return "";
}

std::string FormatIndexTarget(const IndexTargetSpec& target) {
  const std::string column = types::MaybeQuoteIdentifier(target.column);
  if (target.kind == IndexTargetSpec::Kind::kSimple) return column;
  return std::string(IndexTargetFunction(target.kind)) + "(" + column + ")";
}

namespace {

// A column name in CQL form: a quoted identifier ("" doubles a quote) or a
// bare one (stored lower-cased already, so taken as is).
std::optional<std::string> ParseColumnName(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (text.front() != '"') return std::string(text);
  if (text.size() < 2 || text.back() != '"') return std::nullopt;
  std::string name;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    name += text[i];
    if (text[i] == '"') {
      if (i + 2 >= text.size() || text[i + 1] != '"') return std::nullopt;
      ++i;
    }
  }
  return name;
}

}  // namespace

std::optional<IndexTargetSpec> ParseIndexTarget(std::string_view text) {
  using Kind = IndexTargetSpec::Kind;
  for (Kind kind : {Kind::kValues, Kind::kKeys, Kind::kEntries, Kind::kFull}) {
    const std::string_view function = IndexTargetFunction(kind);
    if (text.size() > function.size() + 2 && text.substr(0, function.size()) == function &&
        text[function.size()] == '(' && text.back() == ')') {
      auto column =
          ParseColumnName(text.substr(function.size() + 1, text.size() - function.size() - 2));
      if (!column) return std::nullopt;
      return IndexTargetSpec{kind, std::move(*column)};
    }
  }
  auto column = ParseColumnName(text);
  if (!column) return std::nullopt;
  return IndexTargetSpec{Kind::kSimple, std::move(*column)};
}

}  // namespace sibyl::schema
