#pragma once
// Reads the figures `tablehistograms` shows of one table from every member
// of the cluster over CQL (member_queries.h): on each,
//
//   SELECT operation, count, min, p50, p75, p95, p98, p99, max
//   FROM system_views.table_latencies WHERE keyspace_name = ? AND table_name = ?
//
// and the table's rows of system_views.partition_stats
// (partition_stats_reader.h).

#include <string>
#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/node_connection.h"
#include "tools/admin/table_histograms.h"

namespace sibyl::tools::admin {

// Adds one row of the latency SELECT's answer to `answer` (operation 'read'
// or 'write'; another is ignored). Throws AdminError on a null operation or
// count, or a malformed value; a null percentile reads 0.
void AddLatencyRow(const AdminRow& row, TableHistogramsAnswer& answer);

// Throws AdminError naming the node and the cause when it cannot be asked.
[[nodiscard]] TableHistogramsAnswer ReadTableHistograms(const NodeAddress& node,
                                                        const std::string& keyspace,
                                                        const std::string& table);

// Every member's, in `cluster.members`' order (AskEveryMember). Never
// throws AdminError.
[[nodiscard]] std::vector<NodeTableHistograms> ReadClusterTableHistograms(
    const ClusterMembers& cluster, const NodeAddress& contacted, const std::string& keyspace,
    const std::string& table);

}  // namespace sibyl::tools::admin
