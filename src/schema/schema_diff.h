#pragma once
// The SCHEMA_CHANGE events a node sends its clients when its schema moves
// from one snapshot to the next, in the order Cassandra 4.1's
// SchemaChangeNotifier sends them: for a dropped keyspace, its views, its
// tables, then its types, then the keyspace; for a created one, the
// keyspace, then its types, its tables, its views; for an altered one, what
// was dropped (views, tables, types), what was created (types, tables,
// views), then the keyspace's own parameters, altered types, tables and
// views. A materialized view is announced as a TABLE, as 4.1 does. On a
// cluster every node sends them for every change it applies, whichever node
// ran the statement.
//
// Pure: safe from any thread.

#include <vector>

#include "protocol/response.h"
#include "schema/schema.h"

namespace sibyl::schema {

[[nodiscard]] std::vector<protocol::SchemaChange> SchemaChangesBetween(const Schema& before,
                                                                       const Schema& after);

}  // namespace sibyl::schema
