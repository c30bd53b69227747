#pragma once
// system_schema.dropped_columns, produced from the live schema: one row per
// column removed with ALTER TABLE DROP (TableMetadata::dropped_columns), with
// Cassandra 4.1's values: dropped_time in milliseconds, kind "regular" or
// "static", and the type as CQL text with user types expanded to tuples.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::unique_ptr<VirtualTable> MakeDroppedColumnsTable();

}  // namespace sibyl::schema
