#include "server/config_keys.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>

#include "common/config_values.h"
#include "locator/locator_class_name.h"

namespace sibyl::server {
namespace {

[[noreturn]] void BadValue(const std::string& key, const std::string& value,
                           const std::string& why) {
  throw ConfigError("Invalid value '" + value + "' for " + key + ": " + why);
}

int64_t ParseInteger(const std::string& key, const std::string& value, int64_t min, int64_t max) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size()) {
    BadValue(key, value, "not an integer");
  }
  if (v < min || v > max) {
    BadValue(key, value, "must be between " + std::to_string(min) + " and " + std::to_string(max));
  }
  return v;
}

// Splits "16MiB" into (16, "MiB").
std::pair<uint64_t, std::string> SplitQuantity(const std::string& key, const std::string& value) {
  size_t digits = 0;
  while (digits < value.size() && std::isdigit(static_cast<unsigned char>(value[digits]))) ++digits;
  if (digits == 0) BadValue(key, value, "expected a number followed by a unit");
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + digits, n);
  if (ec != std::errc()) BadValue(key, value, "number out of range");
  return {n, value.substr(digits)};
}

// Cassandra 4.1 data storage: B, KiB, MiB, GiB.
uint64_t ParseDataStorage(const std::string& key, const std::string& value) {
  auto [n, unit] = SplitQuantity(key, value);
  const std::optional<uint64_t> unit_bytes = DataStorageUnitBytes(unit);
  if (!unit_bytes) BadValue(key, value, "accepted units are B, KiB, MiB, GiB");
  if (n > UINT64_MAX / *unit_bytes) BadValue(key, value, "too large");
  return n * *unit_bytes;
}

// Cassandra 4.1 data rates: B/s, KiB/s, MiB/s.
uint64_t ParseDataRate(const std::string& key, const std::string& value) {
  auto [n, unit] = SplitQuantity(key, value);
  uint64_t unit_bytes = 0;
  if (unit == "B/s") unit_bytes = 1;
  if (unit == "KiB/s") unit_bytes = 1024;
  if (unit == "MiB/s") unit_bytes = 1024 * 1024;
  if (unit_bytes == 0) BadValue(key, value, "accepted units are B/s, KiB/s, MiB/s");
  if (n > UINT64_MAX / unit_bytes) BadValue(key, value, "too large");
  return n * unit_bytes;
}

void StreamThroughput(Config& c, const std::string& k, const std::string& v) {
  c.stream_throughput_outbound = ParseDataRate(k, v);
}

void StreamThroughputMegabits(Config& c, const std::string& k, const std::string& v) {
  c.stream_throughput_outbound = static_cast<uint64_t>(ParseInteger(k, v, 0, INT32_MAX)) * 125'000;
}

// Cassandra 4.1 durations: ns, us, µs, ms, s, m, h, d.
std::chrono::milliseconds ParseDuration(const std::string& key, const std::string& value) {
  auto [n, unit] = SplitQuantity(key, value);
  using namespace std::chrono;
  if (unit == "ms") return milliseconds(n);
  if (unit == "s") return seconds(n);
  if (unit == "m") return minutes(n);
  if (unit == "h") return hours(n);
  if (unit == "d") return hours(24 * n);
  if (unit == "us" || unit == "µs") return duration_cast<milliseconds>(microseconds(n));
  if (unit == "ns") return duration_cast<milliseconds>(nanoseconds(n));
  BadValue(key, value, "accepted units are ns, us, ms, s, m, h, d");
}

// A comma-separated list, items trimmed, empty items dropped.
std::vector<std::string> SplitList(const std::string& value) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = std::min(value.find(',', start), value.size());
    std::string item = value.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) items.push_back(item);
    start = comma + 1;
  }
  return items;
}

// Setters of one field, by kind of value.

template <std::string Config::*field>
void Text(Config& c, const std::string&, const std::string& v) {
  c.*field = v;
}

template <std::filesystem::path Config::*field>
void Path(Config& c, const std::string& k, const std::string& v) {
  if (v.empty()) BadValue(k, v, "empty path");
  c.*field = v;
}

