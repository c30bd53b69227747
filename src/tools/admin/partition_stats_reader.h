#pragma once
// Reads a node's system_views.partition_stats (partition_stats.h) over CQL:
//
//   SELECT keyspace_name, table_name, measure, partitions, min, p50, p75,
//          p95, p98, p99, max FROM system_views.partition_stats
//
// with `WHERE keyspace_name = ? AND table_name = ?` for one table.

#include <optional>
#include <string>

#include "client/client_connection.h"
#include "tools/admin/node_connection.h"
#include "tools/admin/partition_stats.h"

namespace sibyl::tools::admin {

// Adds one row of the SELECT's answer to `stats`. Throws AdminError on a
// null key or a malformed value; a null figure reads 0.
void AddPartitionStatsRow(const AdminRow& row, PartitionStats& stats);

// The node's partition statistics, of one table when `table` is given
// (then `keyspace` too). An InvalidRequest answer (the node has no such
// table) leaves them unavailable. Throws AdminError when another error
// answers.
[[nodiscard]] PartitionStats ReadPartitionStats(client::Connection& connection,
                                                const NodeAddress& node,
                                                const std::optional<std::string>& keyspace = {},
                                                const std::optional<std::string>& table = {});

}  // namespace sibyl::tools::admin
