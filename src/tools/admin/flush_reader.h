#pragma once
// Has every member of the cluster flush tables, over CQL: on each member
// (member_queries.h), one after the other, for each table
//
//   INSERT INTO system_views.flushes (keyspace_name, table_name) VALUES (?, ?)
//
// which answers once the table's memtables are in SSTables and the commit
// log is synced (schema/flushes_table.h).

#include <chrono>
#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/flush.h"
#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// A flush writes a memtable (up to its size limit) and waits for the disk.
inline constexpr std::chrono::milliseconds kFlushTimeout = std::chrono::minutes(10);

// `node` flushes `tables`. An InvalidRequest answering an INSERT (the node
// does not know the table) is the answer's refusal. Throws AdminError naming
// the node and the cause when it cannot be reached or another error answers.
[[nodiscard]] FlushAnswer FlushTables(const NodeAddress& node,
                                      const std::vector<TableSelection>& tables);

// The flush of every member in `cluster.members`' order (AskEveryMember).
// Never throws AdminError.
[[nodiscard]] std::vector<NodeFlush> FlushOnEveryMember(const ClusterMembers& cluster,
                                                        const NodeAddress& contacted,
                                                        const std::vector<TableSelection>& tables);

}  // namespace sibyl::tools::admin
