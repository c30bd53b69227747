#pragma once
// Node configuration. Keys and value formats are cassandra.yaml's (Cassandra
// 4.1: sizes like "16MiB", durations like "10000ms", and the older
// "_in_mb"/"_in_ms" spellings), read from a YAML file and overridden by
// command-line flags of the same name with '-' for '_'
// (--native-transport-port 9043).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sibyl::server {

enum class CommitlogSync { kPeriodic, kBatch, kGroup };
// cassandra.yaml's paxos_variant (cluster::PaxosVariant says what each does).
enum class PaxosVariantSetting { kV1, kV2 };

struct Config {
  std::string cluster_name = "Test Cluster";
  // Address for other nodes; also the native transport's address unless
  // rpc_address is set.
  std::string listen_address = "127.0.0.1";
  std::string rpc_address;            // default: listen_address
  std::string broadcast_address;      // default: listen_address
  std::string broadcast_rpc_address;  // default: rpc_address
  int32_t storage_port = 7000;
  int32_t native_transport_port = 9042;
  // Largest request envelope accepted. Default: 16MiB (Cassandra 4.1).
  uint64_t native_transport_max_frame_size = 16 * 1024 * 1024;
  int32_t native_transport_max_concurrent_connections = -1;  // -1: unlimited
  std::vector<std::filesystem::path> data_file_directories{"sibyl-data"};
  std::filesystem::path commitlog_directory;  // default: <first data dir>/commitlog
  CommitlogSync commitlog_sync = CommitlogSync::kPeriodic;
  std::chrono::milliseconds commitlog_sync_period{10000};
  // Set when the file or a flag gives commitlog_sync_period: Cassandra refuses
  // a period with batch or group sync (the 10000ms default is cassandra.yaml's,
  // which a batch/group configuration comments out).
  bool commitlog_sync_period_given = false;
  // Cassandra 4.1's default is 0ms, which `commitlog_sync: group` refuses:
  // group mode needs the window given.
  std::chrono::milliseconds commitlog_sync_group_window{0};
  int32_t num_tokens = 16;
  std::string partitioner = "org.apache.cassandra.dht.Murmur3Partitioner";
  std::string endpoint_snitch = "SimpleSnitch";
  // Sibyl's own keys: where SimpleSnitch's fixed answers come from, and how
  // many reactor threads serve connections (0: one per core).
  std::string datacenter = "datacenter1";
  std::string rack = "rack1";
  int32_t reactor_threads = 0;
  // A read that goes over more tombstones than these warns the client, or
  // fails (ReadFailure). -1 disables either (Cassandra 4.1's defaults).
  int32_t tombstone_warn_threshold = 1000;
  int32_t tombstone_failure_threshold = 100000;
  // Materialized views: cassandra.yaml's materialized_views_enabled (4.0's
  // enable_materialized_views), true in Sibyl where 4.1 says false; and
  // Sibyl's materialized_views_strict_primary_key_selection (true: a view
  // PRIMARY KEY column must be SELECTed, as in 4.1; false: it is added).
  bool materialized_views_enabled = true;
  bool materialized_views_strict_primary_key_selection = false;
  // Sibyl's view_outbox_max_pending: on a ring, the view updates waiting
  // for a remote view replica beyond which writes to tables with views wait,
  // then fail (index/indexing_engine.h's back-pressure). Cassandra has no
  // such queue: its base replica waits for the view replica's reply.
  int32_t view_outbox_max_pending = 10000;
  // The guardrail keys given (docs/guardrails.md: every guardrail key of
  // Cassandra 4.1 and 5.0, and Sibyl's), in the order given: the node
  // applies them together over Sibyl's defaults (guardrails/guardrails.h).
  std::vector<std::pair<std::string, std::string>> guardrails;

  // Sibyl's keys for the disk usage guardrails (docs/guardrails.md): how
  // often the data directory's usage is measured, and how often the same
  // disk usage warning is told at most (Cassandra's system properties
  // cassandra.disk_usage.monitor_interval_ms and .notify_interval_ms).
  std::chrono::milliseconds disk_usage_monitor_interval{30000};
  std::chrono::milliseconds disk_usage_notify_interval{std::chrono::minutes(30)};

