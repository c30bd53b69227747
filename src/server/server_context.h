#pragma once
// What every connection shares: the configuration, the statement layer and
// the event bus. Owned by the node; outlives the server and its connections.

#include "query/query_processor.h"
#include "server/config.h"
#include "server/event_bus.h"

namespace sibyl::server {

struct ServerContext {
  const Config& config;
  query::QueryProcessor& processor;
  EventBus& events;
};

}  // namespace sibyl::server
