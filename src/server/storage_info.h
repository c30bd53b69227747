#pragma once
// What the node's tables show of its storage engine (system_views.flushes,
// table_stats, table_latencies, local_read_latency, local_write_latency,
// disk_usage, and the large-data ledger's large_* and partition_stats): LocalNodeInfo's callbacks, answered by the engine.

#include "schema/local_node_info.h"
#include "storage/engine.h"

namespace sibyl::server {

// Sets node_info's storage_statistics, large_data, flush_table and table_flushes. The
// last flush of each table is kept from here on, for as long as node_info's
// callbacks live.
// REQUIRES: `engine` outlives every use of `node_info`.
void ShowStorage(storage::Engine& engine, schema::LocalNodeInfo& node_info);

}  // namespace sibyl::server
