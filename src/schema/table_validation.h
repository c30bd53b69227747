#pragma once
// What every user table must satisfy after CREATE or ALTER TABLE, as
// Cassandra 4.1's TableMetadata.validate checks it, and the column order
// TableMetadata promises.

#include "schema/table_metadata.h"

namespace sibyl::schema {

// Puts `table.columns` in TableMetadata's order: partition key by position,
// clustering columns by position, then static and regular columns by name.
void SortColumns(TableMetadata& table);

// Throws CqlError(kConfigError) with Cassandra's "ks.t: ..." messages:
//   ks.t: Table name must not be empty, more than 48 characters long, or
//         contain non-alphanumeric-underscore characters (got "t-1")
//   ks.t: Cannot have a counter column ("c") in a non counter table
//   ks.t: Cannot have a non counter column ("c") in a counter table
//   ks.t: PRIMARY KEY columns cannot contain counters
// and TableParams' own checks (table_options.h).
void ValidateTable(const TableMetadata& table);

}  // namespace sibyl::schema
