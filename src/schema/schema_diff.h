#pragma once
// The SCHEMA_CHANGE events a node sends its clients when its schema moves
// from one snapshot to the next, in the order Cassandra 4.1's
// SchemaChangeNotifier sends them: for a dropped keyspace, its tables,
// then its types, then the keyspace; for a created one, the keyspace, then
// its types, then its tables; for an altered one, what was dropped (tables,
// types), what was created (types, tables), then the keyspace's own
// parameters, altered types and tables. On a cluster every node sends them
// for every change it applies, whichever node ran the statement.
//
// Pure: safe from any thread.

#include <vector>

#include "protocol/response.h"
#include "schema/schema.h"

namespace sibyl::schema {

[[nodiscard]] std::vector<protocol::SchemaChange> SchemaChangesBetween(const Schema& before,
                                                                       const Schema& after);

}  // namespace sibyl::schema
