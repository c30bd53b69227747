#pragma once
// The system_schema tables, produced from the live Schema snapshot, with
// the values Cassandra 4.1's SchemaKeyspace writes for each keyspace, table,
// column, index and user type — so the system keyspaces describe
// themselves and user tables appear as soon as they are in the schema.
//
// Produced: keyspaces, tables (tables only), views (materialized views),
// columns (of tables and views), indexes, types and dropped_columns
// (dropped_columns_table.h). triggers, functions and aggregates have
// nothing to list yet (Sibyl has no such objects) and read as empty tables.

#include <memory>
#include <vector>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::vector<std::unique_ptr<VirtualTable>> MakeSchemaTables();

// Appends to `rows` one row of `columns_table` per column of `described`.
// `columns_table` is system_schema.columns or system_virtual_schema.columns,
// which share their definition.
void AppendColumnRows(const TableMetadata& columns_table, const TableMetadata& described,
                      std::vector<Row>& rows);

}  // namespace sibyl::schema
