#include "query/functions/function_definition.h"

#include "common/error.h"
#include "types/cql_identifier.h"

namespace sibyl::query {

std::shared_ptr<Function> Function::Scalar(std::string name, types::TypePtr return_type,
                                           std::vector<types::TypePtr> arg_types, ScalarBody body,
                                           bool pure) {
  std::shared_ptr<Function> f(
      new Function(std::move(name), std::move(return_type), std::move(arg_types)));
  f->body_ = std::move(body);
  f->pure_ = pure;
  return f;
}

std::shared_ptr<Function> Function::Aggregate(std::string name, types::TypePtr return_type,
                                              std::vector<types::TypePtr> arg_types,
                                              AggregateFactory factory) {
  std::shared_ptr<Function> f(
      new Function(std::move(name), std::move(return_type), std::move(arg_types)));
  f->factory_ = std::move(factory);
  return f;
}

std::string Function::ToString() const {
  std::string out =
      std::string(kSystemKeyspace) + "." + types::MaybeQuoteIdentifier(name_) + " : (";
  for (size_t i = 0; i < arg_types_.size(); ++i) {
    if (i > 0) out += ", ";
    out += arg_types_[i]->ToCql();
  }
  return out + ") -> " + return_type_->ToCql();
}

std::string Function::ColumnName(std::span<const std::string> argument_names) const {
  if (!column_name_format_.empty()) {
    // Each %s takes the next argument's name (operators: "%s + %s").
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < column_name_format_.size(); ++i) {
      if (column_name_format_.compare(i, 2, "%s") == 0) {
        if (next < argument_names.size()) out += argument_names[next];
        ++next;
        ++i;
      } else {
        out += column_name_format_[i];
      }
    }
    return out;
  }
  std::string out = QualifiedName() + "(";
  for (size_t i = 0; i < argument_names.size(); ++i) {
    if (i > 0) out += ", ";
    out += argument_names[i];
  }
  return out + ")";
}

namespace {
[[noreturn]] void ThrowFailure(std::string_view name, std::vector<std::string> argument_types,
                               std::string message) {
  throw CqlError(ErrorCode::kFunctionFailure, std::move(message),
                 FunctionFailureInfo{std::string(kSystemKeyspace), std::string(name),
                                     std::move(argument_types)});
}
}  // namespace

void ThrowFunctionFailure(std::string_view name, std::vector<std::string> argument_types,
                          std::string_view detail) {
  // "system.name" + List.toString of the argument types: [int, text].
  std::string joined;
  for (const std::string& t : argument_types) {
    if (!joined.empty()) joined += ", ";
    joined += t;
  }
  std::string message = "execution of '" + std::string(kSystemKeyspace) + "." + std::string(name) +
                        "[" + joined + "]' failed: " + std::string(detail);
  ThrowFailure(name, std::move(argument_types), std::move(message));
}

void ThrowFunctionFailureCause(std::string_view name, std::vector<std::string> argument_types,
                               std::string_view cause) {
  ThrowFailure(name, std::move(argument_types), std::string(cause));
}

}  // namespace sibyl::query
