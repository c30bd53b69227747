#pragma once
// The WITH options of a DDL statement (`replication = {...} AND
// durable_writes = false`), read the way Cassandra's PropertyDefinitions
// reads them: each option is a string or a map of strings, and the typed
// getters fail with Cassandra's messages. Built by the statement layer from
// the parsed options; the schema layer turns them into keyspace and table
// parameters.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sibyl::schema {

class PropertyDefinitions {
 public:
  using Map = std::map<std::string, std::string, std::less<>>;

  // REQUIRES: `name` not added before (the parser refuses repeated names).
  void AddString(std::string name, std::string value);
  void AddMap(std::string name, Map value);

  // Throws CqlError(kSyntaxError, "Unknown property 'x'") for a property
  // whose name is not one of `keywords`.
  void Validate(std::initializer_list<std::string_view> keywords) const;

  bool Has(std::string_view name) const { return properties_.count(name) > 0; }
  bool empty() const { return properties_.empty(); }
  // The names given (Cassandra's updatedProperties()), in name order.
  std::set<std::string> Names() const {
    std::set<std::string> names;
    for (const auto& [name, value] : properties_) names.insert(name);
    return names;
  }
  // Forgets `name` (the table_properties_ignored guardrail).
  void Remove(std::string_view name) {
    if (auto it = properties_.find(name); it != properties_.end()) properties_.erase(it);
  }

  // The string value; throws CqlError(kSyntaxError, "Invalid value for
  // property 'x'. It should be a string") when it is a map.
  std::optional<std::string> GetString(std::string_view name) const;
  // The map value; throws CqlError(kSyntaxError, "Invalid value for property
  // 'x'. It should be a map.") when it is a string.
  std::optional<Map> GetMap(std::string_view name) const;
  // PropertyDefinitions.getBoolean: true when the value, lower-cased, is
  // "1", "true" or "yes"; anything else is false.
  bool GetBoolean(std::string_view name, bool default_value) const;
  // Integer.parseInt; CqlError(kSyntaxError, "Invalid integer value v for 'x'").
  int32_t GetInt(std::string_view name) const;
  // Double.parseDouble; CqlError(kSyntaxError, "Invalid double value v for 'x'").
  double GetDouble(std::string_view name) const;

 private:
  std::map<std::string, std::variant<std::string, Map>, std::less<>> properties_;
};

}  // namespace sibyl::schema
