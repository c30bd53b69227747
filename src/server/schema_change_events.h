#pragma once
// The one place SCHEMA_CHANGE events come from, on a single node and on a
// cluster alike: every schema change the node's MetadataStore publishes —
// made by a statement on this node or, on a cluster, on any node — goes to
// the clients registered for them, as Cassandra 4.1's SchemaChangeNotifier
// tells them: one event per keyspace, type and table that changed
// (schema/schema_diff.h), so DROP KEYSPACE also sends DROPPED TABLE for each
// of its tables and views. Sent once the change is published, so that a
// driver reading system_schema at once finds it.

#include "schema/metadata_store.h"
#include "server/event_bus.h"

namespace sibyl::server {

// REQUIRES: `events` outlives the store, or the store stops publishing first.
void PublishSchemaChanges(schema::MetadataStore& store, EventBus& events);

}  // namespace sibyl::server
