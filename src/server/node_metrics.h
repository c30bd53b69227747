#pragma once
// The node's metrics endpoint (docs/metrics.md): the collectors of what a
// node has to report — CQL requests, client connections, storage, hints,
// the large-data ledger, the rules statements broke and disk usage —
// and the HTTP listener that serves them to Prometheus.
//
//   metrics::MetricRegistry registry;          // other components add theirs
//   AddNodeCollectors(registry, {.requests = &request_metrics, ...});
//   auto endpoint = ListenForMetrics(config, registry);  // null when disabled
//   endpoint->Start(); ... endpoint->Stop();   // before what collectors read goes
//
// Thread-safety: the collectors run on the endpoint's thread and read only
// atomics, RocksDB properties, the schema snapshot and the hints directory.

#include <memory>

#include "cluster/hints/hint_store.h"
#include "cluster/paxos/paxos_metrics.h"
#include "guardrails/guardrails.h"
#include "guardrails/model_warnings.h"
#include "metrics/metric_registry.h"
#include "metrics/metrics_http_server.h"
#include "schema/schema.h"
#include "server/config.h"
#include "server/cql_server.h"
#include "server/disk_usage_monitor.h"
#include "server/request_metrics.h"
#include "storage/engine.h"

namespace sibyl::server {

// What the node's collectors read. Each must outlive the endpoint's last
// scrape; a null one is left out.
struct NodeMetricSources {
  const RequestMetrics* requests = nullptr;
  const CqlServer* cql_server = nullptr;
  const storage::Engine* engine = nullptr;
  const schema::SchemaStore* schemas = nullptr;  // names the engine's tables
  const cluster::HintStore* hints = nullptr;
  const cluster::paxos::PaxosMetrics* paxos = nullptr;
  // The large-data ledger's counts need the engine and the guardrails.
  const guardrails::Guardrails* guardrails = nullptr;
  const guardrails::ModelWarnings* model_warnings = nullptr;
  const DiskUsageMonitor* disk_usage = nullptr;
};

void AddNodeCollectors(metrics::MetricRegistry& registry, const NodeMetricSources& sources);

// Binds prometheus_address:prometheus_port when prometheus_enabled (else
// returns null). Throws ConfigError naming prometheus_port when it cannot,
// as a taken native_transport_port stops the node.
std::unique_ptr<metrics::MetricsHttpServer> ListenForMetrics(const Config& config,
                                                             metrics::MetricRegistry& registry);

}  // namespace sibyl::server
