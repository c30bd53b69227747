#include "server/config.h"

#include <arpa/inet.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <set>
#include <stdexcept>

#include "common/config_values.h"
#include "guardrails/guardrail_catalog.h"
#include "guardrails/guardrails.h"
#include "locator/locator_class_name.h"

namespace sibyl::server {
namespace {

using Setter = std::function<void(Config&, const std::string& key, const std::string& value)>;

struct KeySpec {
  const char* value_hint;  // for --help
  const char* description;
  Setter set;
};

[[noreturn]] void Bad(const std::string& key, const std::string& value, const std::string& why) {
  throw ConfigError("Invalid value '" + value + "' for " + key + ": " + why);
}

int64_t ParseInteger(const std::string& key, const std::string& value, int64_t min, int64_t max) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size()) Bad(key, value, "not an integer");
  if (v < min || v > max) {
    Bad(key, value, "must be between " + std::to_string(min) + " and " + std::to_string(max));
  }
  return v;
}

// Splits "16MiB" into (16, "MiB").
std::pair<uint64_t, std::string> SplitQuantity(const std::string& key, const std::string& value) {
  size_t digits = 0;
  while (digits < value.size() && std::isdigit(static_cast<unsigned char>(value[digits]))) ++digits;
  if (digits == 0) Bad(key, value, "expected a number followed by a unit");
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + digits, n);
  if (ec != std::errc()) Bad(key, value, "number out of range");
  return {n, value.substr(digits)};
}

// Cassandra 4.1 data storage: B, KiB, MiB, GiB.
uint64_t ParseDataStorage(const std::string& key, const std::string& value) {
  auto [n, unit] = SplitQuantity(key, value);
  const std::optional<uint64_t> unit_bytes = DataStorageUnitBytes(unit);
  if (!unit_bytes) Bad(key, value, "accepted units are B, KiB, MiB, GiB");
  if (n > UINT64_MAX / *unit_bytes) Bad(key, value, "too large");
  return n * *unit_bytes;
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
  Bad(key, value, "accepted units are ns, us, ms, s, m, h, d");
}

void CheckAddress(const std::string& key, const std::string& value) {
  in_addr v4;
  in6_addr v6;
  if (inet_pton(AF_INET, value.c_str(), &v4) != 1 && inet_pton(AF_INET6, value.c_str(), &v6) != 1) {
    Bad(key, value, "not an IPv4 or IPv6 address");
  }
}

Setter Text(std::string Config::*field) {
  return [field](Config& c, const std::string&, const std::string& v) { c.*field = v; };
}
Setter Path(std::filesystem::path Config::*field) {
  return [field](Config& c, const std::string& k, const std::string& v) {
    if (v.empty()) Bad(k, v, "empty path");
    c.*field = v;
  };
}
Setter Address(std::string Config::*field) {
  return [field](Config& c, const std::string& k, const std::string& v) {
    CheckAddress(k, v);
    c.*field = v;
  };
}
Setter Int(int32_t Config::*field, int64_t min, int64_t max) {
  return [=](Config& c, const std::string& k, const std::string& v) {
    c.*field = static_cast<int32_t>(ParseInteger(k, v, min, max));
  };
}
Setter Millis(std::chrono::milliseconds Config::*field, bool legacy_integer) {
  return [=](Config& c, const std::string& k, const std::string& v) {
    c.*field = legacy_integer ? std::chrono::milliseconds(ParseInteger(k, v, 0, INT32_MAX))
                              : ParseDuration(k, v);
  };
}

