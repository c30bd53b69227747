#pragma once
// system_views.flushes: flushes of tables' memtables to SSTables on this
// node (LocalNodeInfo::flush_table, table_flushes), and the means to ask for
// one — a mutable virtual table, as view_checks is:
//
//   INSERT INTO system_views.flushes (keyspace_name, table_name)
//   VALUES ('ks', 't');                 -- flushes now, as `nodetool flush ks t`
//   SELECT * FROM system_views.flushes WHERE keyspace_name = 'ks';
//
// The INSERT writes the table's memtables (its indexes' with them) to
// SSTables and syncs the commit log before it answers; a table of a system
// keyspace that the engine does not store has nothing to flush. A row shows
// when each table was last flushed this way since the node started. An
// unknown keyspace or table is refused with nodetool's words ("Keyspace ks
// does not exist", "Unknown keyspace/cf pair (ks.t)"). `sibyl admin flush`
// runs it on every node.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeFlushesTable();

}  // namespace sibyl::schema
