#include "metadata/etcd_transport.h"

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (kept apart so include sorting leaves it first)

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <exception>
#include <optional>

namespace sibyl::metadata {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

// Replies bigger than this are refused: a range over the whole log stays
// far below it (entries are at most etcd's request limit, 1.5 MiB by default).
constexpr uint64_t kMaxReplyBytes = 256ull << 20;

std::string Describe(const boost::system::error_code& error) {
  if (error == beast::error::timeout) return "timed out";
  return error.message();
}

}  // namespace

EtcdEndpoint EtcdEndpoint::Parse(std::string_view text) {
  const std::string original(text);
  if (text.starts_with("https://")) {
    throw std::invalid_argument("etcd endpoint " + original + ": https is not supported");
  }
  if (text.starts_with("http://")) text.remove_prefix(7);
  while (text.ends_with('/')) text.remove_suffix(1);
  EtcdEndpoint endpoint;
  size_t colon;
  if (text.starts_with('[')) {
    const size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      throw std::invalid_argument("etcd endpoint " + original + ": expected [address]:port");
    }
    endpoint.host = std::string(text.substr(1, close - 1));
    colon = close + 1;
  } else {
    colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
      throw std::invalid_argument("etcd endpoint " + original + ": expected host:port");
    }
    endpoint.host = std::string(text.substr(0, colon));
  }
  endpoint.port = std::string(text.substr(colon + 1));
  if (endpoint.port.empty() || endpoint.port.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("etcd endpoint " + original + ": bad port");
  }
  return endpoint;
}

std::string EtcdEndpoint::ToString() const {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

std::string DescribeEndpoints(const std::vector<EtcdEndpoint>& endpoints) {
  std::string out;
  for (const EtcdEndpoint& endpoint : endpoints) {
    if (!out.empty()) out += ", ";
    out += endpoint.ToString();
  }
  return out;
}

net::ip::tcp::resolver::results_type ResolveEndpoint(const EtcdEndpoint& endpoint) {
  net::io_context io;
  net::ip::tcp::resolver resolver(io);
  boost::system::error_code error;
  auto results = resolver.resolve(endpoint.host, endpoint.port, error);
  if (error) {
    throw HttpFailure(HttpFailure::Stage::kConnect,
                      "cannot resolve " + endpoint.ToString() + ": " + error.message());
  }
  return results;
}

HttpReply PostJson(const EtcdEndpoint& endpoint, std::string_view target, std::string body,
                   const HttpTimeouts& timeouts) {
  const auto addresses = ResolveEndpoint(endpoint);
  net::io_context io;
  beast::tcp_stream stream(io);
  HttpFailure::Stage stage = HttpFailure::Stage::kConnect;
  std::optional<HttpReply> reply;
  std::exception_ptr failure;
  auto exchange = [&]() -> net::awaitable<void> {
    stream.expires_after(timeouts.connect);
    co_await stream.async_connect(addresses, net::use_awaitable);
    stage = HttpFailure::Stage::kExchange;
    stream.expires_after(timeouts.request);
    http::request<http::string_body> request{http::verb::post, std::string(target), 11};
    request.set(http::field::host, endpoint.ToString());
    request.set(http::field::content_type, "application/json");
    request.body() = std::move(body);
    request.prepare_payload();
    co_await http::async_write(stream, request, net::use_awaitable);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxReplyBytes);
    co_await http::async_read(stream, buffer, parser, net::use_awaitable);
    reply = HttpReply{parser.get().result_int(), std::move(parser.get().body())};
  };
  net::co_spawn(io, exchange, [&](std::exception_ptr error) { failure = error; });
  io.run();
  boost::system::error_code ignored;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  if (reply) return std::move(*reply);
  std::string reason = "failed";
  try {
    if (failure) std::rethrow_exception(failure);
  } catch (const boost::system::system_error& e) {
    reason = Describe(e.code());
  } catch (const std::exception& e) {
    reason = e.what();
  }
  const char* what = stage == HttpFailure::Stage::kConnect ? "connect to " : "request to ";
  throw HttpFailure(stage, what + endpoint.ToString() + ": " + reason);
}

void EnableKeepAlive(net::ip::tcp::socket& socket) {
  socket.set_option(net::socket_base::keep_alive(true));
  const int fd = socket.native_handle();
  const int idle = 10, interval = 5, count = 3;
  // Best effort: without them the kernel's defaults (two hours) apply.
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

}  // namespace sibyl::metadata
