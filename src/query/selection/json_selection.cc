// SELECT JSON's one column (Cassandra 4.1's Selection.rowToJson).

#include <algorithm>

#include "query/functions/function_value_text.h"
#include "query/selection/selection.h"

namespace sibyl::query {

std::string RowToJson(const std::vector<protocol::ColumnSpec>& columns, const schema::Row& row) {
  std::string out = "{";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    // A name that is not all lower case is written as its quoted CQL
    // identifier, so that fromJson can tell case-sensitive names apart.
    const std::string& name = columns[i].name;
    const bool has_upper =
        std::any_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    out += QuoteJsonString(has_upper ? "\"" + name + "\"" : name);
    out += ": ";
    const OptBytes& value = row[i];
    if (!value) {
      out += "null";
    } else if (value->empty()) {
      out += "\"\"";
    } else {
      out += ToJsonText(*columns[i].type, BytesView(*value));
    }
  }
  out += "}";
  return out;
}

}  // namespace sibyl::query
