#include "query/statements/insert_json.h"

#include <optional>
#include <string>

#include "common/error.h"
#include "types/json_document.h"
#include "types/json_to_value.h"

namespace sibyl::query {
JsonColumnValues ParseInsertJson(std::string_view json, const schema::TableMetadata& table) {
  using types::JsonValue;
  JsonValue document;
  try {
    document = types::ParseJsonDocument(json);
  } catch (const std::invalid_argument& e) {
    ThrowInvalid(std::string("Could not decode JSON string as a map: ") + e.what());
  }
  if (document.kind == JsonValue::Kind::kNull) ThrowInvalid("Got null for INSERT JSON values");
  if (document.kind != JsonValue::Kind::kObject) {
    ThrowInvalid("Could not decode JSON string as a map: not a JSON object");
  }
  JsonColumnValues out;
  out.values.resize(table.columns.size());
  out.present.resize(table.columns.size(), false);
  for (const auto& [key, value] : document.members) {
    const std::string name = types::JsonKeyName(key);
    const int index = table.ColumnIndex(name);
    if (index < 0) ThrowInvalid("JSON values map contains unrecognized column: " + name);
    const schema::ColumnMetadata& column = table.columns[static_cast<size_t>(index)];
    out.present[size_t(index)] = true;
    if (value.kind == JsonValue::Kind::kNull) continue;
    try {
      out.values[size_t(index)] = types::JsonToValue(value, *column.type, column.name);
    } catch (const types::JsonValueError& e) {
      ThrowInvalid("Error decoding JSON value for " + column.name + ": " + e.what());
    }
  }
  return out;
}

}  // namespace sibyl::query
