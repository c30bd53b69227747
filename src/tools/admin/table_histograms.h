#pragma once
// `sibyl admin tablehistograms KEYSPACE TABLE`: each node's histograms of
// one table in nodetool tablehistograms' (4.1) layout, under a header
// naming the node (node_sections.h):
//
//   Node: 127.0.0.1
//   ===============
//   ks/t histograms
//   Percentile     Write Latency      Read Latency    Partition Size        Cell Count
//                       (micros)          (micros)           (bytes)
//   50%                    24.00             35.00               310                 4
//   ...
//   Max                   152.00            420.00              1331                10
//
// Rows 50%, 75%, 95%, 98%, 99%, Min and Max. The latencies are the node's
// engine reads and writes (system_views.table_latencies): 0.00 without
// any, as nodetool prints an empty histogram. Partition Size and Cell Count
// are partition_stats' 'bytes' and 'cells' (partition_stats.h); without
// them (no flushed data, or a node without that table) nodetool's line
// "No SSTables exists, unable to calculate 'Partition Size' and 'Cell
// Count' percentiles" comes first and the columns read NaN. nodetool's
// SSTables column (SSTables touched per read) is left out: Sibyl does not
// measure it (docs/admin.md).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/admin/node_sections.h"
#include "tools/admin/partition_stats.h"

namespace sibyl::tools::admin {

// One row of system_views.table_latencies, in µs.
using LatencyPercentiles = Percentiles;

struct TableHistogramsAnswer {
  std::optional<LatencyPercentiles> reads;  // nullopt: no row (no figures)
  std::optional<LatencyPercentiles> writes;
  PartitionStats partitions;
};

using NodeTableHistograms = MemberAnswer<TableHistogramsAnswer>;

// One node's report, nodetool's text, ending with an empty line.
std::string FormatTableHistograms(const std::string& keyspace, const std::string& table,
                                  const TableHistogramsAnswer& answer);

// Every node's report under its header.
std::string FormatClusterTableHistograms(const std::string& keyspace, const std::string& table,
                                         const std::vector<NodeTableHistograms>& nodes);

}  // namespace sibyl::tools::admin