template <std::string Config::*field>
void Address(Config& c, const std::string& k, const std::string& v) {
  in_addr v4;
  in6_addr v6;
  if (inet_pton(AF_INET, v.c_str(), &v4) != 1 && inet_pton(AF_INET6, v.c_str(), &v6) != 1) {
    BadValue(k, v, "not an IPv4 or IPv6 address");
  }
  c.*field = v;
}

template <int32_t Config::*field, int64_t min, int64_t max>
void Int(Config& c, const std::string& k, const std::string& v) {
  c.*field = static_cast<int32_t>(ParseInteger(k, v, min, max));
}

// A duration in Cassandra 4.1's spelling ("2000ms", "2s").
template <std::chrono::milliseconds Config::*field>
void Duration(Config& c, const std::string& k, const std::string& v) {
  c.*field = ParseDuration(k, v);
}

// The older `name_in_ms` spelling: an integer of milliseconds.
template <std::chrono::milliseconds Config::*field>
void Milliseconds(Config& c, const std::string& k, const std::string& v) {
  c.*field = std::chrono::milliseconds(ParseInteger(k, v, 0, INT32_MAX));
}

template <bool Config::*field>
void Bool(Config& c, const std::string& k, const std::string& v) {
  const std::optional<bool> parsed = ParseYamlBoolean(v);
  if (!parsed) BadValue(k, v, "expected true or false");
  c.*field = *parsed;
}

// Setters of keys with rules of their own.

constexpr uint64_t kMaxFrameSizeLimit = 256ull * 1024 * 1024;

void SetMaxFrameSize(Config& c, const std::string& key, uint64_t bytes, const std::string& v) {
  // Cassandra caps native_transport_max_frame_size below 256MiB.
  if (bytes < 1024 || bytes >= kMaxFrameSizeLimit) {
    BadValue(key, v, "must be at least 1KiB and less than 256MiB");
  }
  c.native_transport_max_frame_size = bytes;
}

void MaxFrameSize(Config& c, const std::string& k, const std::string& v) {
  SetMaxFrameSize(c, k, ParseDataStorage(k, v), v);
}

void MaxFrameSizeInMb(Config& c, const std::string& k, const std::string& v) {
  SetMaxFrameSize(c, k, static_cast<uint64_t>(ParseInteger(k, v, 1, 255)) << 20, v);
}

void DataFileDirectory(Config& c, const std::string& k, const std::string& v) {
  if (v.empty()) BadValue(k, v, "empty path");
  c.data_file_directories = {v};
}

void CommitlogSyncMode(Config& c, const std::string& k, const std::string& v) {
  if (v == "periodic") {
    c.commitlog_sync = CommitlogSync::kPeriodic;
  } else if (v == "batch") {
    c.commitlog_sync = CommitlogSync::kBatch;
  } else if (v == "group") {
    c.commitlog_sync = CommitlogSync::kGroup;
  } else {
    BadValue(k, v, "expected periodic, batch or group");
  }
}

void PaxosVariantMode(Config& c, const std::string& k, const std::string& v) {
  if (v == "v1") {
    c.paxos_variant = PaxosVariantSetting::kV1;
  } else if (v == "v2") {
    c.paxos_variant = PaxosVariantSetting::kV2;
  } else {
    BadValue(k, v,
             "expected v1 or v2 (the _without_linearizable_reads_or_rejected_writes variants are "
             "not implemented)");
  }
}

// Cassandra refuses a period with batch or group sync: ValidateConfig needs
// to know it was given.
void CommitlogSyncPeriod(Config& c, const std::string& k, const std::string& v) {
  Duration<&Config::commitlog_sync_period>(c, k, v);
  c.commitlog_sync_period_given = true;
}

void CommitlogSyncPeriodInMs(Config& c, const std::string& k, const std::string& v) {
  Milliseconds<&Config::commitlog_sync_period>(c, k, v);
  c.commitlog_sync_period_given = true;
}

void Partitioner(Config& c, const std::string& k, const std::string& v) {
  if (v != "org.apache.cassandra.dht.Murmur3Partitioner" && v != "Murmur3Partitioner") {
    BadValue(k, v, "Sibyl supports only org.apache.cassandra.dht.Murmur3Partitioner");
  }
  c.partitioner = "org.apache.cassandra.dht.Murmur3Partitioner";
}

