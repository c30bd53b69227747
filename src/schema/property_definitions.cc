#include "schema/property_definitions.h"

#include <algorithm>
#include <cctype>

#include "common/error.h"
#include "schema/java_numbers.h"

namespace sibyl::schema {
namespace {

[[noreturn]] void ThrowSyntax(std::string message) {
  throw CqlError(ErrorCode::kSyntaxError, std::move(message));
}

}  // namespace

void PropertyDefinitions::AddString(std::string name, std::string value) {
  properties_.emplace(std::move(name), std::move(value));
}

void PropertyDefinitions::AddMap(std::string name, Map value) {
  properties_.emplace(std::move(name), std::move(value));
}

void PropertyDefinitions::Validate(std::initializer_list<std::string_view> keywords) const {
  for (const auto& [name, value] : properties_) {
    if (std::find(keywords.begin(), keywords.end(), name) == keywords.end()) {
      ThrowSyntax("Unknown property '" + name + "'");
    }
  }
}

std::optional<std::string> PropertyDefinitions::GetString(std::string_view name) const {
  auto it = properties_.find(name);
  if (it == properties_.end()) return std::nullopt;
  const auto* text = std::get_if<std::string>(&it->second);
  if (text == nullptr) {
    ThrowSyntax("Invalid value for property '" + std::string(name) + "'. It should be a string");
  }
  return *text;
}

std::optional<PropertyDefinitions::Map> PropertyDefinitions::GetMap(std::string_view name) const {
  auto it = properties_.find(name);
  if (it == properties_.end()) return std::nullopt;
  const auto* map = std::get_if<Map>(&it->second);
  if (map == nullptr) {
    ThrowSyntax("Invalid value for property '" + std::string(name) + "'. It should be a map.");
  }
  return *map;
}

bool PropertyDefinitions::GetBoolean(std::string_view name, bool default_value) const {
  const std::optional<std::string> value = GetString(name);
  if (!value) return default_value;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "1" || lower == "true" || lower == "yes";
}

int32_t PropertyDefinitions::GetInt(std::string_view name) const {
  const std::string value = GetString(name).value_or("");
  const std::optional<int32_t> parsed = ParseJavaInt(value);
  if (!parsed) ThrowSyntax("Invalid integer value " + value + " for '" + std::string(name) + "'");
  return *parsed;
}

double PropertyDefinitions::GetDouble(std::string_view name) const {
  const std::string value = GetString(name).value_or("");
  const std::optional<double> parsed = ParseJavaDouble(value);
  if (!parsed) ThrowSyntax("Invalid double value " + value + " for '" + std::string(name) + "'");
  return *parsed;
}

}  // namespace sibyl::schema
