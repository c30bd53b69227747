#include "query/statements/bound_write.h"

namespace sibyl::query {

BoundWrite::JsonValues::JsonValues(JsonColumnValues parsed, bool default_unset,
                                   const std::vector<protocol::ColumnSpec>& column_specs)
    : document(std::move(parsed)),
      params([&] {
        protocol::QueryParameters p;
        p.values.reserve(document.values.size());
        for (size_t i = 0; i < document.values.size(); ++i) {
          if (!document.present[i]) {
            p.values.push_back(default_unset ? Value::Unset() : Value::Null());
          } else if (document.values[i]) {
            p.values.push_back(Value::Of(*document.values[i]));
          } else {
            p.values.push_back(Value::Null());
          }
        }
        return p;
      }()),
      values(column_specs, params) {}

}  // namespace sibyl::query
