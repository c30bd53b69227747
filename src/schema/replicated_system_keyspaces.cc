// The replicated system keyspaces of Cassandra 4.1: system_auth
// (auth/AuthKeyspace.java), system_distributed
// (repair/SystemDistributedKeyspace.java) and system_traces
// (tracing/TraceKeyspace.java), with their default replication factors
// (1, 3 and 2) and the table options each declares.

#include <memory>

#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"

namespace sibyl::schema {
namespace {

constexpr int32_t kNinetyDaysSeconds = 90 * 24 * 3600;
constexpr int32_t kThirtyDaysSeconds = 30 * 24 * 3600;

KeyspacePtr MakeSimpleKeyspace(std::string_view name, const char* replication_factor,
                               std::initializer_list<TablePtr> tables) {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = std::string(name);
  keyspace->replication = {{"class", kSimpleStrategy}, {"replication_factor", replication_factor}};
  for (const TablePtr& table : tables) keyspace->tables.emplace(table->name, table);
  return keyspace;
}

// system_auth: gc_grace_seconds of 90 days.
TableBuilder AuthTable(const char* name, const char* comment) {
  TableBuilder builder(std::string(kAuthKeyspace), name);
  builder.SystemTableId().Comment(comment);
  builder.params().gc_grace_seconds = kNinetyDaysSeconds;
  return builder;
}

// system_distributed: Cassandra's defaults apart from what each table sets.
TableBuilder DistributedTable(const char* name, const char* comment) {
  TableBuilder builder(std::string(kDistributedKeyspace), name);
  builder.SystemTableId().Comment(comment);
  return builder;
}

// Repair history expires after 30 days, compacted by day windows.
void AsRepairHistory(TableBuilder& builder) {
  builder.params().default_time_to_live = kThirtyDaysSeconds;
  builder.params().compaction = {
      {"class", "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy"},
      {"compaction_window_size", "1"},
      {"compaction_window_unit", "DAYS"},
      {"max_threshold", "32"},
      {"min_threshold", "4"}};
}

// system_traces: gc_grace_seconds 0.
TableBuilder TracesTable(const char* name, const char* comment) {
  TableBuilder builder(std::string(kTracesKeyspace), name);
  builder.SystemTableId().Comment(comment);
  builder.params().gc_grace_seconds = 0;
  return builder;
}

}  // namespace

KeyspacePtr MakeAuthKeyspace() {
  return MakeSimpleKeyspace(kAuthKeyspace, "1",
                            {AuthTable("roles", "role definitions")
                                 .PartitionKey("role", "text")
                                 .Column("can_login", "boolean")
                                 .Column("is_superuser", "boolean")
                                 .Column("member_of", "set<text>")
                                 .Column("salted_hash", "text")
                                 .Build(),
                             AuthTable("role_members", "role memberships lookup table")
                                 .PartitionKey("role", "text")
                                 .Clustering("member", "text")
                                 .Build(),
                             AuthTable("role_permissions", "permissions granted to db roles")
                                 .PartitionKey("role", "text")
                                 .Clustering("resource", "text")
                                 .Column("permissions", "set<text>")
                                 .Build(),
                             // Cassandra's table name carries the misspelling.
                             AuthTable("resource_role_permissons_index",
                                       "index of db roles with permissions granted on a resource")
                                 .PartitionKey("resource", "text")
                                 .Clustering("role", "text")
                                 .Build(),
                             AuthTable("network_permissions", "user network permissions")
                                 .PartitionKey("role", "text")
                                 .Column("dcs", "frozen<set<text>>")
                                 .Build()});
}

KeyspacePtr MakeDistributedKeyspace() {
  auto repair_history = DistributedTable("repair_history", "Repair history");
  repair_history.PartitionKey("keyspace_name", "text")
      .PartitionKey("columnfamily_name", "text")
      .Clustering("id", "timeuuid")
      .Column("coordinator", "inet")
      .Column("coordinator_port", "int")
      .Column("exception_message", "text")
      .Column("exception_stacktrace", "text")
      .Column("finished_at", "timestamp")
      .Column("parent_id", "timeuuid")
      .Column("participants", "set<inet>")
      .Column("participants_v2", "set<text>")
      .Column("range_begin", "text")
      .Column("range_end", "text")
      .Column("started_at", "timestamp")
      .Column("status", "text");
  AsRepairHistory(repair_history);

  auto parent_repair_history = DistributedTable("parent_repair_history", "Repair history");
  parent_repair_history.PartitionKey("parent_id", "timeuuid")
      .Column("columnfamily_names", "set<text>")
      .Column("exception_message", "text")
      .Column("exception_stacktrace", "text")
      .Column("finished_at", "timestamp")
      .Column("keyspace_name", "text")
      .Column("options", "map<text, text>")
      .Column("requested_ranges", "set<text>")
      .Column("started_at", "timestamp")
      .Column("successful_ranges", "set<text>");
  AsRepairHistory(parent_repair_history);

  return MakeSimpleKeyspace(
      kDistributedKeyspace, "3",
      {repair_history.Build(), parent_repair_history.Build(),
       DistributedTable("view_build_status", "Materialized View build status")
           .PartitionKey("keyspace_name", "text")
           .PartitionKey("view_name", "text")
           .Clustering("host_id", "uuid")
           .Column("status", "text")
           .Build(),
       DistributedTable("partition_denylist", "Partition keys which have been denied access")
           .PartitionKey("ks_name", "text")
           .PartitionKey("table_name", "text")
           .Clustering("key", "blob")
           .Build()});
}

KeyspacePtr MakeTracesKeyspace() {
  return MakeSimpleKeyspace(kTracesKeyspace, "2",
                            {TracesTable("sessions", "tracing sessions")
                                 .PartitionKey("session_id", "uuid")
                                 .Column("client", "inet")
                                 .Column("command", "text")
                                 .Column("coordinator", "inet")
                                 .Column("coordinator_port", "int")
                                 .Column("duration", "int")
                                 .Column("parameters", "map<text, text>")
                                 .Column("request", "text")
                                 .Column("started_at", "timestamp")
                                 .Build(),
                             TracesTable("events", "tracing events")
                                 .PartitionKey("session_id", "uuid")
                                 .Clustering("event_id", "timeuuid")
                                 .Column("activity", "text")
                                 .Column("source", "inet")
                                 .Column("source_elapsed", "int")
                                 .Column("source_port", "int")
                                 .Column("thread", "text")
                                 .Build()});
}

}  // namespace sibyl::schema
