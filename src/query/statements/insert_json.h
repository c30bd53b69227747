#pragma once
// INSERT JSON's document: parsed, and turned into one value per column of the
// table as Cassandra 4.1's cql3/Json.java does it:
//   - the document must be a JSON object ("Could not decode JSON string as a
//     map: ..."); a JSON null document is refused ("Got null for INSERT JSON values");
//   - keys name columns: a key written "\"Name\"" is case-sensitive, any
//     other key is lower-cased; a key naming no column is refused ("JSON
//     values map contains unrecognized column: x");
//   - each value is converted to its column's type (types/json_to_value.h),
//     failures read "Error decoding JSON value for c: ...";
//   - columns the document leaves out are null, or unset with DEFAULT UNSET.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "schema/table_metadata.h"
#include "types/cql_type.h"

namespace sibyl::query {

// One entry per TableMetadata::columns entry; nullopt inside = null.
struct JsonColumnValues {
  std::vector<std::optional<Bytes>> values;
  std::vector<bool> present;  // false: the document left the column out
};

// Throws CqlError(kInvalid) with the messages above.
[[nodiscard]] JsonColumnValues ParseInsertJson(std::string_view json,
                                               const schema::TableMetadata& table);

}  // namespace sibyl::query
