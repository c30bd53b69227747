#include "tools/admin/schema_tables_reader.h"

namespace sibyl::tools::admin {

SchemaTables ReadSchemaTables(const NodeAddress& node) {
  SchemaTables tables;
  WithNodeConnection(node, [&](client::Connection& connection) {
    for (const AdminRow& row :
         QueryRows(connection, node, "SELECT keyspace_name FROM system_schema.keyspaces")) {
      tables[RequiredColumn(row, 0, "keyspace_name")];
    }
    for (const char* query : {"SELECT keyspace_name, table_name FROM system_schema.tables",
                              "SELECT keyspace_name, view_name FROM system_schema.views"}) {
      for (const AdminRow& row : QueryRows(connection, node, query)) {
        tables[RequiredColumn(row, 0, "keyspace_name")].insert(
            RequiredColumn(row, 1, "table_name"));
      }
    }
  });
  return tables;
}

}  // namespace sibyl::tools::admin