  // The cluster (docs/cluster.md). seed_provider's seeds, "host[:port]":
  // nodes a starting node greets first; membership itself lives in the
  // metadata store.
  std::string seed_provider_class = "org.apache.cassandra.locator.SimpleSeedProvider";
  std::vector<std::string> seeds{"127.0.0.1:7000"};
  // Where membership, tokens and schema are kept: "local" (the node's own
  // store: a cluster of one, no other process) or "etcd" (etcd_endpoints).
  std::string metadata_store = "local";
  std::vector<std::string> etcd_endpoints{"http://127.0.0.1:2379"};
  // GossipingPropertyFileSnitch's file; default: cassandra-rackdc.properties
  // beside the --config file, else in the working directory.
  std::filesystem::path rackdc_properties;
  // How long a coordinator waits for replicas (Cassandra 4.1's defaults).
  std::chrono::milliseconds read_request_timeout{5000};
  std::chrono::milliseconds range_request_timeout{10000};
  std::chrono::milliseconds write_request_timeout{2000};
  std::chrono::milliseconds counter_write_request_timeout{5000};
  std::chrono::milliseconds cas_contention_timeout{1000};
  // Cassandra 4.1 defaults to v1; v2 is ours (docs/dev/paxos.md says why).
  PaxosVariantSetting paxos_variant = PaxosVariantSetting::kV2;
  std::chrono::milliseconds truncate_request_timeout{60000};
  std::chrono::milliseconds request_timeout{10000};
  // Hinted handoff: writes for a replica that is down or does not answer are
  // kept (for at most max_hint_window of its downtime) and replayed when it
  // returns, at most hinted_handoff_throttle bytes per second.
  bool hinted_handoff_enabled = true;
  // Topology changes (docs/cluster.md): whether a new node streams its
  // ranges before it serves, and how fast this node streams to others
  // (bytes per second; 0: unthrottled).
  bool auto_bootstrap = true;
  uint64_t stream_throughput_outbound = 24 * 1024 * 1024;
  std::chrono::milliseconds max_hint_window{std::chrono::hours(3)};
  uint64_t hinted_handoff_throttle = 1024 * 1024;
  int32_t max_hints_delivery_threads = 2;
  std::filesystem::path hints_directory;  // default: <first data dir>/hints
  // Threads that execute statements when replicas may be remote (a node of a
  // cluster); a single node executes them on its reactor threads.
  int32_t native_transport_max_threads = 128;
  // The Prometheus metrics endpoint (docs/metrics.md), Sibyl's own keys:
  // Cassandra exposes its metrics over JMX instead.
  bool prometheus_enabled = true;
  std::string prometheus_address;  // default: listen_address
  int32_t prometheus_port = 9180;

  const std::filesystem::path& data_dir() const { return data_file_directories.front(); }
  std::string native_address() const { return rpc_address.empty() ? listen_address : rpc_address; }
  std::string metrics_address() const {
    return prometheus_address.empty() ? listen_address : prometheus_address;
  }
  std::filesystem::path hints_dir() const {
    return hints_directory.empty() ? data_dir() / "hints" : hints_directory;
  }
  // The directory of the --config file (empty without one): where
  // GossipingPropertyFileSnitch looks for cassandra-rackdc.properties.
  std::filesystem::path config_directory;
};

// A configuration problem, with a one-line message naming the key.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Applies one key with its textual value (from a flag). Throws ConfigError
// for an unknown key or a bad value.
void SetConfigValue(Config& config, const std::string& key, const std::string& value);

// Reads a cassandra.yaml-style file over `config`. Throws ConfigError.
// Returns warnings (ignored Cassandra keys) for the log.
std::vector<std::string> LoadConfigFile(Config& config, const std::filesystem::path& file);

// Checks relations between keys (addresses parse, ports in range, ...).
// Throws ConfigError.
void ValidateConfig(const Config& config);

// One line per key for `sibyl start --help`: "  --native-transport-port N  ...".
std::string DescribeConfigKeys();

}  // namespace sibyl::server
