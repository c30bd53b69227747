#include "server/node.h"

#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "cluster/coordinator.h"
#include "cluster/node_identity.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/version.h"
#include "guardrails/guardrails.h"
#include "index/indexing_engine.h"
#include "locator/snitch.h"
#include "metrics/metric_registry.h"
#include "metrics/metrics_http_server.h"
#include "query/query_processor.h"
#include "schema/local_metadata_store.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"
#include "server/cluster_node.h"
#include "server/cql_server.h"
#include "server/data_directory.h"
#include "server/derived_data_info.h"
#include "server/disk_usage_monitor.h"
#include "server/event_bus.h"
#include "server/live_data_size.h"
#include "server/node_metrics.h"
#include "server/request_metrics.h"
#include "server/schema_change_events.h"
#include "server/server_context.h"
#include "server/storage_info.h"
#include "storage/engine.h"

namespace sibyl::server {
namespace {

void SetUpLogging() {
  auto logger = spdlog::stdout_color_mt("sibyl");
  // Cassandra's system.log layout: level, thread, timestamp, message.
  logger->set_pattern("%^%-5l%$ [%t] %Y-%m-%d %H:%M:%S,%e %v");
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

// A size as Cassandra 4.1 writes a DataStorageSpec: the number and the
// largest unit that divides it exactly ("16MiB").
std::string DataStorageText(uint64_t bytes) {
  static constexpr std::pair<uint64_t, const char*> kUnits[] = {
      {1ull << 30, "GiB"}, {1ull << 20, "MiB"}, {1ull << 10, "KiB"}};
  for (const auto& [size, symbol] : kUnits) {
    if (bytes != 0 && bytes % size == 0) return std::to_string(bytes / size) + symbol;
  }
  return std::to_string(bytes) + "B";
}

std::string MillisText(std::chrono::milliseconds duration) {
  return std::to_string(duration.count()) + "ms";
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

const char* CommitlogSyncName(CommitlogSync sync) {
  switch (sync) {
    case CommitlogSync::kPeriodic:
      return "periodic";
    case CommitlogSync::kBatch:
      return "batch";
    case CommitlogSync::kGroup:
      return "group";
  }
  return "periodic";
}

// The configuration as system_views.settings lists it: the cassandra.yaml
// keys Sibyl has, in Cassandra 4.1's text forms, plus the 4.1 spellings those
// keys replaced (with values in their old units, as 4.1's SettingsTable shows
// them), plus Sibyl's own keys. An address left unset reads null, as in
// Cassandra's configuration; the commit log directory reads as the one used.
std::map<std::string, std::optional<std::string>> MakeSettings(const Config& config) {
  auto optional_text = [](const std::string& value) -> std::optional<std::string> {
    if (value.empty()) return std::nullopt;
    return value;
  };
  std::string directories = "[";
  for (const auto& directory : config.data_file_directories) {
    if (directories.size() > 1) directories += ", ";
    directories += directory.string();
  }
  directories += "]";
  const std::filesystem::path commitlog_directory = config.commitlog_directory.empty()
                                                        ? config.data_dir() / "commitlog"
                                                        : config.commitlog_directory;
  return {
      {"broadcast_address", optional_text(config.broadcast_address)},
      {"broadcast_rpc_address", optional_text(config.broadcast_rpc_address)},
      {"cluster_name", config.cluster_name},
      {"commitlog_directory", commitlog_directory.string()},
      {"commitlog_sync", CommitlogSyncName(config.commitlog_sync)},
      {"commitlog_sync_group_window", MillisText(config.commitlog_sync_group_window)},
      {"commitlog_sync_group_window_in_ms",
       std::to_string(config.commitlog_sync_group_window.count()) + ".0"},
      {"commitlog_sync_period", MillisText(config.commitlog_sync_period)},
      {"commitlog_sync_period_in_ms", std::to_string(config.commitlog_sync_period.count())},
      {"data_file_directories", directories},
      {"datacenter", config.datacenter},
      {"endpoint_snitch", config.endpoint_snitch},
      {"listen_address", optional_text(config.listen_address)},
      {"native_transport_max_concurrent_connections",
       std::to_string(config.native_transport_max_concurrent_connections)},
      {"native_transport_max_frame_size", DataStorageText(config.native_transport_max_frame_size)},
      {"native_transport_max_frame_size_in_mb",
       std::to_string(config.native_transport_max_frame_size >> 20)},
      {"native_transport_port", std::to_string(config.native_transport_port)},
      {"num_tokens", std::to_string(config.num_tokens)},
      {"partitioner", config.partitioner},
      {"rack", config.rack},
      {"reactor_threads", std::to_string(config.reactor_threads)},
      {"rpc_address", optional_text(config.rpc_address)},
      {"storage_port", std::to_string(config.storage_port)},
      {"seed_provider", config.seed_provider_class + "{seeds=" + Join(config.seeds) + "}"},
      {"metadata_store", config.metadata_store},
      {"etcd_endpoints", Join(config.etcd_endpoints)},
      {"read_request_timeout", MillisText(config.read_request_timeout)},
      {"range_request_timeout", MillisText(config.range_request_timeout)},
      {"write_request_timeout", MillisText(config.write_request_timeout)},
      {"counter_write_request_timeout", MillisText(config.counter_write_request_timeout)},
      {"cas_contention_timeout", MillisText(config.cas_contention_timeout)},
      {"truncate_request_timeout", MillisText(config.truncate_request_timeout)},
      {"request_timeout", MillisText(config.request_timeout)},
      {"hinted_handoff_enabled", config.hinted_handoff_enabled ? "true" : "false"},
      {"max_hint_window", MillisText(config.max_hint_window)},
      {"hinted_handoff_throttle", DataStorageText(config.hinted_handoff_throttle)},
      {"max_hints_delivery_threads", std::to_string(config.max_hints_delivery_threads)},
      {"hints_directory", config.hints_dir().string()},
      {"native_transport_max_threads", std::to_string(config.native_transport_max_threads)},
      {"prometheus_enabled", config.prometheus_enabled ? "true" : "false"},
      {"prometheus_address", optional_text(config.prometheus_address)},
      {"prometheus_port", std::to_string(config.prometheus_port)},
      {"disk_usage_monitor_interval", MillisText(config.disk_usage_monitor_interval)},
      {"disk_usage_notify_interval", MillisText(config.disk_usage_notify_interval)},
  };
}

// This node's datacenter and rack. SimpleSnitch reports Sibyl's own
// `datacenter` and `rack` keys (datacenter1 / rack1 by default, Cassandra's
// fixed answer); GossipingPropertyFileSnitch reads cassandra-rackdc.properties
// beside the --config file (or the `rackdc_properties` file).
locator::Location ResolveLocation(const Config& config) {
  if (config.endpoint_snitch == "SimpleSnitch") return {config.datacenter, config.rack};
  std::filesystem::path file = config.rackdc_properties;
  if (file.empty()) file = config.config_directory / locator::kRackDcPropertiesFile;
  try {
    return locator::Snitch::FromConfig(config.endpoint_snitch, file).local();
  } catch (const CqlError& e) {
    throw ConfigError(e.what());
  }
}

schema::LocalNodeInfo MakeLocalNodeInfo(const Config& config,
                                        const cluster::NodeIdentity& identity) {
  schema::LocalNodeInfo info;
  info.cluster_name = config.cluster_name;
  info.listen_address = config.listen_address;
  info.listen_port = config.storage_port;
  info.broadcast_address =
      config.broadcast_address.empty() ? config.listen_address : config.broadcast_address;
  info.rpc_address =
      config.broadcast_rpc_address.empty() ? config.native_address() : config.broadcast_rpc_address;
  info.rpc_port = config.native_transport_port;
  const locator::Location location = ResolveLocation(config);
  info.data_center = location.datacenter;
  info.rack = location.rack;
  info.host_id = types::Uuid::FromBytes(
      BytesView(reinterpret_cast<const char*>(identity.host_id.data()), identity.host_id.size()));
  info.gossip_generation =
      static_cast<int32_t>(std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
  for (auto token : identity.tokens) info.tokens.push_back(std::to_string(token));
  info.settings = MakeSettings(config);
  return info;
}

// The storage engine's options from the commitlog_* keys. The engine keeps
// its write-ahead log (Sibyl's commit log) in its own directory.
storage::EngineOptions MakeEngineOptions(const Config& config, const std::filesystem::path& dir) {
  storage::EngineOptions options;
  options.directory = dir;
  switch (config.commitlog_sync) {
    case CommitlogSync::kPeriodic:
      options.sync = storage::CommitlogSync::kPeriodic;
      break;
    case CommitlogSync::kBatch:
      options.sync = storage::CommitlogSync::kBatch;
      break;
    case CommitlogSync::kGroup:
      options.sync = storage::CommitlogSync::kGroup;
      break;
  }
  options.sync_period = config.commitlog_sync_period;
  options.group_window = config.commitlog_sync_group_window;
  return options;
}

// The size of the file system holding `data_directory`; 0 if unknown.
uint64_t DiskCapacity(const std::filesystem::path& data_directory) {
  std::error_code error;
  const std::filesystem::space_info space = std::filesystem::space(data_directory, error);
  return error ? 0 : space.capacity;
}

// Sibyl's defaults, then the configuration's keys, checked as a whole by
// ValidateConfig but for a data_disk_usage_max_disk_size over the disk,
// which only the node can see.
void ConfigureGuardrails(const Config& config, const std::filesystem::path& data_directory,
                         guardrails::Guardrails& guardrails) {
  for (const guardrails::GuardrailId id :
       {guardrails::GuardrailId::kLocalDataDiskUsage, guardrails::GuardrailId::kReplicaDiskUsage}) {
    guardrails.SetMinNotifyInterval(id, config.disk_usage_notify_interval);
  }
  guardrails.SetDiskCapacity(DiskCapacity(data_directory));
  try {
    guardrails.Apply(config.guardrails);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

// The query processor's options from the configuration.
query::QueryProcessorOptions MakeProcessorOptions(const Config& config,
                                                  const guardrails::Guardrails& guardrails) {
  query::QueryProcessorOptions options;
  options.read_thresholds.tombstone_warn = config.tombstone_warn_threshold;
  options.read_thresholds.tombstone_failure = config.tombstone_failure_threshold;
  options.materialized_views.enabled = config.materialized_views_enabled;
  options.materialized_views.strict_primary_key_selection =
      config.materialized_views_strict_primary_key_selection;
  options.guardrails = &guardrails;
  return options;
}

// The monitor of the data directory's usage, telling `states` this node's
// state (docs/guardrails.md "Disk usage").
std::unique_ptr<DiskUsageMonitor> MakeDiskUsageMonitor(const Config& config,
                                                       const std::filesystem::path& data_directory,
                                                       const guardrails::Guardrails& guardrails,
                                                       cluster::DiskUsageStates& states) {
  return std::make_unique<DiskUsageMonitor>(
      guardrails, DiskUsageMonitor::OfDirectory(data_directory),
      [&states](guardrails::DiskUsageState state) { states.SetLocal(state); },
      config.disk_usage_monitor_interval);
}

// Blocks SIGINT and SIGTERM in every thread (threads inherit the mask) so
// the main thread can wait for them with sigwait.
sigset_t BlockShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // A client that vanishes mid-write must not kill the process.
  signal(SIGPIPE, SIG_IGN);
  return set;
}

bool InCluster(const Config& config) {
  if (config.metadata_store == "etcd") return true;
  if (config.metadata_store != "local") {
    throw ConfigError("metadata_store: " + config.metadata_store + " is not one of local, etcd");
  }
  return false;
}

// The tables' data (docs/dev/storage.md), wrapped so that every write path
// keeps the tables' secondary indexes exact (index/indexing_engine.h), shown
// in the node's virtual tables.
std::unique_ptr<index::IndexingEngine> OpenStorage(const Config& config,
                                                   const DataDirectory& data_dir, Clock& clock,
                                                   schema::LocalNodeInfo& node_info) {
  auto engine = index::IndexingEngine::Wrap(
      storage::Engine::Open(MakeEngineOptions(config, data_dir.path() / "data"), clock), clock);
  ShowDerivedData(*engine, node_info);
  ShowStorage(*engine, node_info);
  engine->set_max_pending_view_updates(config.view_outbox_max_pending);
  return engine;
}

// Where the schema lives: in the data directory (docs/dev/schema-store.md),
// or, for a node of a cluster, the metadata log in etcd
// (docs/dev/metadata.md), where the node registers itself and learns its
// tokens.
struct NodeMetadata {
  std::unique_ptr<ClusterNode> cluster_node;  // null on a single node
  std::unique_ptr<schema::LocalMetadataStore> local;

  schema::MetadataStore& store() const {
    return cluster_node ? static_cast<schema::MetadataStore&>(cluster_node->metadata()) : *local;
  }
};

NodeMetadata OpenMetadata(const Config& config, const DataDirectory& data_dir,
                          const cluster::NodeIdentity& identity, bool identity_existed,
                          schema::LocalNodeInfo& node_info, index::IndexingEngine& engine) {
  NodeMetadata metadata;
  if (!InCluster(config)) {
    metadata.local = schema::LocalMetadataStore::Open(data_dir.path() / "schema");
    return metadata;
  }
  metadata.cluster_node =
      ClusterNode::Open(config, data_dir.path(), identity, identity_existed, node_info);
  // Before the schema reaches the engine (the query processor syncs it):
  // from its first view update, a write or a view build sends each to its
  // paired view replica (docs/dev/views.md).
  engine.SetViewUpdateRouter(metadata.cluster_node->MakeViewUpdateRouter());
  return metadata;
}

// What a running node serves from: the pieces ServeUntilSignal starts,
// publishes metrics of, and stops.
struct ServingParts {
  const Config& config;
  ServerContext& context;
  metrics::MetricRegistry& metric_registry;
  index::IndexingEngine& engine;
  schema::MetadataStore& metadata;
  ClusterNode* cluster_node;                          // null on a single node
  const cluster::paxos::PaxosMetrics* paxos_metrics;  // null on a single node
  const guardrails::Guardrails& guardrails;
  const guardrails::ModelWarnings& model_warnings;
  DiskUsageMonitor& disk_usage_monitor;
  const schema::LocalNodeInfo& node_info;
};

// Listens for CQL clients and metrics scrapes, serves until SIGINT or
// SIGTERM, then stops serving.
void ServeUntilSignal(const ServingParts& parts, const sigset_t& shutdown_signals) {
  const Config& config = parts.config;
  parts.disk_usage_monitor.Start();
  CqlServer server(config, parts.context);
  server.Listen();
  AddNodeCollectors(parts.metric_registry,
                    {.requests = parts.context.request_metrics,
                     .cql_server = &server,
                     .engine = &parts.engine,
                     .schemas = &parts.metadata.schemas(),
                     .hints = parts.cluster_node ? parts.cluster_node->hints() : nullptr,
                     .paxos = parts.paxos_metrics,
                     .guardrails = &parts.guardrails,
                     .model_warnings = &parts.model_warnings,
                     .disk_usage = &parts.disk_usage_monitor});
  // Destroyed (stopped) before the server, engine and cluster node its
  // collectors read.
  const std::unique_ptr<metrics::MetricsHttpServer> metrics_endpoint =
      ListenForMetrics(config, parts.metric_registry);
  server.Start();
  if (metrics_endpoint) metrics_endpoint->Start();
  if (parts.cluster_node) parts.cluster_node->NativeTransportReady();
  spdlog::info("Node {} owns {} tokens; schema version {} (epoch {})",
               parts.node_info.host_id.ToString(), parts.node_info.tokens.size(),
               parts.metadata.schemas().snapshot()->version().ToString(), parts.metadata.epoch());
  spdlog::info("Starting listening for CQL clients on {}:{} (unencrypted)...",
               server.bound_address(), server.bound_port());
  if (metrics_endpoint) {
    spdlog::info("Serving Prometheus metrics on http://{}:{}/metrics", config.metrics_address(),
                 metrics_endpoint->bound_port());
  }

  int signal_number = 0;
  sigwait(&shutdown_signals, &signal_number);
  spdlog::info("Received {}, shutting down", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
  if (metrics_endpoint) metrics_endpoint->Stop();
  server.Stop();
  // Before the processor and the engine go: no listener may run after.
  if (parts.cluster_node) parts.cluster_node->Stop();
}

// Builds the node from its configuration and serves until a shutdown
// signal. Objects are declared in the order they depend on one another, so
// each outlives what refers to it.
void RunNodeUntilSignal(const Config& config, const sigset_t& shutdown_signals) {
  DataDirectory data_dir(config.data_dir());
  const bool identity_existed = cluster::HasNodeIdentity(data_dir.path());
  std::string identity_warning;
  const auto identity =
      cluster::LoadOrCreateNodeIdentity(data_dir.path(), config.num_tokens, identity_warning);
  if (!identity_warning.empty()) spdlog::warn("{}", identity_warning);

  schema::LocalNodeInfo node_info = MakeLocalNodeInfo(config, identity);
  node_info.load_bytes = [engine_directory = data_dir.path() / "data"] {
    return LiveDataSize(engine_directory);
  };
  // The node's metrics (docs/metrics.md), declared before what they count
  // so that they outlive it.
  metrics::MetricRegistry metric_registry;
  RequestMetrics request_metrics;
  // The node's one clock: write timestamps and `now` for TTLs.
  SystemClock clock;
  // Declared before the schema store, whose listener keeps the engine's
  // tables in step with it.
  const auto engine = OpenStorage(config, data_dir, clock, node_info);
  // UPDATE of system_views.guardrails changes them live.
  guardrails::Guardrails guardrails;
  ConfigureGuardrails(config, data_dir.path(), guardrails);
  node_info.guardrails = &guardrails;
  guardrails::ModelWarnings model_warnings;
  node_info.model_warnings = &model_warnings;
  // The disk usage guardrails: this node's state from its monitor, the
  // others' from their heartbeats (cluster_node.cc).
  cluster::DiskUsageStates disk_usage_states;
  const std::unique_ptr<DiskUsageMonitor> disk_usage_monitor =
      MakeDiskUsageMonitor(config, data_dir.path(), guardrails, disk_usage_states);
  node_info.disk_usage = [&disk_usage_states] { return disk_usage_states.local(); };
  const NodeMetadata metadata =
      OpenMetadata(config, data_dir, identity, identity_existed, node_info, *engine);
  ClusterNode* const cluster_node = metadata.cluster_node.get();
  schema::VirtualTables virtual_tables = schema::VirtualTables::SystemTables();
  cluster::Coordinator coordinator(*engine, clock);
  coordinator.SetDiskUsageStates(&disk_usage_states);
  // Creates the column families of the schema's tables before serving.
  query::QueryProcessorOptions processor_options = MakeProcessorOptions(config, guardrails);
  if (cluster_node) {
    processor_options.after_schema_change = [cluster_node](uint64_t epoch) {
      cluster_node->AwaitSchemaAgreement(epoch);
    };
  }
  query::QueryProcessor processor(metadata.store(), virtual_tables, node_info, &coordinator,
                                  processor_options);
  EventBus events;
  PublishSchemaChanges(metadata.store(), events);
  ServerContext context{config, processor, events};
  context.model_warnings = &model_warnings;
  // Counted only when someone can read them.
  if (config.prometheus_enabled) context.request_metrics = &request_metrics;
  if (cluster_node) {
    cluster_node->Join(coordinator, *engine, clock, events);
    context.statement_workers = &cluster_node->statement_workers();
  }
  ServeUntilSignal({.config = config,
                    .context = context,
                    .metric_registry = metric_registry,
                    .engine = *engine,
                    .metadata = metadata.store(),
                    .cluster_node = cluster_node,
                    .paxos_metrics = coordinator.paxos_metrics(),
                    .guardrails = guardrails,
                    .model_warnings = model_warnings,
                    .disk_usage_monitor = *disk_usage_monitor,
                    .node_info = node_info},
                   shutdown_signals);
}

}  // namespace

int RunNode(const StartOptions& options) {
  const sigset_t shutdown_signals = BlockShutdownSignals();
  SetUpLogging();
  spdlog::info("{} starting", VersionLine());
  for (const auto& warning : options.warnings) spdlog::warn("{}", warning);
  try {
    RunNodeUntilSignal(options.config, shutdown_signals);
    spdlog::info("Stopped");
    spdlog::shutdown();
    return 0;
  } catch (const ConfigError& e) {
    std::cerr << "sibyl: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "sibyl: start-up failed: " << e.what() << "\n";
  }
  spdlog::shutdown();
  return 1;
}

}  // namespace sibyl::server
