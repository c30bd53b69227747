#pragma once
// Where a SELECT's rows come from. The SELECT machinery asks a RowSource for
// the rows of a table that may match, then filters, pages and projects them
// itself. Rows of virtual tables come from their producers
// (VirtualRowSource); rows of stored tables from the storage engine through
// the coordinator (StorageRowSource, storage_row_source.h), which narrows
// the read by partition and clustering with the request's restrictions.

#include <optional>
#include <vector>

#include "schema/local_node_info.h"
#include "schema/row_order.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "schema/virtual_tables.h"

namespace sibyl::query {

class RowFilter;

// A per-cell value a SELECT asks for with writetime(c) or ttl(c). The source
// appends one value per CellMetadata to every row, after the table's
// columns, in the order asked: writetime as a bigint (microseconds), ttl as
// an int (seconds left); null when the cell is absent, or has no TTL.
struct CellMetadata {
  enum class Kind { kWritetime, kTtl };
  Kind kind = Kind::kWritetime;
  size_t column = 0;  // index in TableMetadata::columns; a static or regular column
};

struct ReadRequest {
  const schema::Schema& schema;        // the snapshot the statement runs against
  const schema::TableMetadata& table;  // a table of `schema`
  // The request's bound restrictions, which a source may use to read less.
  // Rows that do not match may still be returned: the caller filters.
  const RowFilter* filter = nullptr;
  // Appended to every row (see CellMetadata); nullptr: none.
  const std::vector<CellMetadata>* cell_metadata = nullptr;
  // A partition that has static values but no rows yields one row with only
  // its partition key and static values (Cassandra does so unless clustering
  // columns are restricted).
  bool static_only_rows = true;
  // `now` for deciding what has expired (protocol v5 now_in_seconds); the
  // source's clock when unset.
  std::optional<int32_t> now_seconds;
};

class RowSource {
 public:
  virtual ~RowSource() = default;
  // The rows of the table, in the table's order (schema/row_order.h), each
  // with table.columns.size() values plus those of request.cell_metadata.
  // Thread-safe.
  virtual std::vector<schema::Row> Read(const ReadRequest& request) const = 0;
};

// Rows of virtual tables; tables without a producer read as empty. Cell
// metadata of virtual rows reads null.
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