Setter Bool(bool Config::*field) {
  return [field](Config& c, const std::string& k, const std::string& v) {
    const std::optional<bool> parsed = ParseYamlBoolean(v);
    if (!parsed) Bad(k, v, "expected true or false");
    c.*field = *parsed;
  };
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

// A duration key in both of Cassandra 4.1's spellings: `name` ("2000ms",
// "2s") and the older `name_in_ms` (an integer of milliseconds).
void AddDurationKeys(std::map<std::string, KeySpec>& keys, const std::string& name,
                     std::chrono::milliseconds Config::*field, const char* description) {
  keys.emplace(name, KeySpec{"DURATION", description, Millis(field, false)});
  keys.emplace(name + "_in_ms",
               KeySpec{"N", "the same in ms (older spelling)", Millis(field, true)});
}

std::string ShortSnitchName(const std::string& value) {
  const std::string_view member = locator::LocatorPackageMember(value);
  return member.empty() ? value : std::string(member);
}

constexpr uint64_t kMaxFrameSizeLimit = 256ull * 1024 * 1024;

void SetMaxFrameSize(Config& c, const std::string& key, uint64_t bytes, const std::string& v) {
  // Cassandra caps native_transport_max_frame_size below 256MiB.
  if (bytes < 1024 || bytes >= kMaxFrameSizeLimit)
    Bad(key, v, "must be at least 1KiB and less than 256MiB");
  c.native_transport_max_frame_size = bytes;
}

const std::map<std::string, KeySpec>& Keys() {
  static const std::map<std::string, KeySpec> keys = [] {
    std::map<std::string, KeySpec> keys{
        {"cluster_name",
         {"NAME", "name of the cluster (default: Test Cluster)", Text(&Config::cluster_name)}},
        {"listen_address",
         {"ADDR", "address of this node (default: 127.0.0.1)", Address(&Config::listen_address)}},
        {"rpc_address",
         {"ADDR", "address for CQL clients (default: listen_address)",
          Address(&Config::rpc_address)}},
        {"native_transport_address",
         {"ADDR", "same as rpc_address", Address(&Config::rpc_address)}},
        {"broadcast_address",
         {"ADDR", "address other nodes are told (default: listen_address)",
          Address(&Config::broadcast_address)}},
        {"broadcast_rpc_address",
         {"ADDR", "address clients are told (default: rpc_address)",
          Address(&Config::broadcast_rpc_address)}},
        {"storage_port",
         {"PORT", "inter-node port (default: 7000)", Int(&Config::storage_port, 1, 65535)}},
        {"native_transport_port",
         {"PORT", "CQL port (default: 9042)", Int(&Config::native_transport_port, 0, 65535)}},
        {"native_transport_max_frame_size",
         {"SIZE", "largest request accepted, e.g. 16MiB (default: 16MiB)",
          [](Config& c, const std::string& k, const std::string& v) {
            SetMaxFrameSize(c, k, ParseDataStorage(k, v), v);
          }}},
        {"native_transport_max_frame_size_in_mb",
         {"N", "the same in MiB (older spelling)",
          [](Config& c, const std::string& k, const std::string& v) {
            SetMaxFrameSize(c, k, static_cast<uint64_t>(ParseInteger(k, v, 1, 255)) << 20, v);
          }}},
        {"native_transport_max_concurrent_connections",
         {"N", "connection limit, -1 for none (default: -1)",
          Int(&Config::native_transport_max_concurrent_connections, -1, INT32_MAX)}},
        {"data_file_directories",
         {"DIR", "data directory (default: ./sibyl-data); in YAML a list",
          [](Config& c, const std::string& k, const std::string& v) {
            if (v.empty()) Bad(k, v, "empty path");
            c.data_file_directories = {v};
          }}},
        {"data_dir", {"DIR", "same as data_file_directories", nullptr}},
        {"commitlog_directory",
         {"DIR", "commit log directory (default: <data dir>/commitlog)",
          Path(&Config::commitlog_directory)}},
        {"commitlog_sync",
         {"MODE", "periodic, batch or group (default: periodic)",
          [](Config& c, const std::string& k, const std::string& v) {
            if (v == "periodic")
              c.commitlog_sync = CommitlogSync::kPeriodic;
            else if (v == "batch")
              c.commitlog_sync = CommitlogSync::kBatch;
            else if (v == "group")
              c.commitlog_sync = CommitlogSync::kGroup;
            else
              Bad(k, v, "expected periodic, batch or group");
          }}},
        {"commitlog_sync_period",
         {"DURATION", "periodic fsync interval (default: 10000ms)",
          [](Config& c, const std::string& k, const std::string& v) {
            Millis(&Config::commitlog_sync_period, false)(c, k, v);
            c.commitlog_sync_period_given = true;
          }}},
        {"commitlog_sync_period_in_ms",
         {"N", "the same in ms (older spelling)",
          [](Config& c, const std::string& k, const std::string& v) {
            Millis(&Config::commitlog_sync_period, true)(c, k, v);
            c.commitlog_sync_period_given = true;
          }}},
        {"commitlog_sync_group_window",
         {"DURATION", "group fsync window (default: 0ms; group mode needs one)",
          Millis(&Config::commitlog_sync_group_window, false)}},
        {"commitlog_sync_group_window_in_ms",
         {"N", "the same in ms (older spelling)",
          Millis(&Config::commitlog_sync_group_window, true)}},
        {"num_tokens",
         {"N", "tokens (vnodes) this node owns (default: 16)", Int(&Config::num_tokens, 1, 1536)}},
        {"partitioner",
         {"CLASS", "only Murmur3Partitioner",
          [](Config& c, const std::string& k, const std::string& v) {
            if (v != "org.apache.cassandra.dht.Murmur3Partitioner" && v != "Murmur3Partitioner") {
              Bad(k, v, "Sibyl supports only org.apache.cassandra.dht.Murmur3Partitioner");
            }
            c.partitioner = "org.apache.cassandra.dht.Murmur3Partitioner";
          }}},
        {"endpoint_snitch",
         {"CLASS",
          "SimpleSnitch (datacenter and rack from the keys below) or "
          "GossipingPropertyFileSnitch (from cassandra-rackdc.properties)",
          [](Config& c, const std::string& k, const std::string& v) {
            const std::string name = ShortSnitchName(v);
            if (name != "SimpleSnitch" && name != "GossipingPropertyFileSnitch") {
              Bad(k, v, "Sibyl supports SimpleSnitch and GossipingPropertyFileSnitch");
            }
            c.endpoint_snitch = name;
          }}},
        {"rackdc_properties",
         {"FILE",
          "GossipingPropertyFileSnitch's file (default: cassandra-rackdc.properties beside "
          "--config)",
          Path(&Config::rackdc_properties)}},
        {"seeds",
         {"HOSTS", "seed_provider's seeds, comma-separated host[:port] (default: 127.0.0.1:7000)",
          [](Config& c, const std::string& k, const std::string& v) {
            std::vector<std::string> seeds = SplitList(v);
            if (seeds.empty()) Bad(k, v, "no seed given");
            c.seeds = std::move(seeds);
          }}},
        {"metadata_store",
         {"KIND",
          "where membership and schema are kept: local (a single node) or etcd "
          "(default: local)",
          [](Config& c, const std::string& k, const std::string& v) {
            if (v != "local" && v != "etcd") Bad(k, v, "expected local or etcd");
            c.metadata_store = v;
          }}},
        {"etcd_endpoints",
         {"URLS", "etcd's client URLs, comma-separated (default: http://127.0.0.1:2379)",
          [](Config& c, const std::string& k, const std::string& v) {
            std::vector<std::string> endpoints = SplitList(v);
            if (endpoints.empty()) Bad(k, v, "no endpoint given");
            for (const std::string& endpoint : endpoints) {
              if (endpoint.rfind("http://", 0) != 0) {
                Bad(k, v, "each endpoint must be an http:// URL");
              }
            }
            c.etcd_endpoints = std::move(endpoints);
          }}},
        {"hinted_handoff_enabled",
         {"BOOL", "keep writes for replicas that are down (default: true)",
          Bool(&Config::hinted_handoff_enabled)}},
        {"hinted_handoff_throttle",
         {"SIZE", "hint replay rate per second (default: 1024KiB)",
          [](Config& c, const std::string& k, const std::string& v) {
            c.hinted_handoff_throttle = ParseDataStorage(k, v);
          }}},
        {"hinted_handoff_throttle_in_kb",
         {"N", "the same in KiB (older spelling)",
          [](Config& c, const std::string& k, const std::string& v) {
            c.hinted_handoff_throttle = static_cast<uint64_t>(ParseInteger(k, v, 0, INT32_MAX))
                                        << 10;
          }}},
        {"max_hints_delivery_threads",
         {"N", "threads replaying hints (default: 2)",
          Int(&Config::max_hints_delivery_threads, 1, 64)}},
        {"hints_directory",
         {"DIR", "where hints are kept (default: <data dir>/hints)",
          Path(&Config::hints_directory)}},
        {"native_transport_max_threads",
         {"N", "threads executing statements on a node of a cluster (default: 128)",
          Int(&Config::native_transport_max_threads, 1, 4096)}},
        {"prometheus_enabled",
         {"BOOL", "serve Prometheus metrics over HTTP at /metrics (default: true; Sibyl's key)",
          Bool(&Config::prometheus_enabled)}},
        {"prometheus_address",
         {"ADDR", "address of the metrics endpoint (default: listen_address; Sibyl's key)",
          Address(&Config::prometheus_address)}},
        {"prometheus_port",
         {"PORT", "port of the metrics endpoint (default: 9180; Sibyl's key)",
          Int(&Config::prometheus_port, 0, 65535)}},
        {"datacenter",
         {"NAME", "data center this node reports (default: datacenter1)",
          Text(&Config::datacenter)}},
        {"rack", {"NAME", "rack this node reports (default: rack1)", Text(&Config::rack)}},
        {"tombstone_warn_threshold",
         {"N",
          "tombstones a read may go over before the client is warned, -1: never "
          "(default: 1000)",
          Int(&Config::tombstone_warn_threshold, -1, INT32_MAX)}},
        {"tombstone_failure_threshold",
         {"N", "tombstones a read may go over before it fails, -1: never (default: 100000)",
          Int(&Config::tombstone_failure_threshold, -1, INT32_MAX)}},
        {"materialized_views_enabled",
         {"BOOL",
          "allow CREATE MATERIALIZED VIEW (default: true; Cassandra 4.1's default is false)",
          Bool(&Config::materialized_views_enabled)}},
        {"enable_materialized_views",
         {"BOOL", "the same (Cassandra 4.0's name)", Bool(&Config::materialized_views_enabled)}},
        {"materialized_views_strict_primary_key_selection",
         {"BOOL",
          "refuse a view PRIMARY KEY column that is not SELECTed, as Cassandra 4.1 does; "
          "false adds it to the selection (default: false)",
          Bool(&Config::materialized_views_strict_primary_key_selection)}},
        {"view_outbox_max_pending",
         {"N",
          "view updates waiting for their remote view replicas beyond which writes to tables "
          "with views wait, then fail (default: 10000)",
          Int(&Config::view_outbox_max_pending, 1, INT32_MAX)}},
        {"reactor_threads",
         {"N", "threads serving connections, 0 = one per core (default: 0)",
          Int(&Config::reactor_threads, 0, 256)}},
    };
    AddDurationKeys(keys, "read_request_timeout", &Config::read_request_timeout,
                    "how long a coordinator waits for a read (default: 5000ms)");
    AddDurationKeys(keys, "range_request_timeout", &Config::range_request_timeout,
                    "how long a coordinator waits for a range read (default: 10000ms)");
    AddDurationKeys(keys, "write_request_timeout", &Config::write_request_timeout,
                    "how long a coordinator waits for a write (default: 2000ms)");
    AddDurationKeys(keys, "counter_write_request_timeout", &Config::counter_write_request_timeout,
                    "how long a coordinator waits for a counter write (default: 5000ms)");
    AddDurationKeys(keys, "cas_contention_timeout", &Config::cas_contention_timeout,
                    "how long a lightweight transaction may contend (default: 1000ms)");
    AddDurationKeys(keys, "truncate_request_timeout", &Config::truncate_request_timeout,
                    "how long a coordinator waits for a truncation (default: 60000ms)");
    AddDurationKeys(keys, "request_timeout", &Config::request_timeout,
                    "how long a coordinator waits for other requests (default: 10000ms)");
    AddDurationKeys(keys, "max_hint_window", &Config::max_hint_window,
                    "longest downtime of a replica for which hints are kept (default: 3h)");
    keys.emplace("disk_usage_monitor_interval",
                 KeySpec{"DURATION",
                         "how often the data directory's usage is measured for the disk usage "
                         "guardrails (default: 30s; Sibyl's key)",
                         Millis(&Config::disk_usage_monitor_interval, false)});
    keys.emplace("disk_usage_notify_interval",
                 KeySpec{"DURATION",
                         "the disk usage guardrails log and warn clients at most once per this "
                         "(default: 30m; 0ms: every time; Sibyl's key)",
                         Millis(&Config::disk_usage_notify_interval, false)});
    return keys;
  }();
  return keys;
}

// cassandra.yaml's seed_provider, a class with its parameters:
//   seed_provider:
//     - class_name: org.apache.cassandra.locator.SimpleSeedProvider
//       parameters:
//         - seeds: "127.0.0.1:7000"
void ApplySeedProvider(Config& config, const YAML::Node& value) {
  const YAML::Node provider = value.IsSequence() && value.size() > 0 ? value[0] : value;
  if (!provider.IsMap() || !provider["class_name"]) {
    throw ConfigError("Invalid value for seed_provider: expected class_name and parameters");
  }
  const std::string class_name = provider["class_name"].as<std::string>();
  if (class_name != "org.apache.cassandra.locator.SimpleSeedProvider" &&
      class_name != "SimpleSeedProvider") {
    throw ConfigError("Invalid value '" + class_name +
                      "' for seed_provider: Sibyl supports only "
                      "org.apache.cassandra.locator.SimpleSeedProvider");
  }
  config.seed_provider_class = "org.apache.cassandra.locator.SimpleSeedProvider";
  YAML::Node parameters = provider["parameters"];
  if (parameters && parameters.IsSequence() && parameters.size() > 0) parameters = parameters[0];
  if (parameters && parameters.IsMap() && parameters["seeds"]) {
    SetConfigValue(config, "seeds", parameters["seeds"].as<std::string>());
  }
}

}  // namespace

