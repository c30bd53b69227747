#include "server/cql_server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>

#include "server/connection.h"
#include "server/crash_handler.h"
#include "server/server_context.h"

namespace sibyl::server {

namespace asio = boost::asio;
using asio::ip::tcp;

CqlServer::CqlServer(const Config& config, ServerContext& context)
    : config_(config), context_(context) {
  size_t threads = config.reactor_threads > 0 ? config.reactor_threads
                                              : std::max(1u, std::thread::hardware_concurrency());
  for (size_t i = 0; i < threads; ++i) {
    // Concurrency hint 1: each io_context is run by exactly one thread.
    reactors_.push_back(std::make_unique<asio::io_context>(1));
  }
}

CqlServer::~CqlServer() { Stop(); }

void CqlServer::Listen() {
  const std::string address = config_.native_address();
  const auto port = static_cast<uint16_t>(config_.native_transport_port);
  boost::system::error_code ec;
  auto ip = asio::ip::make_address(address, ec);
  if (ec) throw ConfigError("Invalid native transport address " + address);
  tcp::endpoint endpoint(ip, port);
  acceptor_ = std::make_unique<tcp::acceptor>(*reactors_[0]);
  const std::string where = address + ":" + std::to_string(port);
  if (acceptor_->open(endpoint.protocol(), ec); ec) {
    throw ConfigError("Cannot listen for CQL clients on " + where + ": " + ec.message());
  }
  acceptor_->set_option(tcp::acceptor::reuse_address(true), ec);
  if (acceptor_->bind(endpoint, ec); ec) {
    throw ConfigError("Cannot listen for CQL clients on " + where + ": " + ec.message());
  }
  if (acceptor_->listen(asio::socket_base::max_listen_connections, ec); ec) {
    throw ConfigError("Cannot listen for CQL clients on " + where + ": " + ec.message());
  }
}

std::string CqlServer::bound_address() const {
  return acceptor_->local_endpoint().address().to_string();
}
uint16_t CqlServer::bound_port() const { return acceptor_->local_endpoint().port(); }

void CqlServer::Start() {
  Accept();
  for (auto& reactor : reactors_) {
    guards_.push_back(asio::make_work_guard(*reactor));
    threads_.emplace_back([ctx = reactor.get()] {
      UseAlternateSignalStack();
      ctx->run();
    });
  }
}

void CqlServer::Accept() {
  auto& target = *reactors_[next_reactor_++ % reactors_.size()];
  acceptor_->async_accept(target, [this](boost::system::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_->is_open()) return;
    if (ec) {
      spdlog::warn("Failed to accept a CQL connection: {}", ec.message());
    } else {
      const int limit = config_.native_transport_max_concurrent_connections;
      if (limit >= 0 && open_connections_.load() >= limit) {
        spdlog::warn(
            "Refusing CQL connection: native_transport_max_concurrent_connections ({}) reached",
            limit);
        socket.close(ec);
      } else {
        socket.set_option(tcp::no_delay(true), ec);
        connections_opened_.fetch_add(1, std::memory_order_relaxed);
        auto connection =
            std::make_shared<Connection>(std::move(socket), context_, open_connections_);
        {
          std::lock_guard lock(connections_mutex_);
          std::erase_if(connections_, [](const auto& c) { return c.expired(); });
          connections_.push_back(connection);
        }
        // Start on the connection's own reactor.
        asio::post(connection->executor(), [connection] { connection->Start(); });
      }
    }
    Accept();
  });
}

void CqlServer::Stop() {
  if (threads_.empty()) return;
  asio::post(*reactors_[0], [this] {
    boost::system::error_code ec;
    if (acceptor_) acceptor_->close(ec);
  });
  {
    std::lock_guard lock(connections_mutex_);
    for (auto& weak : connections_) {
      if (auto c = weak.lock()) asio::post(c->executor(), [c] { c->Close(); });
    }
    connections_.clear();
  }
  // Connections close on their reactors; whatever is still running after a
  // grace period is stopped outright so shutdown stays well under 5 seconds.
  std::mutex m;
  std::condition_variable cv;
  bool joined = false;
  std::thread watchdog([&] {
    std::unique_lock lock(m);
    if (!cv.wait_for(lock, std::chrono::seconds(2), [&] { return joined; })) {
      for (auto& r : reactors_) r->stop();
    }
  });
  // Let run() return once the closes have run and nothing is left to do.
  guards_.clear();
  for (auto& t : threads_) t.join();
  {
    std::lock_guard lock(m);
    joined = true;
  }
  cv.notify_all();
  watchdog.join();
  threads_.clear();
}

}  // namespace sibyl::server
