#include "metrics/metrics_http_server.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "metrics/http_request_parser.h"

namespace sibyl::metrics {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

constexpr std::string_view kMetricsPath = "/metrics";
// Prometheus' text format, version 0.0.4.
constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

std::string Response(std::string_view status, std::string_view content_type, std::string_view body,
                     bool send_body, bool keep_alive, std::string_view extra_header = {}) {
  std::string out = "HTTP/1.1 ";
  out += status;
  out += "\r\nContent-Type: ";
  out += content_type;
  out += "\r\nContent-Length: ";
  out += std::to_string(body.size());
  out += keep_alive ? "\r\nConnection: keep-alive\r\n" : "\r\nConnection: close\r\n";
  out += extra_header;
  out += "\r\n";
  if (send_body) out += body;
  return out;
}

std::string PlainResponse(std::string_view status, bool keep_alive,
                          std::string_view extra_header = {}) {
  return Response(status, "text/plain; charset=utf-8", std::string(status) + "\n", true, keep_alive,
                  extra_header);
}

}  // namespace

// One client connection, on the server's thread. Reads a request head,
// answers it, and goes on while the client keeps the connection alive.
class MetricsHttpServer::Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(MetricsHttpServer& server, tcp::socket socket)
      : server_(server),
        socket_(std::move(socket)),
        deadline_(socket_.get_executor()),
        parser_({.max_head_bytes = server.options_.max_head_bytes}) {}

  asio::awaitable<void> Run() {
    ++server_.open_connections_;
    std::string pending;  // bytes read past the last request's head
    char buffer[4096];
    bool open = true;
    while (open && !server_.stopping_) {
      // The whole head must come within request_timeout: a silent or a slow
      // client alike is closed.
      ArmDeadline();
      parser_.Reset();
      HttpParse state = HttpParse::kNeedMore;
      if (!pending.empty()) {
        state = parser_.Feed(pending);
        pending.erase(0, state == HttpParse::kComplete ? parser_.consumed() : pending.size());
      }
      while (state == HttpParse::kNeedMore) {
        boost::system::error_code ec;
        const size_t n = co_await socket_.async_read_some(
            asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (ec) {
          open = false;
          break;
        }
        const std::string_view got(buffer, n);
        state = parser_.Feed(got);
        if (state == HttpParse::kComplete) pending.assign(got.substr(parser_.consumed()));
      }
      deadline_.cancel();
      if (!open) break;
      std::string response;
      if (state == HttpParse::kBad) {
        response = PlainResponse("400 Bad Request", false);
        open = false;
      } else if (state == HttpParse::kTooLarge) {
        response = PlainResponse("431 Request Header Fields Too Large", false);
        open = false;
      } else {
        const HttpRequest& request = parser_.request();
        // A request with a body is answered and the connection closed rather
        // than read the body: no scrape sends one.
        const bool keep_alive = request.keep_alive && !request.has_body;
        const bool head = request.method == "HEAD";
        if (request.method != "GET" && !head) {
          response = PlainResponse("405 Method Not Allowed", keep_alive, "Allow: GET, HEAD\r\n");
        } else if (request.path != kMetricsPath) {
          response = PlainResponse("404 Not Found", keep_alive);
        } else {
          response = Response("200 OK", kMetricsContentType, server_.render_(), !head, keep_alive);
        }
        open = keep_alive;
      }
      // The answer is bounded by the deadline too: a client that does not
      // read is closed.
      ArmDeadline();
      boost::system::error_code ec;
      co_await asio::async_write(socket_, asio::buffer(response),
                                 asio::redirect_error(asio::use_awaitable, ec));
      deadline_.cancel();
      if (ec) break;
    }
    co_await LingeringClose();
    --server_.open_connections_;
  }

  // Closing with unread bytes from the client (a body we did not read, the
  // rest of a huge head) makes the kernel reset the connection, and the
  // client may lose our answer with it. So: stop sending, then read and drop
  // what the client still sends, for a little while, before closing (as
  // web servers' "lingering close").
  asio::awaitable<void> LingeringClose() {
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    if (!ec) {
      deadline_.expires_after(std::min<std::chrono::milliseconds>(server_.options_.request_timeout,
                                                                  std::chrono::seconds(2)));
      deadline_.async_wait([weak = weak_from_this()](boost::system::error_code wait_ec) {
        if (wait_ec) return;
        if (auto self = weak.lock()) self->Close();
      });
      char buffer[4096];
      for (size_t drained = 0; drained < 64 * 1024;) {
        const size_t n = co_await socket_.async_read_some(
            asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
        drained += n;
      }
      deadline_.cancel();
    }
    Close();
  }

  void Close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }

 private:
  void ArmDeadline() {
    deadline_.expires_after(server_.options_.request_timeout);
    deadline_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
      if (ec) return;  // cancelled: the request came in time
      if (auto self = weak.lock()) self->Close();
    });
  }

  MetricsHttpServer& server_;
  tcp::socket socket_;
  asio::steady_timer deadline_;
  HttpRequestParser parser_;
};

MetricsHttpServer::MetricsHttpServer(Options options, std::function<std::string()> render)
    : options_(std::move(options)), render_(std::move(render)) {}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

void MetricsHttpServer::Listen() {
  const std::string where = options_.address + ":" + std::to_string(options_.port);
  boost::system::error_code ec;
  const auto ip = asio::ip::make_address(options_.address, ec);
  if (ec) throw MetricsListenError(where + ": not an IP address");
  const tcp::endpoint endpoint(ip, options_.port);
  acceptor_ = std::make_unique<tcp::acceptor>(io_);
  if (acceptor_->open(endpoint.protocol(), ec); ec) {
    throw MetricsListenError(where + ": " + ec.message());
  }
  acceptor_->set_option(tcp::acceptor::reuse_address(true), ec);
  if (acceptor_->bind(endpoint, ec); ec) {
    throw MetricsListenError(where + ": " + ec.message());
  }
  if (acceptor_->listen(asio::socket_base::max_listen_connections, ec); ec) {
    throw MetricsListenError(where + ": " + ec.message());
  }
}

uint16_t MetricsHttpServer::bound_port() const { return acceptor_->local_endpoint().port(); }

void MetricsHttpServer::Start() {
  Accept();
  thread_ = std::thread([this] { io_.run(); });
}

void MetricsHttpServer::Accept() {
  acceptor_->async_accept([this](boost::system::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || stopping_) return;
    if (ec) {
      spdlog::warn("Failed to accept a metrics connection: {}", ec.message());
    } else if (open_connections_ >= options_.max_connections) {
      // A scraper opens one or two; more is a client gone wrong.
      boost::system::error_code ignored;
      socket.close(ignored);
    } else {
      auto connection = std::make_shared<Connection>(*this, std::move(socket));
      asio::co_spawn(
          io_, [connection]() { return connection->Run(); }, asio::detached);
    }
    Accept();
  });
}

void MetricsHttpServer::Stop() {
  if (!thread_.joinable()) return;
  asio::post(io_, [this] {
    stopping_ = true;
    boost::system::error_code ignored;
    acceptor_->close(ignored);
  });
  // Connections waiting for a request end at their deadline; the io_context
  // is stopped rather than wait for them. What is left of them is destroyed
  // with the io_context, on this thread, once the server's thread is gone.
  asio::post(io_, [this] { io_.stop(); });
  thread_.join();
}

}  // namespace sibyl::metrics