bool IsIgnoredCassandraKey(const std::string& key) {
  // Tuning knobs of Cassandra's own thread pools, caches and background
  // machinery, present in the stock cassandra.yaml.
  static const std::set<std::string> kIgnored{"hints_flush_period",
                                              "hints_flush_period_in_ms",
                                              "max_hints_file_size",
                                              "max_hints_file_size_in_mb",
                                              "batchlog_replay_throttle",
                                              "batchlog_replay_throttle_in_kb",
                                              "authenticator",
                                              "authorizer",
                                              "role_manager",
                                              "network_authorizer",
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
                                              "server_encryption_options",
                                              "client_encryption_options",
                                              "internode_compression",
                                              "inter_dc_tcp_nodelay",
                                              "trace_type_query_ttl",
                                              "trace_type_repair_ttl",
                                              "user_defined_functions_enabled",
                                              "scripted_user_defined_functions_enabled",
                                              "transparent_data_encryption_options",
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
                                              "internode_authenticator",
                                              "diagnostic_events_enabled",
                                              "repaired_data_tracking_for_range_reads_enabled",
                                              "repaired_data_tracking_for_partition_reads_enabled",
                                              "report_unconfirmed_repaired_data_mismatches",
                                              "audit_logging_options",
                                              "full_query_logging_options",
                                              "cdc_raw_directory",
                                              "native_transport_idle_timeout",
                                              "native_transport_idle_timeout_in_ms"};
  return kIgnored.count(key) > 0;
}

