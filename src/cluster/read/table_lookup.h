#pragma once
// A table of a schema found by its id (what a ReadCommand names).
//
// Pure functions: safe from any thread.

#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "types/uuid.h"

namespace sibyl::cluster {

// The table with id `table_id`, or null.
[[nodiscard]] schema::TablePtr FindTableById(const schema::Schema& schema,
                                             const types::Uuid& table_id);

}  // namespace sibyl::cluster
