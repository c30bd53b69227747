#pragma once
// Tables whose rows are produced from live node state instead of storage:
// system.local, system.peers, system.peers_v2 and the system_schema tables.
// They are read through the same SELECT machinery as stored tables.

#include <memory>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "schema/local_node_info.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"

namespace sibyl::schema {

// One row: a value (or null) per column of the table, in TableMetadata::columns order.
using Row = std::vector<OptBytes>;

// What a virtual table may look at when producing its rows.
struct VirtualTableContext {
  const Schema& schema;
  const LocalNodeInfo& node;
};

class VirtualTable {
 public:
  virtual ~VirtualTable() = default;
  virtual const TablePtr& metadata() const = 0;
  // All rows, in Cassandra's order: partitions by token of the partition key
  // (Murmur3), rows within a partition by clustering order.
  virtual std::vector<Row> Rows(const VirtualTableContext& context) const = 0;
};

}  // namespace sibyl::schema