void SetConfigValue(Config& config, const std::string& key, const std::string& value) {
  if (key == "data_dir") return SetConfigValue(config, "data_file_directories", value);
  if (guardrails::FindGuardrailKey(key)) {
    try {
      guardrails::Guardrails::CheckValue(key, value);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(e.what());
    }
    config.guardrails.emplace_back(key, value);
    return;
  }
  auto it = Keys().find(key);
  if (it == Keys().end()) throw ConfigError("Unknown configuration key '" + key + "'");
  it->second.set(config, key, value);
}

std::vector<std::string> LoadConfigFile(Config& config, const std::filesystem::path& file) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::BadFile&) {
    throw ConfigError("Cannot read configuration file " + file.string());
  } catch (const YAML::Exception& e) {
    throw ConfigError("Invalid yaml in " + file.string() + ": " + e.what());
  }
  std::vector<std::string> warnings;
  config.config_directory = std::filesystem::absolute(file).parent_path();
  if (root.IsNull()) return warnings;
  if (!root.IsMap())
    throw ConfigError("Invalid yaml in " + file.string() + ": expected a map of keys");
  std::vector<std::string> unknown;
  for (const auto& entry : root) {
    const auto key = entry.first.as<std::string>();
    const YAML::Node& value = entry.second;
    if (key == "seed_provider") {
      ApplySeedProvider(config, value);
      continue;
    }
    if (IsIgnoredCassandraKey(key)) {
      warnings.push_back("Ignoring cassandra.yaml key '" + key + "': not used by Sibyl");
      continue;
    }
    if (guardrails::FindGuardrailKey(key)) {
      // A list of values ([ALL, ANY]) or a single value.
      std::string text;
      if (value.IsSequence()) {
        for (const auto& item : value) text += (text.empty() ? "" : ",") + item.as<std::string>();
      } else if (value.IsScalar()) {
        text = value.Scalar();
      } else if (!value.IsNull()) {
        throw ConfigError("Invalid value for " + key + " in " + file.string() +
                          ": expected a value or a list");
      }
      SetConfigValue(config, key, text);
      continue;
    }
    if (key != "data_dir" && Keys().find(key) == Keys().end()) {
      unknown.push_back(key);
      continue;
    }
    if (key == "data_file_directories" && value.IsSequence()) {
      if (value.size() == 0)
        throw ConfigError("Invalid value for data_file_directories: empty list");
      config.data_file_directories.clear();
      for (const auto& dir : value)
        config.data_file_directories.emplace_back(dir.as<std::string>());
      continue;
    }
    if (!value.IsScalar()) {
      throw ConfigError("Invalid value for " + key + " in " + file.string() +
                        ": expected a single value");
    }
    SetConfigValue(config, key, value.Scalar());
  }
  if (!unknown.empty()) {
    // Cassandra's wording for the same mistake.
    std::string list;
    for (const auto& k : unknown) list += (list.empty() ? "" : ", ") + k;
    throw ConfigError("Invalid yaml. Please remove properties [" + list + "] from your " +
                      file.filename().string());
  }
  return warnings;
}