void EndpointSnitch(Config& c, const std::string& k, const std::string& v) {
  const std::string_view member = locator::LocatorPackageMember(v);
  const std::string name = member.empty() ? v : std::string(member);
  if (name != "SimpleSnitch" && name != "GossipingPropertyFileSnitch") {
    BadValue(k, v, "Sibyl supports SimpleSnitch and GossipingPropertyFileSnitch");
  }
  c.endpoint_snitch = name;
}

void Seeds(Config& c, const std::string& k, const std::string& v) {
  std::vector<std::string> seeds = SplitList(v);
  if (seeds.empty()) BadValue(k, v, "no seed given");
  c.seeds = std::move(seeds);
}

void MetadataStoreKind(Config& c, const std::string& k, const std::string& v) {
  if (v != "local" && v != "etcd") BadValue(k, v, "expected local or etcd");
  c.metadata_store = v;
}

void EtcdEndpoints(Config& c, const std::string& k, const std::string& v) {
  std::vector<std::string> endpoints = SplitList(v);
  if (endpoints.empty()) BadValue(k, v, "no endpoint given");
  for (const std::string& endpoint : endpoints) {
    if (endpoint.rfind("http://", 0) != 0) BadValue(k, v, "each endpoint must be an http:// URL");
  }
  c.etcd_endpoints = std::move(endpoints);
}

void HintedHandoffThrottle(Config& c, const std::string& k, const std::string& v) {
  c.hinted_handoff_throttle = ParseDataStorage(k, v);
}

void HintedHandoffThrottleInKb(Config& c, const std::string& k, const std::string& v) {
  c.hinted_handoff_throttle = static_cast<uint64_t>(ParseInteger(k, v, 0, INT32_MAX)) << 10;
}

constexpr std::string_view kInMs = "the same in ms (older spelling)";

