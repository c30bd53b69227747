// The `system` keyspace of Cassandra 4.1 (db/SystemKeyspace.java): node-local
// tables. Every table has gc_grace_seconds 0, memtable_flush_period_in_ms one
// hour, and its description as comment.

#include <memory>

#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"

namespace sibyl::schema {
namespace {

TableBuilder SystemTable(const char* name, const char* comment) {
  TableBuilder builder(std::string(kSystemKeyspace), name);
  builder.SystemTableId().Comment(comment);
  builder.params().gc_grace_seconds = 0;
  builder.params().memtable_flush_period_in_ms = kOneHourMillis;
  return builder;
}

std::map<std::string, std::string> Compaction(const char* strategy, const char* min_threshold) {
  return {{"class", std::string("org.apache.cassandra.db.compaction.") + strategy},
          {"max_threshold", "32"},
          {"min_threshold", min_threshold}};
}

TablePtr IndexInfo() {
  return SystemTable("IndexInfo", "built column indexes")
      .PartitionKey("table_name", "text")  // the keyspace's name, despite the column's
      .Clustering("index_name", "text")
      .Column("value", "blob")
      .Build();
}

TablePtr Batches() {
  auto builder = SystemTable("batches", "batches awaiting replay");
  builder.PartitionKey("id", "timeuuid").Column("mutations", "list<blob>").Column("version", "int");
  builder.params().compaction = Compaction("SizeTieredCompactionStrategy", "2");
  return builder.Build();
}

TablePtr Paxos() {
  auto builder = SystemTable("paxos", "in-progress paxos proposals");
  builder.PartitionKey("row_key", "blob")
      .Clustering("cf_id", "uuid")
      .Column("in_progress_ballot", "timeuuid")
      .Column("in_progress_read_ballot", "timeuuid")
      .Column("most_recent_commit", "blob")
      .Column("most_recent_commit_at", "timeuuid")
      .Column("most_recent_commit_version", "int")
      .Column("proposal", "blob")
      .Column("proposal_ballot", "timeuuid")
      .Column("proposal_version", "int")
      .Index(
          {"PaxosUncommittedIndex",
           "CUSTOM",
           {{"class_name", "org.apache.cassandra.service.paxos.uncommitted.PaxosUncommittedIndex"},
            {"target", ""}},
           types::Uuid::NameBased("system.paxos.PaxosUncommittedIndex")});
  builder.params().compaction = Compaction("LeveledCompactionStrategy", "4");
  return builder.Build();
}

TablePtr PaxosRepairHistory() {
  return SystemTable("paxos_repair_history", "paxos repair history")
      .PartitionKey("keyspace_name", "text")
      .Clustering("table_name", "text")
      .Column("points", "frozen<list<tuple<blob, timeuuid>>>")
      .Build();
}

TablePtr Local() {
  return SystemTable("local", "information about the local node")
      .PartitionKey("key", "text")
      .Column("bootstrapped", "text")
      .Column("broadcast_address", "inet")
      .Column("broadcast_port", "int")
      .Column("cluster_name", "text")
      .Column("cql_version", "text")
      .Column("data_center", "text")
      .Column("gossip_generation", "int")
      .Column("host_id", "uuid")
      .Column("listen_address", "inet")
      .Column("listen_port", "int")
      .Column("native_protocol_version", "text")
      .Column("partitioner", "text")
      .Column("rack", "text")
      .Column("release_version", "text")
      .Column("rpc_address", "inet")
      .Column("rpc_port", "int")
      .Column("schema_version", "uuid")
      .Column("tokens", "set<text>")
      .Column("truncated_at", "map<uuid, blob>")
      .Build();
}

TablePtr PeersV2() {
  return SystemTable("peers_v2", "information about known peers in the cluster")
      .PartitionKey("peer", "inet")
      .Clustering("peer_port", "int")
      .Column("data_center", "text")
      .Column("host_id", "uuid")
      .Column("native_address", "inet")
      .Column("native_port", "int")
      .Column("preferred_ip", "inet")
      .Column("preferred_port", "int")
      .Column("rack", "text")
      .Column("release_version", "text")
      .Column("schema_version", "uuid")
      .Column("tokens", "set<text>")
      .Build();
}

TablePtr Peers() {
  return SystemTable("peers", "information about known peers in the cluster")
      .PartitionKey("peer", "inet")
      .Column("data_center", "text")
      .Column("host_id", "uuid")
      .Column("preferred_ip", "inet")
      .Column("rack", "text")
      .Column("release_version", "text")
      .Column("rpc_address", "inet")
      .Column("schema_version", "uuid")
      .Column("tokens", "set<text>")
      .Build();
}

TablePtr PeerEventsV2() {
  return SystemTable("peer_events_v2", "events related to peers")
      .PartitionKey("peer", "inet")
      .Clustering("peer_port", "int")
      .Column("hints_dropped", "map<timeuuid, int>")
      .Build();
}

TablePtr PeerEvents() {
  return SystemTable("peer_events", "events related to peers")
      .PartitionKey("peer", "inet")
      .Column("hints_dropped", "map<timeuuid, int>")
      .Build();
}

TablePtr CompactionHistory() {
  auto builder = SystemTable("compaction_history", "week-long compaction history");
  builder.PartitionKey("id", "timeuuid")
      .Column("bytes_in", "bigint")
      .Column("bytes_out", "bigint")
      .Column("columnfamily_name", "text")
      .Column("compacted_at", "timestamp")
      .Column("keyspace_name", "text")
      .Column("rows_merged", "map<int, bigint>");
  builder.params().default_time_to_live = kSevenDaysSeconds;
  return builder.Build();
}

TablePtr SSTableActivity() {
  return SystemTable("sstable_activity", "historic sstable read rates")
      .PartitionKey("keyspace_name", "text")
      .PartitionKey("columnfamily_name", "text")
      .PartitionKey("generation", "int")
      .Column("rate_120m", "double")
      .Column("rate_15m", "double")
      .Build();
}

TablePtr SSTableActivityV2() {
  return SystemTable("sstable_activity_v2", "historic sstable read rates")
      .PartitionKey("keyspace_name", "text")
      .PartitionKey("table_name", "text")
      .PartitionKey("id", "blob")
      .Column("rate_120m", "double")
      .Column("rate_15m", "double")
      .Build();
}

TablePtr SizeEstimates() {
  return SystemTable("size_estimates",
                     "per-table primary range size estimates, table is deprecated in favor of "
                     "table_estimates")
      .PartitionKey("keyspace_name", "text")
      .Clustering("table_name", "text")
      .Clustering("range_start", "text")
      .Clustering("range_end", "text")
      .Column("mean_partition_size", "bigint")
      .Column("partitions_count", "bigint")
      .Build();
}

TablePtr TableEstimates() {
  return SystemTable("table_estimates", "per-table range size estimates")
      .PartitionKey("keyspace_name", "text")
      .Clustering("table_name", "text")
      .Clustering("range_type", "text")
      .Clustering("range_start", "text")
      .Clustering("range_end", "text")
      .Column("mean_partition_size", "bigint")
      .Column("partitions_count", "bigint")
      .Build();
}

TablePtr AvailableRangesV2() {
  return SystemTable("available_ranges_v2",
                     "available keyspace/ranges during bootstrap/replace that are ready to be "
                     "served")
      .PartitionKey("keyspace_name", "text")
      .Column("full_ranges", "set<blob>")
      .Column("transient_ranges", "set<blob>")
      .Build();
}

TablePtr AvailableRanges() {
  return SystemTable("available_ranges",
                     "available keyspace/ranges during bootstrap/replace that are ready to be "
                     "served")
      .PartitionKey("keyspace_name", "text")
      .Column("ranges", "set<blob>")
      .Build();
}

TablePtr TransferredRangesV2() {
  return SystemTable("transferred_ranges_v2",
                     "record of transferred ranges for streaming operation")
      .PartitionKey("operation", "text")
      .PartitionKey("keyspace_name", "text")
      .Clustering("peer", "inet")
      .Clustering("peer_port", "int")
      .Column("ranges", "set<blob>")
      .Build();
}

TablePtr TransferredRanges() {
  return SystemTable("transferred_ranges", "record of transferred ranges for streaming operation")
      .PartitionKey("operation", "text")
      .PartitionKey("keyspace_name", "text")
      .Clustering("peer", "inet")
      .Column("ranges", "set<blob>")
      .Build();
}

TablePtr ViewBuildsInProgress() {
  return SystemTable("view_builds_in_progress", "views builds current progress")
      .PartitionKey("keyspace_name", "text")
      .Clustering("view_name", "text")
      .Clustering("start_token", "text")
      .Clustering("end_token", "text")
      .Column("keys_built", "bigint")
      .Column("last_token", "text")
      .Build();
}

TablePtr BuiltViews() {
  return SystemTable("built_views", "built views")
      .PartitionKey("keyspace_name", "text")
      .Clustering("view_name", "text")
      .Column("status_replicated", "boolean")
      .Build();
}

TablePtr PreparedStatements() {
  return SystemTable("prepared_statements", "prepared statements")
      .PartitionKey("prepared_id", "blob")
      .Column("logged_keyspace", "text")
      .Column("query_string", "text")
      .Build();
}

TablePtr Repairs() {
  return SystemTable("repairs", "repairs")
      .PartitionKey("parent_id", "timeuuid")
      .Column("cfids", "set<uuid>")
      .Column("coordinator", "inet")
      .Column("coordinator_port", "int")
      .Column("last_update", "timestamp")
      .Column("participants", "set<inet>")
      .Column("participants_wp", "set<text>")
      .Column("ranges", "set<blob>")
      .Column("repaired_at", "timestamp")
      .Column("started_at", "timestamp")
      .Column("state", "int")
      .Build();
}

}  // namespace

KeyspacePtr MakeSystemKeyspace() {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = std::string(kSystemKeyspace);
  keyspace->replication = {{"class", kLocalStrategy}};
  for (TablePtr table : {IndexInfo(),
                         Batches(),
                         Paxos(),
                         PaxosRepairHistory(),
                         Local(),
                         PeersV2(),
                         Peers(),
                         PeerEventsV2(),
                         PeerEvents(),
                         CompactionHistory(),
                         SSTableActivity(),
                         SSTableActivityV2(),
                         SizeEstimates(),
                         TableEstimates(),
                         AvailableRangesV2(),
                         AvailableRanges(),
                         TransferredRangesV2(),
                         TransferredRanges(),
                         ViewBuildsInProgress(),
                         BuiltViews(),
                         PreparedStatements(),
                         Repairs()}) {
    keyspace->tables.emplace(table->name, table);
  }
  return keyspace;
}

}  // namespace sibyl::schema
