#pragma once
// The metrics endpoint: a small HTTP/1.1 server on its own thread that
// answers GET /metrics with `render()` in Prometheus' text format
// (docs/metrics.md). Any other path is 404, any other method 405 (HEAD is
// GET without the body); a request head that does not parse is 400, one
// longer than max_head_bytes 431, and the connection is closed after either.
//
//   MetricsHttpServer server({.address = "127.0.0.1", .port = 9180},
//                            [&registry] { return registry.Render(); });
//   server.Listen();   // throws MetricsListenError when the port is taken
//   server.Start();
//   ...
//   server.Stop();
//
// Limits, so that a scraper gone wrong or a stray client cannot hurt the
// node: at most max_connections at once (more are closed at accept), and
// each request head must arrive whole within request_timeout of the
// connection's last answer (or its opening): a client that sends nothing,
// or dribbles bytes, is closed. Keep-alive is honoured so a scraper reuses
// its connection.
//
// Thread-safety: Listen, Start and Stop from one thread (the node's).
// Connections run on the server's own thread, which also calls `render`;
// render must be safe to call from there (MetricRegistry::Render is).

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace sibyl::metrics {

// The endpoint could not listen: a bad address, or the port is taken.
class MetricsListenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class MetricsHttpServer {
 public:
  struct Options {
    std::string address = "127.0.0.1";
    uint16_t port = 9180;  // 0: any free port (tests)
    size_t max_head_bytes = 8192;
    std::chrono::milliseconds request_timeout{30000};
    int max_connections = 32;
  };

  MetricsHttpServer(Options options, std::function<std::string()> render);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // Binds and listens. Throws MetricsListenError ("ADDR:PORT: <reason>").
  void Listen();
  // Starts the server's thread. REQUIRES: Listen() succeeded.
  void Start();
  // Closes the listener and every connection and joins the thread.
  void Stop();

  uint16_t bound_port() const;

 private:
  class Connection;
  void Accept();

  const Options options_;
  const std::function<std::string()> render_;
  boost::asio::io_context io_{1};
  std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor_;
  std::thread thread_;
  // Touched on the server's thread only.
  int open_connections_ = 0;
  bool stopping_ = false;
};

}  // namespace sibyl::metrics
