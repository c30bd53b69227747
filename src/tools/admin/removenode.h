#pragma once
// `sibyl admin removenode`, as nodetool's, run on any live node for a dead
// one, over CQL (schema/removenode_table.h):
//
//   removenode <host id>   the dead node leaves the ring, the nodes taking
//                          its ranges streaming them from the replicas that
//                          remain; prints nothing once it is out
//   removenode status      "RemovalStatus: No token removals in process." or
//                          "RemovalStatus: Removing token (T). Waiting for
//                          replication confirmation from [/a,/b]."
//   removenode force       prints the status, then takes the node being
//                          removed out at once, without waiting for streams
//
// Refusals ("Host ID not found.", "Cannot remove self", "Node /ip:port is
// alive and owns this ID. Use decommission command to remove it from the
// ring", "No tokens to force removal on, call 'removenode' first") and
// failures are AdminErrors.

#include <string>

#include "tools/admin/node_connection.h"

namespace sibyl::tools::admin {

// `host_id` is the dead node's id; "status" and "force" are the subcommands.
// Returns what to print.
[[nodiscard]] std::string RemoveNode(const NodeAddress& node, const std::string& host_id);

}  // namespace sibyl::tools::admin
