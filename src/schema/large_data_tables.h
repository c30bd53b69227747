#pragma once
// The large-data ledger's views (storage/ledger/large_data_ledger.h,
// docs/large-data.md), one row per partition, row or cell the ledger names
// (over its floors), the largest first:
//
//   system_views.large_partitions  ((keyspace_name, table_name), partition_size DESC,
//                                   partition_key): rows, cells, tombstones,
//                                   largest_row_size, largest_collection_items
//   system_views.large_rows        ((keyspace_name, table_name), row_size DESC,
//                                   partition_key, clustering_key): cells
//   system_views.large_cells       ((keyspace_name, table_name), cell_size DESC,
//                                   partition_key, clustering_key, column_name):
//                                   collection_elements
//   system_views.partition_stats   ((keyspace_name), table_name, measure): partitions,
//                                   min, p50, p75, p95, p98, p99, max of each
//                                   measure (bytes, rows, cells, tombstones)
//
// ScyllaDB's system.large_* columns without the SSTable's name (a partition
// here is summed over the table's SSTables), with `rule` (the guardrails
// the partition or cell breaks now, comma-separated; null for none) and
// `last_seen` (when the ledger last measured the table). Tables of the
// system keyspaces are listed too; secondary index tables are not.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeLargePartitionsTable();
[[nodiscard]] std::unique_ptr<VirtualTable> MakeLargeRowsTable();
[[nodiscard]] std::unique_ptr<VirtualTable> MakeLargeCellsTable();
[[nodiscard]] std::unique_ptr<VirtualTable> MakePartitionStatsTable();

}  // namespace sibyl::schema