// Every key Sibyl sets. Durations come in both of Cassandra 4.1's
// spellings: `name` ("2000ms") and the older `name_in_ms`.
const ConfigKey kConfigKeys[] = {
    {"cluster_name", "NAME", "name of the cluster (default: Test Cluster)",
     Text<&Config::cluster_name>},
    {"listen_address", "ADDR", "address of this node (default: 127.0.0.1)",
     Address<&Config::listen_address>},
    {"rpc_address", "ADDR", "address for CQL clients (default: listen_address)",
     Address<&Config::rpc_address>},
    {"native_transport_address", "ADDR", "same as rpc_address", Address<&Config::rpc_address>},
    {"broadcast_address", "ADDR", "address other nodes are told (default: listen_address)",
     Address<&Config::broadcast_address>},
    {"broadcast_rpc_address", "ADDR", "address clients are told (default: rpc_address)",
     Address<&Config::broadcast_rpc_address>},
    {"storage_port", "PORT", "inter-node port (default: 7000)",
     Int<&Config::storage_port, 1, 65535>},
    {"native_transport_port", "PORT", "CQL port (default: 9042)",
     Int<&Config::native_transport_port, 0, 65535>},
    {"native_transport_max_frame_size", "SIZE",
     "largest request accepted, e.g. 16MiB (default: 16MiB)", MaxFrameSize},
    {"native_transport_max_frame_size_in_mb", "N", "the same in MiB (older spelling)",
     MaxFrameSizeInMb},
    {"native_transport_max_concurrent_connections", "N",
     "connection limit, -1 for none (default: -1)",
     Int<&Config::native_transport_max_concurrent_connections, -1, INT32_MAX>},
    {"data_file_directories", "DIR", "data directory (default: ./sibyl-data); in YAML a list",
     DataFileDirectory},
    {"data_dir", "DIR", "same as data_file_directories", nullptr},
    {"commitlog_directory", "DIR", "commit log directory (default: <data dir>/commitlog)",
     Path<&Config::commitlog_directory>},
    {"commitlog_sync", "MODE", "periodic, batch or group (default: periodic)", CommitlogSyncMode},
    {"commitlog_sync_period", "DURATION", "periodic fsync interval (default: 10000ms)",
     CommitlogSyncPeriod},
    {"commitlog_sync_period_in_ms", "N", kInMs, CommitlogSyncPeriodInMs},
    {"commitlog_sync_group_window", "DURATION",
     "group fsync window (default: 0ms; group mode needs one)",
     Duration<&Config::commitlog_sync_group_window>},
    {"commitlog_sync_group_window_in_ms", "N", kInMs,
     Milliseconds<&Config::commitlog_sync_group_window>},
    {"num_tokens", "N", "tokens (vnodes) this node owns (default: 16)",
     Int<&Config::num_tokens, 1, 1536>},
    {"partitioner", "CLASS", "only Murmur3Partitioner", Partitioner},
    {"endpoint_snitch", "CLASS",
     "SimpleSnitch (datacenter and rack from the keys below) or "
     "GossipingPropertyFileSnitch (from cassandra-rackdc.properties)",
     EndpointSnitch},
    {"rackdc_properties", "FILE",
     "GossipingPropertyFileSnitch's file (default: cassandra-rackdc.properties beside "
     "--config)",
     Path<&Config::rackdc_properties>},
    {"seeds", "HOSTS",
     "seed_provider's seeds, comma-separated host[:port] (default: 127.0.0.1:7000)", Seeds},
    {"metadata_store", "KIND",
     "where membership and schema are kept: local (a single node) or etcd "
     "(default: local)",
     MetadataStoreKind},
    {"etcd_endpoints", "URLS",
     "etcd's client URLs, comma-separated (default: http://127.0.0.1:2379)", EtcdEndpoints},
    {"hinted_handoff_enabled", "BOOL", "keep writes for replicas that are down (default: true)",
     Bool<&Config::hinted_handoff_enabled>},
    {"auto_bootstrap", "BOOL",
     "a node joining a ring that holds user keyspaces streams its ranges first (default: true)",
     Bool<&Config::auto_bootstrap>},
    {"stream_throughput_outbound", "RATE",
     "the bytes per second this node streams to others, 0 unthrottled (default: 24MiB/s)",
     StreamThroughput},
    {"stream_throughput_outbound_megabits_per_sec", "N", "the same in megabits (older spelling)",
     StreamThroughputMegabits},
    {"hinted_handoff_throttle", "SIZE", "hint replay rate per second (default: 1024KiB)",
     HintedHandoffThrottle},
    {"hinted_handoff_throttle_in_kb", "N", "the same in KiB (older spelling)",
     HintedHandoffThrottleInKb},
    {"max_hints_delivery_threads", "N", "threads replaying hints (default: 2)",
     Int<&Config::max_hints_delivery_threads, 1, 64>},
    {"hints_directory", "DIR", "where hints are kept (default: <data dir>/hints)",
     Path<&Config::hints_directory>},
    {"native_transport_max_threads", "N",
     "threads executing statements on a node of a cluster (default: 128)",
     Int<&Config::native_transport_max_threads, 1, 4096>},
    {"prometheus_enabled", "BOOL",
     "serve Prometheus metrics over HTTP at /metrics (default: true; Sibyl's key)",
     Bool<&Config::prometheus_enabled>},
    {"prometheus_address", "ADDR",
     "address of the metrics endpoint (default: listen_address; Sibyl's key)",
     Address<&Config::prometheus_address>},
    {"prometheus_port", "PORT", "port of the metrics endpoint (default: 9180; Sibyl's key)",
     Int<&Config::prometheus_port, 0, 65535>},
    {"datacenter", "NAME", "data center this node reports (default: datacenter1)",
     Text<&Config::datacenter>},
    {"rack", "NAME", "rack this node reports (default: rack1)", Text<&Config::rack>},
    {"tombstone_warn_threshold", "N",
     "tombstones a read may go over before the client is warned, -1: never "
     "(default: 1000)",
     Int<&Config::tombstone_warn_threshold, -1, INT32_MAX>},
    {"tombstone_failure_threshold", "N",
     "tombstones a read may go over before it fails, -1: never (default: 100000)",
     Int<&Config::tombstone_failure_threshold, -1, INT32_MAX>},
    {"materialized_views_enabled", "BOOL",
     "allow CREATE MATERIALIZED VIEW (default: true; Cassandra 4.1's default is false)",
     Bool<&Config::materialized_views_enabled>},
    {"enable_materialized_views", "BOOL", "the same (Cassandra 4.0's name)",
     Bool<&Config::materialized_views_enabled>},
    {"materialized_views_strict_primary_key_selection", "BOOL",
     "refuse a view PRIMARY KEY column that is not SELECTed, as Cassandra 4.1 does; "
     "false adds it to the selection (default: false)",
     Bool<&Config::materialized_views_strict_primary_key_selection>},
    {"view_outbox_max_pending", "N",
     "view updates waiting for their remote view replicas beyond which writes to tables "
     "with views wait, then fail (default: 10000)",
     Int<&Config::view_outbox_max_pending, 1, INT32_MAX>},
    {"reactor_threads", "N", "threads serving connections, 0 = one per core (default: 0)",
     Int<&Config::reactor_threads, 0, 256>},
    {"read_request_timeout", "DURATION",
     "how long a coordinator waits for a read (default: 5000ms)",
     Duration<&Config::read_request_timeout>},
    {"read_request_timeout_in_ms", "N", kInMs, Milliseconds<&Config::read_request_timeout>},
    {"range_request_timeout", "DURATION",
     "how long a coordinator waits for a range read (default: 10000ms)",
     Duration<&Config::range_request_timeout>},
    {"range_request_timeout_in_ms", "N", kInMs, Milliseconds<&Config::range_request_timeout>},
    {"write_request_timeout", "DURATION",
     "how long a coordinator waits for a write (default: 2000ms)",
     Duration<&Config::write_request_timeout>},
    {"write_request_timeout_in_ms", "N", kInMs, Milliseconds<&Config::write_request_timeout>},
    {"counter_write_request_timeout", "DURATION",
     "how long a coordinator waits for a counter write (default: 5000ms)",
     Duration<&Config::counter_write_request_timeout>},
    {"counter_write_request_timeout_in_ms", "N", kInMs,
     Milliseconds<&Config::counter_write_request_timeout>},
    {"cas_contention_timeout", "DURATION",
     "how long a lightweight transaction may contend (default: 1000ms)",
     Duration<&Config::cas_contention_timeout>},
    {"cas_contention_timeout_in_ms", "N", kInMs, Milliseconds<&Config::cas_contention_timeout>},
    {"paxos_variant", "VARIANT",
     "v1 (Cassandra's classic Paxos rounds) or v2 (the read carried by the prepare; default: v2)",
     PaxosVariantMode},
    {"truncate_request_timeout", "DURATION",
     "how long a coordinator waits for a truncation (default: 60000ms)",
     Duration<&Config::truncate_request_timeout>},
    {"truncate_request_timeout_in_ms", "N", kInMs, Milliseconds<&Config::truncate_request_timeout>},
    {"request_timeout", "DURATION",
     "how long a coordinator waits for other requests (default: 10000ms)",
     Duration<&Config::request_timeout>},
    {"request_timeout_in_ms", "N", kInMs, Milliseconds<&Config::request_timeout>},
    {"max_hint_window", "DURATION",
     "longest downtime of a replica for which hints are kept (default: 3h)",
     Duration<&Config::max_hint_window>},
    {"max_hint_window_in_ms", "N", kInMs, Milliseconds<&Config::max_hint_window>},
    {"disk_usage_monitor_interval", "DURATION",
     "how often the data directory's usage is measured for the disk usage "
     "guardrails (default: 30s; Sibyl's key)",
     Duration<&Config::disk_usage_monitor_interval>},
    {"disk_usage_notify_interval", "DURATION",
     "the disk usage guardrails log and warn clients at most once per this "
     "(default: 30m; 0ms: every time; Sibyl's key)",
     Duration<&Config::disk_usage_notify_interval>},
};