void ValidateConfig(const Config& config) {
  if (config.cluster_name.empty()) throw ConfigError("cluster_name must not be empty");
  try {
    guardrails::Guardrails checked;
    checked.Apply(config.guardrails);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  if (config.data_file_directories.empty())
    throw ConfigError("data_file_directories must not be empty");
  // DatabaseDescriptor's checks, with its messages.
  if (config.disk_usage_monitor_interval.count() <= 0)
    throw ConfigError("disk_usage_monitor_interval must be positive");
  if (config.commitlog_sync == CommitlogSync::kBatch && config.commitlog_sync_period_given)
    throw ConfigError("Batch sync specified, but commitlog_sync_period found.");
  if (config.commitlog_sync == CommitlogSync::kGroup) {
    if (config.commitlog_sync_group_window.count() == 0)
      throw ConfigError("Missing value for commitlog_sync_group_window.");
    if (config.commitlog_sync_period_given)
      throw ConfigError(
          "Group sync specified, but commitlog_sync_period found. Only specify "
          "commitlog_sync_group_window when using group sync");
  }
  if (config.commitlog_sync == CommitlogSync::kPeriodic &&
      config.commitlog_sync_period.count() == 0)
    throw ConfigError("Missing value for commitlog_sync_period.");
}

std::string DescribeConfigKeys() {
  std::string out;
  for (const auto& [key, spec] : Keys()) {
    std::string flag = "--" + key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    std::string left = "  " + flag + " " + spec.value_hint;
    if (left.size() < 48)
      left.resize(48, ' ');
    else
      left += "  ";
    out += left + spec.description + "\n";
  }
  out +=
      "  --<guardrail key> VALUE                       every guardrail key of cassandra.yaml "
      "(4.1, 5.0),\n"
      "                                                e.g. --page-size-warn-threshold 5000, "
      "--allow-filtering-enabled false\n"
      "                                                (docs/guardrails.md; live in "
      "system_views.guardrails)\n";
  return out;
}

}  // namespace sibyl::server
