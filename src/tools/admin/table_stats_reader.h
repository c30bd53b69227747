#pragma once
// Reads the figures `tablestats` shows from every member of the cluster
// over CQL (member_queries.h): on each,
//
//   SELECT keyspace_name, table_name, kind, sstables, live_bytes,
//          total_bytes, compressed_bytes, uncompressed_bytes,
//          memtable_entries, memtable_bytes, pending_flushes,
//          bloom_filter_bytes, read_count, read_total_micros, write_count,
//          write_total_micros FROM system_views.table_stats
//
// and its system_views.partition_stats (partition_stats_reader.h).

#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/node_connection.h"
#include "tools/admin/table_stats.h"

namespace sibyl::tools::admin {

// One row of the SELECT's answer. Throws AdminError on a null key or a
// malformed value; a null figure reads 0.
[[nodiscard]] TableStats TableStatsOfRow(const AdminRow& row);

// Throws AdminError naming the node and the cause when it cannot be asked.
[[nodiscard]] NodeTableStatsAnswer ReadTableStats(const NodeAddress& node);

// Every member's, in `cluster.members`' order (AskEveryMember). Never
// throws AdminError.
[[nodiscard]] std::vector<NodeTableStats> ReadClusterTableStats(const ClusterMembers& cluster,
                                                                const NodeAddress& contacted);

}  // namespace sibyl::tools::admin
