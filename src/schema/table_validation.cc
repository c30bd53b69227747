#include "schema/table_validation.h"

#include <algorithm>

#include "common/error.h"
#include "schema/schema_names.h"

namespace sibyl::schema {
namespace {

[[noreturn]] void Except(const TableMetadata& table, const std::string& message) {
  throw CqlError(ErrorCode::kConfigError, table.keyspace + "." + table.name + ": " + message);
}

std::string InvalidName(std::string_view what, std::string_view name) {
  return std::string(what) + " name must not be empty, more than " +
         std::to_string(kSchemaNameLength) +
         " characters long, or contain non-alphanumeric-underscore characters (got \"" +
         std::string(name) + "\")";
}

}  // namespace

void SortColumns(TableMetadata& table) {
  auto rank = [](const ColumnMetadata& c) {
    switch (c.kind) {
      case ColumnKind::kPartitionKey:
        return 0;
      case ColumnKind::kClustering:
        return 1;
      default:
        return 2;
    }
  };
  std::stable_sort(table.columns.begin(), table.columns.end(),
                   [&](const ColumnMetadata& a, const ColumnMetadata& b) {
                     if (rank(a) != rank(b)) return rank(a) < rank(b);
                     if (rank(a) < 2) return a.position < b.position;
                     return a.name < b.name;
                   });
}

void ValidateTable(const TableMetadata& table) {
  if (!IsValidSchemaName(table.keyspace)) Except(table, InvalidName("Keyspace", table.keyspace));
  if (!IsValidSchemaName(table.name)) Except(table, InvalidName("Table", table.name));
  const bool counter_table = table.flags.count("counter") > 0;
  for (const ColumnMetadata& column : table.columns) {
    const bool is_counter = column.type->kind() == types::Kind::kCounter;
    if (column.kind == ColumnKind::kPartitionKey && is_counter) {
      Except(table, "PRIMARY KEY columns cannot contain counters");
    }
    if (column.is_primary_key()) continue;
    if (counter_table && !is_counter) {
      Except(table,
             "Cannot have a non counter column (\"" + column.name + "\") in a counter table");
    }
    if (!counter_table && is_counter) {
      Except(table,
             "Cannot have a counter column (\"" + column.name + "\") in a non counter table");
    }
  }
}

}  // namespace sibyl::schema
