#pragma once
// system_views.decommission: this node's state in the ring
// (LocalNodeInfo::ring_state), and the means to take it out — a mutable
// virtual table, as flushes is:
//
//   SELECT host_id, state FROM system_views.decommission;   -- NORMAL, LEAVING...
//   INSERT INTO system_views.decommission (host_id) VALUES (<its host id>);
//   INSERT INTO system_views.decommission (host_id, force) VALUES (<id>, true);
//
// (force: nodetool decommission --force, leaving even when fewer nodes than
// a keyspace's replication factor remain; only `force` may be set.)
// The INSERT runs `nodetool decommission` on this node (LocalNodeInfo::
// decommission) and answers once the node left the ring; naming another
// node's host id is refused, so that a statement routed elsewhere never
// decommissions the wrong node. `sibyl admin decommission` runs it.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeDecommissionTable();

}  // namespace sibyl::schema
