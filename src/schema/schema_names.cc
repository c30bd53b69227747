#include "schema/schema_names.h"

namespace sibyl::schema {

bool IsValidSchemaName(std::string_view name) {
  if (name.empty() || name.size() > kSchemaNameLength) return false;
  for (char c : name) {
    const bool word_char =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word_char) return false;
  }
  return true;
}

}  // namespace sibyl::schema
