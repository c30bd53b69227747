#pragma once
// system_views.removenode: `nodetool removenode` over CQL, on any live node
// (LocalNodeInfo::remove_node), and the removal it coordinates:
//
//   INSERT INTO system_views.removenode (host_id) VALUES (<dead node's id>);
//   INSERT INTO system_views.removenode (host_id, force) VALUES (<id>, true);
//   SELECT host_id, first_token, waiting_for FROM system_views.removenode;
//
// The first answers once the dead node is out of the ring, its ranges
// streamed to their new owners from the replicas that remain; with force,
// once it is out without streaming. The SELECT shows the removal under way
// on this node, if any (removenode status). `sibyl admin removenode` runs
// them.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeRemoveNodeTable();

}  // namespace sibyl::schema
