#pragma once
// What the node knows about itself, as the `system.local` and `system.peers*`
// tables show it. Filled by the server at start-up from the configuration and
// the node's persisted identity; plain data so the schema layer needs nothing
// from the cluster layer.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/version.h"
#include "guardrails/disk_usage.h"
#include "storage/engine.h"
#include "types/uuid.h"

namespace sibyl::guardrails {
class Guardrails;
class ModelWarnings;
}  // namespace sibyl::guardrails

namespace sibyl::schema {

struct PeerInfo {
  std::string address;  // textual IP
  int32_t port = 7000;
  std::string native_address;
  int32_t native_port = 9042;
  std::string data_center;
  std::string rack;
  types::Uuid host_id;
  std::string release_version;
  std::vector<std::string> tokens;
  // The schema version the peer last reported (its heartbeats); nullopt
  // when not heard yet: the tables then show the local version, as every
  // member follows one metadata log.
  std::optional<types::Uuid> schema_version;
  // What this node's failure detector says of the peer now; nullopt on a
  // node that has no failure detector (yet).
  std::optional<bool> alive;
  // From the peer's last heartbeat: its gossip generation, the heartbeat's
  // counter and the bytes of live data it reported (nullopt until heard,
  // or when the peer could not measure them).
  std::optional<int64_t> generation;
  std::optional<int64_t> heartbeat_counter;
  std::optional<int64_t> load_bytes;
  // The disk usage state of its last heartbeat (nullopt until heard).
  std::optional<guardrails::DiskUsageState> disk_usage;
  // Where it stands in the ring, as gossip's STATUS names it: "NORMAL",
  // "BOOT" (joining: no system.peers row yet) or "LEAVING".
  std::string status = "NORMAL";
};

// Where the build of one secondary index stands on this node
// (index/indexing_engine.h): system."IndexInfo" and system_views.index_builds.
struct IndexBuildInfo {
  std::string keyspace;
  std::string table;
  std::string index;
  bool built = false;
  int64_t partitions_built = 0;
  std::optional<int64_t> last_token;  // the last partition indexed, while building
  std::string failure;                // why the build stopped; empty if it did not fail
};

// A materialized view's build on this node (system.built_views,
// system.view_builds_in_progress, system_views.view_builds).
struct ViewBuildInfo {
  std::string keyspace;
  std::string view;
  bool built = false;
  int64_t partitions_built = 0;
  std::optional<int64_t> last_token;  // the last base partition built, while building
  std::string failure;                // why the build stopped; empty if it did not fail
};

// A check of a materialized view against its base on this node
// (system_views.view_checks, `sibyl admin verify-view`).
struct ViewCheckInfo {
  std::string keyspace;
  std::string view;
  bool repair = false;
  int64_t checked_at_millis = 0;
  int64_t rows_expected = 0;
  int64_t missing = 0;
  int64_t unexpected = 0;
  int64_t different = 0;
  int64_t repaired = 0;
};

// The last flush of one table asked over CQL (system_views.flushes,
// `sibyl admin flush`).
struct TableFlushInfo {
  std::string keyspace;
  std::string table;
  int64_t flushed_at_millis = 0;
};

// A removenode under way on the node coordinating it (nodetool removenode
// status): the node removed, its first token, and the nodes that have not
// confirmed they hold its ranges yet ("/ip" each).
struct RemovalStatus {
  types::Uuid host;
  std::string token;
  std::vector<std::string> waiting_for;
};

struct LocalNodeInfo {
  std::string cluster_name = "Test Cluster";
  std::string listen_address = "127.0.0.1";
  int32_t listen_port = 7000;  // also reported as broadcast_port, as Cassandra does
  std::string broadcast_address = "127.0.0.1";
  std::string rpc_address = "127.0.0.1";  // the native transport's address
  int32_t rpc_port = 9042;
  std::string data_center = "datacenter1";
  std::string rack = "rack1";
  types::Uuid host_id;
  int32_t gossip_generation = 0;    // seconds since the epoch at start-up
  std::vector<std::string> tokens;  // decimal Murmur3 tokens
  std::vector<PeerInfo> peers;      // empty on a single node
  // A node of a cluster: the other members now (membership changes while
  // the node runs). Set once before serving; called from any thread.
  // Null: `peers` is the answer.
  std::function<std::vector<PeerInfo>()> current_peers;
  // The node's effective configuration as system_views.settings shows it:
  // cassandra.yaml key → value in Cassandra 4.1's text form ("16MiB",
  // "10000ms", "periodic"); nullopt for a key left unset (the value reads null).
  std::map<std::string, std::optional<std::string>> settings;
  // The bytes of live data this node holds on disk now (Cassandra's "load":
  // the tables' SSTables, not the commit log). Set once before serving;
  // called from any thread. Null, or nullopt: not known.
  std::function<std::optional<int64_t>()> load_bytes;
  // This node's disk usage state (guardrails/disk_usage.h). Set once before
  // serving; called from any thread. Null: not known.
  std::function<guardrails::DiskUsageState()> disk_usage;
  // The node's secondary index builds. Set once before serving; called from
  // any thread. Null: no index is kept (tests without an engine).
  std::function<std::vector<IndexBuildInfo>()> index_builds;
  std::function<std::vector<ViewBuildInfo>()> view_builds;
  // Checks (and with `repair`, repairs) view `keyspace.view` now; nullopt
  // when this node has no such view.
  std::function<std::optional<ViewCheckInfo>(const std::string& keyspace, const std::string& view,
                                             bool repair)>
      check_view;
  // The last check of each view.
  std::function<std::vector<ViewCheckInfo>()> view_checks;
  // The large-data ledger of this node's engine now (system_views.large_*,
  // partition_stats). Set once before serving; called from any thread.
  // Null, or a null snapshot: the node keeps none.
  std::function<std::shared_ptr<const storage::ledger::LedgerSnapshot>()> large_data;
  // The storage engine's figures now, per stored table, view and index by
  // its id (system_views.table_stats, local_read_latency, disk_usage...).
  // Set once before serving; called from any thread. Null: no engine
  // (tests of tables alone); the tables are then empty.
  std::function<storage::StorageStatistics()> storage_statistics;
  // Writes the memtables of the stored tables, views and indexes with
  // `table_ids` to SSTables and syncs the commit log, then remembers the
  // flush of `keyspace`.`table` (system_views.flushes). Throws
  // std::runtime_error when the engine fails. Null: flushing is not
  // possible on this node.
  std::function<void(const std::string& keyspace, const std::string& table,
                     const std::vector<types::Uuid>& table_ids)>
      flush_table;
  // The last flush of each table asked since the node started.
  std::function<std::vector<TableFlushInfo>()> table_flushes;
  // A node of a cluster: takes it out of the ring (system_views.decommission,
  // `sibyl admin decommission`), returning once it left; throws CqlError
  // with the refusal or the failure. `force` leaves even below a keyspace's
  // replication factor (nodetool decommission --force). Null: a single node.
  std::function<void(bool force)> decommission;
  // A node of a cluster: takes the dead member `host` out of the ring
  // (system_views.removenode, `sibyl admin removenode`), the nodes taking
  // its ranges over streaming them from the remaining replicas; returns once
  // it is out. `force`: out at once, without streaming (removenode force).
  // Throws CqlError with the refusal or the failure. Null: a single node.
  std::function<void(const types::Uuid& host, bool force)> remove_node;
  // The removal this node coordinates now, if any (removenode status).
  std::function<std::optional<RemovalStatus>()> removal;
  // Its state in the ring ("NORMAL", "JOINING", "LEAVING", ...). Null: a
  // single node, always NORMAL.
  std::function<std::string()> ring_state;
  // The node's guardrails (system_views.guardrails, system_views.settings);
  // outlives the node's statements. Null: none (tests of tables alone).
  guardrails::Guardrails* guardrails = nullptr;
  // The rules the node's clients broke (system_views.model_warnings); null: none kept.
  const guardrails::ModelWarnings* model_warnings = nullptr;

  // The other members of the cluster now, never this node.
  std::vector<PeerInfo> Peers() const { return current_peers ? current_peers() : peers; }
};

// kReleaseVersion and kCqlVersion: common/version.h.
// system.local.native_protocol_version: Cassandra writes ProtocolVersion.CURRENT, v5 since 4.0.
inline constexpr const char* kNativeProtocolVersion = "5";
inline constexpr const char* kPartitionerName = "org.apache.cassandra.dht.Murmur3Partitioner";
// system.local.bootstrapped once the node has joined (SystemKeyspace.BootstrapState).
inline constexpr const char* kBootstrapCompleted = "COMPLETED";

}  // namespace sibyl::schema
