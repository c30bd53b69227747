#include "server/node.h"

#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>

#include "cluster/node_identity.h"
#include "query/query_processor.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"
#include "server/cql_server.h"
#include "server/data_directory.h"
#include "server/event_bus.h"
#include "server/server_context.h"
#include "server/version.h"

namespace sibyl::server {
namespace {

void SetUpLogging() {
  auto logger = spdlog::stdout_color_mt("sibyl");
  // Cassandra's system.log layout: level, thread, timestamp, message.
  logger->set_pattern("%^%-5l%$ [%t] %Y-%m-%d %H:%M:%S,%e %v");
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
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
  info.data_center = config.datacenter;
  info.rack = config.rack;
  info.host_id = types::Uuid::FromBytes(
      BytesView(reinterpret_cast<const char*>(identity.host_id.data()), identity.host_id.size()));
  info.gossip_generation =
      static_cast<int32_t>(std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
  for (auto token : identity.tokens) info.tokens.push_back(std::to_string(token));
  return info;
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

}  // namespace

int RunNode(const StartOptions& options) {
  const sigset_t shutdown_signals = BlockShutdownSignals();
  Config config = options.config;
  SetUpLogging();
  spdlog::info("{} starting", VersionLine());
  for (const auto& warning : options.warnings) spdlog::warn("{}", warning);

  try {
    DataDirectory data_dir(config.data_dir());
    std::string identity_warning;
    const auto identity =
        cluster::LoadOrCreateNodeIdentity(data_dir.path(), config.num_tokens, identity_warning);
    if (!identity_warning.empty()) spdlog::warn("{}", identity_warning);

    schema::LocalNodeInfo node_info = MakeLocalNodeInfo(config, identity);
    schema::SchemaStore schema_store(schema::MakeInitialSchema());
    schema::VirtualTables virtual_tables = schema::VirtualTables::SystemTables();
    query::QueryProcessor processor(schema_store, virtual_tables, node_info);
    EventBus events;
    ServerContext context{config, processor, events};

    CqlServer server(config, context);
    server.Listen();
    server.Start();
    spdlog::info("Node {} owns {} tokens; schema version {}", node_info.host_id.ToString(),
                 node_info.tokens.size(), schema_store.snapshot()->version().ToString());
    spdlog::info("Starting listening for CQL clients on {}:{} (unencrypted)...",
                 server.bound_address(), server.bound_port());

    int signal_number = 0;
    sigwait(&shutdown_signals, &signal_number);
    spdlog::info("Received {}, shutting down", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
    server.Stop();
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
