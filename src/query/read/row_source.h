#pragma once
// Where a SELECT's rows come from. The SELECT machinery asks a RowSource for
// one page of the rows a ReadPlan covers, then filters, groups and projects
// them itself (select_execution.cc). Rows of virtual tables come from their
// producers (VirtualRowSource, paged in memory: they are small); rows of
// stored tables from the storage engine through the coordinator
// (StorageRowSource, storage_row_source.h), which seeks straight to the
// plan's partitions and slices and stops at the page's limits.

#include <limits>
#include <optional>
#include <vector>

#include "query/restrictions/read_plan.h"
#include "schema/local_node_info.h"
#include "schema/row_order.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "schema/virtual_tables.h"
#include "storage/data/read_command.h"

namespace sibyl::query {

// A per-cell value a SELECT asks for with writetime(c) or ttl(c). The source
// appends one value per CellMetadata to every row, after the table's
// columns, in the order asked: writetime as a bigint (microseconds), ttl as
// an int (seconds left); null when the cell is absent, or has no TTL.
struct CellMetadata {
  enum class Kind { kWritetime, kTtl };
  Kind kind = Kind::kWritetime;
  size_t column = 0;  // index in TableMetadata::columns; a static or regular column
};

inline constexpr int32_t kNoRowLimit = std::numeric_limits<int32_t>::max();

struct ReadRequest {
  const schema::Schema& schema;        // the snapshot the statement runs against
  const schema::TableMetadata& table;  // a table of `schema`
  // Where the rows may be; nullptr: every row of the table. Named partitions
  // are read in the plan's order, a token range in token order.
  const ReadPlan* plan = nullptr;
  // Appended to every row (see CellMetadata); nullptr: none.
  const std::vector<CellMetadata>* cell_metadata = nullptr;
  // The static and regular columns whose values the rows must carry
  // (indexes in TableMetadata::columns); nullptr: all. Others read as null,
  // but still make a row live, as in Cassandra.
  const std::vector<size_t>* columns = nullptr;
  // A partition that has static values but no rows yields one row with only
  // its partition key and static values (Cassandra does so unless clustering
  // columns are restricted).
  bool static_only_rows = true;
  bool reversed = false;  // rows of each partition in reverse clustering order
  // Stop after this many rows (a static-only row counts as one) ...
  int32_t row_limit = kNoRowLimit;
  // ... and after this many rows of one partition.
  int32_t per_partition_limit = kNoRowLimit;
  // Resume right after this position (a RowPage::next, or a paging state's).
  // Its rows_in_partition counts on toward per_partition_limit.
  const storage::ReadPosition* resume_after = nullptr;
  // `now` for deciding what has expired (protocol v5 now_in_seconds); the
  // source's clock when unset.
  std::optional<int32_t> now_seconds;
  // The consistency level the statement reads at (protocol::Consistency).
  uint16_t consistency = 0x0001;
};

struct RowPage {
  // In the table's order (reversed within partitions when asked), each with
  // table.columns.size() values plus those of request.cell_metadata.
  std::vector<schema::Row> rows;
  // Set when a limit stopped the read: where the next read resumes. Unset:
  // the plan has no rows after these.
  std::optional<storage::ReadPosition> next;
  // Tombstones the read went over (tombstone_warn/failure_threshold).
  int64_t tombstones_scanned = 0;
};

class RowSource {
 public:
  virtual ~RowSource() = default;
  // One page of the rows `request` covers. Thread-safe.
  [[nodiscard]] virtual RowPage Read(const ReadRequest& request) const = 0;
};

// Rows of virtual tables; tables without a producer read as empty. Cell
// metadata of virtual rows reads null. Pages in memory.
class VirtualRowSource final : public RowSource {
 public:
  // Both must outlive the source.
  VirtualRowSource(const schema::VirtualTables& tables, const schema::LocalNodeInfo& node)
      : tables_(tables), node_(node) {}

  [[nodiscard]] RowPage Read(const ReadRequest& request) const override;
  // Applies a statement's mutations to a mutable virtual table
  // (schema::VirtualTable::Apply).
  void Modify(const schema::Schema& schema, const schema::TableMetadata& table,
              const std::vector<storage::Mutation>& mutations) const;

 private:
  const schema::VirtualTables& tables_;
  const schema::LocalNodeInfo& node_;
};

// Pages `rows` (every row of request.table, in the table's order) as a
// source would: keeps those inside request.plan, reverses each partition's
// rows if asked, resumes after request.resume_after and applies the limits.
[[nodiscard]] RowPage PageInMemory(const ReadRequest& request, std::vector<schema::Row> rows);

// The resume position right after `row` (TableMetadata::columns layout),
// the `rows_in_partition`-th row returned from its partition. A row without
// clustering values (a static-only row, or a table without clustering
// columns) resumes after its whole partition.
[[nodiscard]] storage::ReadPosition PositionAfter(const schema::TableMetadata& table,
                                                  const schema::Row& row,
                                                  int32_t rows_in_partition);

}  // namespace sibyl::query
