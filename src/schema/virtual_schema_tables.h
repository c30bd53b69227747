#pragma once
// The system_virtual_schema tables (keyspaces, tables, columns), produced
// from the virtual keyspaces (virtual_keyspaces.h) as Cassandra 4.1's
// VirtualSchemaKeyspace produces them from its VirtualKeyspaceRegistry. The
// drivers build their metadata of virtual keyspaces (`virtual == true`) from
// these rows.

#include <memory>
#include <vector>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::vector<std::unique_ptr<VirtualTable>> MakeVirtualSchemaTables();

}  // namespace sibyl::schema
