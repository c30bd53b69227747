#pragma once
// The keyspaces and tables (materialized views included) of the contacted
// node's schema, over CQL:
//
//   SELECT keyspace_name, table_name FROM system_schema.tables
//   SELECT keyspace_name, view_name FROM system_schema.views
//
// what flush, tablestats and tablehistograms check their arguments against,
// as nodetool checks them against the node's schema before it acts.

#include <map>
#include <set>
#include <string>

#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// Keyspace → its tables and views. Every keyspace of system_schema.keyspaces
// is there, one without tables too.
using SchemaTables = std::map<std::string, std::set<std::string>>;

// Throws AdminError naming the node and the cause when it cannot be asked.
[[nodiscard]] SchemaTables ReadSchemaTables(const NodeAddress& node);

}  // namespace sibyl::tools::admin