// Tuning knobs of Cassandra's own thread pools, caches and background
// machinery, present in the stock cassandra.yaml. Keys whose being ignored
// would leave a node less protected than asked are not here: they are
// security_settings.h's.
const std::string_view kIgnoredCassandraKeys[] = {
    "hints_flush_period",
    "hints_flush_period_in_ms",
    "max_hints_file_size",
    "max_hints_file_size_in_mb",
    "batchlog_replay_throttle",
    "batchlog_replay_throttle_in_kb",
    "roles_validity",
    "roles_validity_in_ms",
    "permissions_validity",
    "permissions_validity_in_ms",
    "credentials_validity",
    "credentials_validity_in_ms",
    "cdc_enabled",
    "disk_failure_policy",
    "commit_failure_policy",
    "prepared_statements_cache_size",
    "key_cache_size",
    "key_cache_size_in_mb",
    "key_cache_save_period",
    "row_cache_size",
    "row_cache_size_in_mb",
    "row_cache_save_period",
    "counter_cache_size",
    "counter_cache_size_in_mb",
    "counter_cache_save_period",
    "saved_caches_directory",
    "commitlog_segment_size",
    "commitlog_segment_size_in_mb",
    "concurrent_reads",
    "concurrent_writes",
    "concurrent_counter_writes",
    "concurrent_materialized_view_writes",
    "memtable_allocation_type",
    "memtable_heap_space",
    "memtable_offheap_space",
    "index_summary_capacity",
    "index_summary_resize_interval",
    "trickle_fsync",
    "trickle_fsync_interval",
    "ssl_storage_port",
    "start_native_transport",
    "native_transport_allow_older_protocols",
    "column_index_size",
    "column_index_size_in_kb",
    "column_index_cache_size",
    "concurrent_compactors",
    "compaction_throughput",
    "compaction_throughput_mb_per_sec",
    "sstable_preemptive_open_interval",
    "slow_query_log_timeout",
    "dynamic_snitch_update_interval",
    "dynamic_snitch_reset_interval",
    "dynamic_snitch_badness_threshold",
    "internode_compression",
    "inter_dc_tcp_nodelay",
    "trace_type_query_ttl",
    "trace_type_repair_ttl",
    "user_defined_functions_enabled",
    "scripted_user_defined_functions_enabled",
    "batch_size_warn_threshold",
    "batch_size_warn_threshold_in_kb",
    "batch_size_fail_threshold",
    "batch_size_fail_threshold_in_kb",
    "unlogged_batch_across_partitions_warn_threshold",
    "gc_warn_threshold",
    "gc_warn_threshold_in_ms",
    "gc_log_threshold",
    "gc_log_threshold_in_ms",
    "sasi_indexes_enabled",
    "transient_replication_enabled",
    "drop_compact_storage_enabled",
    "auto_snapshot",
    "snapshot_links_per_second",
    "snapshot_before_compaction",
    "incremental_backups",
    "auto_bootstrap",
    "allocate_tokens_for_local_replication_factor",
    "rpc_keepalive",
    "listen_on_broadcast_address",
    "diagnostic_events_enabled",
    "repaired_data_tracking_for_range_reads_enabled",
    "repaired_data_tracking_for_partition_reads_enabled",
    "report_unconfirmed_repaired_data_mismatches",
    "full_query_logging_options",
    "cdc_raw_directory",
    "native_transport_idle_timeout",
    "native_transport_idle_timeout_in_ms",
};

}  // namespace

const std::vector<const ConfigKey*>& ConfigKeysByName() {
  static const std::vector<const ConfigKey*> sorted = [] {
    std::vector<const ConfigKey*> keys;
    for (const ConfigKey& key : kConfigKeys) keys.push_back(&key);
    std::sort(keys.begin(), keys.end(),
              [](const ConfigKey* a, const ConfigKey* b) { return a->name < b->name; });
    return keys;
  }();
  return sorted;
}

const ConfigKey* FindConfigKey(std::string_view name) {
  const std::vector<const ConfigKey*>& keys = ConfigKeysByName();
  auto it =
      std::lower_bound(keys.begin(), keys.end(), name,
                       [](const ConfigKey* key, std::string_view n) { return key->name < n; });
  return it != keys.end() && (*it)->name == name ? *it : nullptr;
}

bool IsIgnoredCassandraKey(const std::string& key) {
  return std::find(std::begin(kIgnoredCassandraKeys), std::end(kIgnoredCassandraKeys), key) !=
         std::end(kIgnoredCassandraKeys);
}

}  // namespace sibyl::server
