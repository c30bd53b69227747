#pragma once
// Where a SELECT's rows come from. The SELECT machinery asks a RowSource for
// the rows of a table that may match, then filters, pages and projects them
// itself. Today rows come from virtual tables (system.local, system_schema...)
// and stored tables read as empty; the storage engine's ReadCommand will be
// the RowSource of stored tables, narrowing the read by partition and
// clustering itself.

#include <vector>

#include "schema/local_node_info.h"
#include "schema/row_order.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "schema/virtual_tables.h"

namespace sibyl::query {

struct ReadRequest {
  const schema::Schema& schema;        // the snapshot the statement runs against
  const schema::TableMetadata& table;  // a table of `schema`
};

class RowSource {
 public:
  virtual ~RowSource() = default;
  // The rows of the table, in the table's order (schema/row_order.h). Thread-safe.
  virtual std::vector<schema::Row> Read(const ReadRequest& request) const = 0;
};

// Rows of virtual tables; tables without a producer read as empty.
class VirtualRowSource final : public RowSource {
 public:
  // Both must outlive the source.
  VirtualRowSource(const schema::VirtualTables& tables, const schema::LocalNodeInfo& node)
      : tables_(tables), node_(node) {}

  std::vector<schema::Row> Read(const ReadRequest& request) const override;

 private:
  const schema::VirtualTables& tables_;
  const schema::LocalNodeInfo& node_;
};

}  // namespace sibyl::query
