#pragma once
// `sibyl admin tablestats [KEYSPACE[.TABLE]...]`: each node's figures of its
// tables in nodetool tablestats' (4.1) layout, under a header naming the
// node (node_sections.h):
//
//   Node: 127.0.0.1
//   ===============
//   Total number of tables: 2
//   ----------------
//   Keyspace : ks
//   	Read Count: 3
//   	Read Latency: 0.052 ms
//   	Write Count: 10
//   	Write Latency: 0.0213 ms
//   	Pending Flushes: 0
//   		Table: t
//   		SSTable count: 1
//   		Space used (live): 5120
//   		...
//
//   ----------------
//
// From the node's system_views.table_stats (its stored tables, views and
// indexes, "Table (index): t.i") and partition_stats (partition_stats.h).
// A line nodetool prints for a figure Sibyl does not measure is left out
// (docs/admin.md lists them); "Number of partitions (estimate)" and
// "Compacted partition minimum/maximum bytes" come from partition_stats and
// are left out when the node has no such table, 0 when it has no row for
// the table (no flushed data), as nodetool shows a table without SSTables.

#include <cstdint>
#include <string>
#include <vector>

#include "tools/admin/admin_options.h"
#include "tools/admin/node_sections.h"
#include "tools/admin/partition_stats.h"
#include "tools/admin/schema_tables_reader.h"

namespace sibyl::tools::admin {

// One row of system_views.table_stats.
struct TableStats {
  std::string keyspace;
  std::string table;
  std::string kind;  // "table", "view" or "index"
  int64_t sstables = 0;
  int64_t live_bytes = 0;
  int64_t total_bytes = 0;
  int64_t compressed_bytes = 0;
  int64_t uncompressed_bytes = 0;
  int64_t memtable_entries = 0;
  int64_t memtable_bytes = 0;
  int64_t pending_flushes = 0;
  int64_t bloom_filter_bytes = 0;
  int64_t read_count = 0;
  int64_t read_total_micros = 0;
  int64_t write_count = 0;
  int64_t write_total_micros = 0;
};

struct NodeTableStatsAnswer {
  std::vector<TableStats> tables;
  PartitionStats partitions;
};

using NodeTableStats = MemberAnswer<NodeTableStatsAnswer>;

// Throws AdminError, with nodetool's words, when a selection names a
// keyspace ("Unknown keyspace: ks") or tables ("Unknown tables: [a, b] in
// keyspace: ks") that `schema` does not have.
void CheckSelections(const std::vector<TableSelection>& selections, const SchemaTables& schema);

// One node's report, nodetool's text: the keyspaces having a selected table
// (every table when `selections` is empty), sorted, with their totals over
// all their tables, then each selected table.
std::string FormatTableStats(const std::vector<TableSelection>& selections,
                             const NodeTableStatsAnswer& answer);

// Every node's report under its header.
std::string FormatClusterTableStats(const std::vector<TableSelection>& selections,
                                    const std::vector<NodeTableStats>& nodes);

}  // namespace sibyl::tools::admin
