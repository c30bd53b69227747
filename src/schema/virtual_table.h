#pragma once
// Tables whose rows are produced from live node state instead of storage:
// system.local, system.peers, system.peers_v2, the system_schema tables and
// the tables of the virtual keyspaces (system_views, system_virtual_schema).
// They are read through the same SELECT machinery as stored tables: the
// table's definition comes from the schema snapshot, the rows from here.

#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "schema/local_node_info.h"
#include "schema/row_order.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "storage/data/mutation.h"

namespace sibyl::schema {

// One row: a value (or null) per column of the table, in TableMetadata::columns
// order (declared in row_order.h).
using Row = std::vector<OptBytes>;

// What a virtual table may look at when producing its rows. Both outlive the call.
struct VirtualTableContext {
  const Schema& schema;
  const LocalNodeInfo& node;
};

// Fills one row by column name, so producers do not depend on column order.
class RowWriter {
 public:
  explicit RowWriter(const TableMetadata& table) : table_(table), row_(table.columns.size()) {}
  // REQUIRES: the table has a column named `column` (a producer/definition mismatch otherwise).
  RowWriter& Set(std::string_view column, Bytes value);
  RowWriter& SetNull(std::string_view column);
  Row Take() { return std::move(row_); }

 private:
  const TableMetadata& table_;
  Row row_;
};

// The operation tables' (decommission, removenode) one settable column: the
// boolean `column` the INSERT sets, false when absent or null. Throws
// InvalidRequest when the INSERT sets any other column.
[[nodiscard]] bool SetFlagOf(const storage::Mutation& mutation, std::string_view column);

// Thread-safe: Rows() may be called concurrently (producers hold no mutable state).
class VirtualTable {
 public:
  VirtualTable(std::string keyspace, std::string name)
      : keyspace_(std::move(keyspace)), name_(std::move(name)) {}
  virtual ~VirtualTable() = default;

  const std::string& keyspace() const { return keyspace_; }
  const std::string& name() const { return name_; }

  // All rows of `table` (this table's definition in context.schema), in
  // Cassandra's order (row_order.h).
  std::vector<Row> Rows(const TableMetadata& table, const VirtualTableContext& context) const;

  // An INSERT, UPDATE or DELETE of the table (Cassandra's mutable virtual
  // tables), as the statement layer builds it: one partition's cells,
  // without timestamps or TTLs that mean anything. Most tables are
  // read-only: InvalidRequest "Modification is not supported by table ks.t".
  virtual void Apply(const TableMetadata& table, const storage::Mutation& mutation,
                     const VirtualTableContext& context) const;

 protected:
  // Appends the table's rows, in any order.
  virtual void Produce(const TableMetadata& table, const VirtualTableContext& context,
                       std::vector<Row>& rows) const = 0;

 private:
  std::string keyspace_;
  std::string name_;
};

}  // namespace sibyl::schema
