#pragma once
// The virtual keyspaces of a Cassandra 4.1 node, as far as Sibyl can fill
// their tables truthfully from live state:
//
//   system_virtual_schema (VirtualSchemaKeyspace)
//     keyspaces  keyspace_name text PRIMARY KEY                  "virtual keyspace definitions"
//     tables     ((keyspace_name), table_name), comment text     "virtual table definitions"
//     columns    ((keyspace_name), table_name, column_name),
//                clustering_order text, column_name_bytes blob, kind text,
//                position int, type text                         "virtual column definitions"
//   system_views (SystemViewsKeyspace)
//     settings   name text PRIMARY KEY, value text               "current settings"
//     gossip_info  ((address inet), port int), hostname, generation, heartbeat,
//                liveness, load, schema, dc, rack, release_version, host_id,
//                internal_address_and_port, native_address_and_port, tokens
//                                                 "lists the gossip information for the cluster"
//                (one row per member as the node answering sees it; gossip_info_table.h)
//
// 4.1's other system_views tables (metrics, caches, clients, thread pools...)
// are left out: Sibyl has nothing true to put in them yet, and a table that
// is listed must answer.
//
// As in Cassandra (Schema.getKeyspaceMetadata falls back to the
// VirtualKeyspaceRegistry), Schema::FindKeyspace and Schema::FindTable find
// these keyspaces, so SELECT and USE reach them; Schema::keyspaces() and thus
// system_schema and the schema version never include them.
//
// Thread-safety: built once on first use, then immutable.

#include <string_view>

#include "schema/schema.h"

namespace sibyl::schema {

inline constexpr std::string_view kViewsKeyspace = "system_views";
inline constexpr std::string_view kVirtualSchemaKeyspace = "system_virtual_schema";

// Both virtual keyspaces, by name, each marked is_virtual with its tables
// (also marked is_virtual; ids as Cassandra derives them for virtual tables).
const Schema::KeyspaceMap& VirtualKeyspaces();

// The virtual keyspace called `name`, or nullptr.
const KeyspaceMetadata* FindVirtualKeyspace(std::string_view name);

// SchemaConstants.isVirtualSystemKeyspace: system_views or system_virtual_schema,
// compared case-insensitively as Cassandra does (so "System_Views" counts).
// Cassandra 4.1's isLocalSystemKeyspace and isSystemKeyspace include these too.
bool IsVirtualKeyspace(std::string_view name);

}  // namespace sibyl::schema
