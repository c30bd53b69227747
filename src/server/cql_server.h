#pragma once
// The CQL front door: reactor threads, the listening socket, and the set of
// open connections. One io_context per reactor thread; a connection lives
// on one reactor for its whole life, so its state needs no locks.

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/config.h"

namespace sibyl::server {

class Connection;
struct ServerContext;

class CqlServer {
 public:
  CqlServer(const Config& config, ServerContext& context);
  ~CqlServer();

  // Binds and listens. Throws ConfigError (one line) when the address cannot
  // be bound (port in use, address not local).
  void Listen();
  // Starts the reactor threads and begins accepting.
  void Start();
  // Stops accepting, closes every connection and joins the reactor threads.
  void Stop();

  // The address actually bound (port resolved when 0 was asked for).
  std::string bound_address() const;
  uint16_t bound_port() const;

  // CQL connections open now, and opened since start (for the metrics).
  int open_connections() const { return open_connections_.load(std::memory_order_relaxed); }
  uint64_t connections_opened() const {
    return connections_opened_.load(std::memory_order_relaxed);
  }

 private:
  void Accept();

  const Config& config_;
  ServerContext& context_;
  // Declared before the reactors: connections still queued in an io_context
  // when it is destroyed decrement it from their destructors.
  std::atomic<int> open_connections_{0};
  std::atomic<uint64_t> connections_opened_{0};
  std::vector<std::unique_ptr<boost::asio::io_context>> reactors_;
  std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guards_;
  std::vector<std::thread> threads_;
  std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor_;  // lives on reactor 0
  size_t next_reactor_ = 0;

  std::mutex connections_mutex_;
  std::vector<std::weak_ptr<Connection>> connections_;  // GUARDED_BY(connections_mutex_)
};

}  // namespace sibyl::server
