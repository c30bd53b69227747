#pragma once
// What every connection shares: the configuration, the statement layer and
// the event bus. Owned by the node; outlives the server and its connections.

#include <boost/asio/thread_pool.hpp>

#include "guardrails/model_warnings.h"
#include "query/query_processor.h"
#include "server/config.h"
#include "server/event_bus.h"

namespace sibyl::server {

class RequestMetrics;

struct ServerContext {
  const Config& config;
  query::QueryProcessor& processor;
  EventBus& events;
  // Where statements run when they may wait for other nodes (a node of a
  // cluster); null: on the connection's reactor thread.
  boost::asio::thread_pool* statement_workers = nullptr;
  // Where every QUERY, PREPARE, EXECUTE and BATCH is counted and timed
  // (docs/metrics.md); null: nowhere (tests, prometheus_enabled: false).
  RequestMetrics* request_metrics = nullptr;
  // Where the rules each statement broke are counted
  // (system_views.model_warnings); null: nowhere (tests).
  guardrails::ModelWarnings* model_warnings = nullptr;
};

}  // namespace sibyl::server
