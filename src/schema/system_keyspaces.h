#pragma once
// The keyspaces every Cassandra 4.1 node has from its first start, with
// exactly the tables, columns, key structure and table options Cassandra
// declares for them (SystemKeyspace, SchemaKeyspace, AuthKeyspace,
// SystemDistributedKeyspace, TraceKeyspace). Their table ids are derived as
// Cassandra derives them (SystemTableId), so they match a real node's.
//
// `system_schema.keyspaces` on a fresh 4.1 node lists five keyspaces:
//   system              LocalStrategy
//   system_schema       LocalStrategy
//   system_auth         SimpleStrategy, replication_factor 1
//   system_distributed  SimpleStrategy, replication_factor 3
//   system_traces       SimpleStrategy, replication_factor 2
// (the virtual keyspaces system_views and system_virtual_schema are not in
// system_schema).

#include <cstdint>
#include <string_view>

#include "schema/schema.h"
#include "schema/table_metadata.h"

namespace sibyl::schema {

inline constexpr std::string_view kSystemKeyspace = "system";
inline constexpr std::string_view kSchemaKeyspace = "system_schema";
inline constexpr std::string_view kAuthKeyspace = "system_auth";
inline constexpr std::string_view kDistributedKeyspace = "system_distributed";
inline constexpr std::string_view kTracesKeyspace = "system_traces";

inline constexpr const char* kLocalStrategy = "org.apache.cassandra.locator.LocalStrategy";
inline constexpr const char* kSimpleStrategy = "org.apache.cassandra.locator.SimpleStrategy";

// Table options the system tables share with Cassandra's.
inline constexpr int32_t kOneHourMillis = 3600 * 1000;       // memtable_flush_period_in_ms
inline constexpr int32_t kSevenDaysSeconds = 7 * 24 * 3600;  // gc_grace, default TTLs

KeyspacePtr MakeSystemKeyspace();       // system
KeyspacePtr MakeSchemaKeyspace();       // system_schema
KeyspacePtr MakeAuthKeyspace();         // system_auth
KeyspacePtr MakeDistributedKeyspace();  // system_distributed
KeyspacePtr MakeTracesKeyspace();       // system_traces

// The schema a node starts with: the five keyspaces above.
SchemaPtr MakeInitialSchema();

// True for the keyspaces that are local to a node and never replicated
// (system, system_schema): they cannot be altered or dropped by users.
bool IsLocalSystemKeyspace(std::string_view keyspace);
// True for every keyspace above.
bool IsSystemKeyspace(std::string_view keyspace);

}  // namespace sibyl::schema
