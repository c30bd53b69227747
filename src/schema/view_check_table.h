#pragma once
// system_views.view_checks: checks of materialized views against their base
// tables on this node (LocalNodeInfo::check_view, view_checks), and the
// means to ask for one — a mutable virtual table, as Cassandra has them:
//
//   INSERT INTO system_views.view_checks (keyspace_name, view_name, repair)
//   VALUES ('ks', 'v', false);          -- checks now (repair: rewrites what differs)
//   SELECT * FROM system_views.view_checks WHERE keyspace_name = 'ks';
//
// A row shows the last check of each view since the node started: when,
// whether it repaired, the rows the base gives, and the rows missing from
// the view, unexpected in it, different, and repaired. `sibyl admin
// verify-view` runs it on every node. The INSERT runs the check before it
// answers: a full scan of the base (on a ring, of this node's replicas).

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeViewChecksTable();

}  // namespace sibyl::schema
