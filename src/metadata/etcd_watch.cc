#include "metadata/etcd_watch.h"

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <stdexcept>

namespace sibyl::metadata {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

constexpr std::chrono::milliseconds kFirstBackoff{50};
constexpr std::chrono::milliseconds kMaxBackoff{2000};
// A message of the stream longer than this is refused (a watch event holds
// one value, bounded by etcd's request size limit).
constexpr size_t kMaxMessageBytes = 64u << 20;

}  // namespace

EtcdWatch::EtcdWatch(const EtcdOptions& options, WatchRange range, WatchCallbacks callbacks)
    : timeouts_{options.connect_timeout, options.request_timeout},
      range_(std::move(range)),
      callbacks_(std::move(callbacks)),
      next_revision_(range_.start_revision) {
  if (options.endpoints.empty()) throw std::invalid_argument("no etcd endpoint configured");
  for (const std::string& endpoint : options.endpoints) {
    endpoints_.push_back(EtcdEndpoint::Parse(endpoint));
  }
  net::co_spawn(io_, Run(), net::detached);
  thread_ = std::thread([this] { io_.run(); });
}

EtcdWatch::~EtcdWatch() { Cancel(); }

void EtcdWatch::Cancel() {
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

std::string EtcdWatch::last_error() const {
  std::lock_guard lock(mutex_);
  return last_error_;
}

net::awaitable<void> EtcdWatch::Run() {
  std::chrono::milliseconds backoff = kFirstBackoff;
  net::steady_timer timer(io_);
  for (size_t attempt = 0;; ++attempt) {
    const EtcdEndpoint& endpoint = endpoints_[attempt % endpoints_.size()];
    std::string error;
    created_ = false;
    try {
      co_await StreamFrom(endpoint);
      error = endpoint.ToString() + ": the watch stream ended";
    } catch (const std::exception& e) {
      error = endpoint.ToString() + ": " + e.what();
    }
    {
      std::lock_guard lock(mutex_);
      last_error_ = error;
    }
    // A stream that etcd accepted was healthy: start the backoff over.
    if (created_) backoff = kFirstBackoff;
    timer.expires_after(backoff);
    boost::system::error_code ignored;
    co_await timer.async_wait(net::redirect_error(net::use_awaitable, ignored));
    backoff = std::min(backoff * 2, kMaxBackoff);
  }
}

net::awaitable<void> EtcdWatch::StreamFrom(const EtcdEndpoint& endpoint) {
  const auto addresses = ResolveEndpoint(endpoint);
  beast::tcp_stream stream(io_);
  stream.expires_after(timeouts_.connect);
  co_await stream.async_connect(addresses, net::use_awaitable);
  EnableKeepAlive(stream.socket());
  stream.expires_after(timeouts_.request);
  http::request<http::string_body> request{http::verb::post, "/v3/watch", 11};
  request.set(http::field::host, endpoint.ToString());
  request.set(http::field::content_type, "application/json");
  request.body() = WatchCreateToJson(range_.key, range_.range_end, next_revision_);
  request.prepare_payload();
  co_await http::async_write(stream, request, net::use_awaitable);

  beast::flat_buffer buffer;
  http::response_parser<http::buffer_body> parser;
  parser.body_limit(boost::none);
  co_await http::async_read_header(stream, buffer, parser, net::use_awaitable);
  if (parser.get().result_int() != 200) {
    throw std::runtime_error("watch refused with HTTP " +
                             std::to_string(parser.get().result_int()));
  }
  // Quiet stretches are normal on a watch: from here on only TCP keepalive
  // notices a peer that vanished.
  stream.expires_never();
  std::string pending;
  char chunk[16384];
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof chunk;
    boost::system::error_code error;
    co_await http::async_read_some(stream, buffer, parser,
                                   net::redirect_error(net::use_awaitable, error));
    if (error && error != http::error::need_buffer) throw boost::system::system_error(error);
    pending.append(chunk, sizeof chunk - parser.get().body().size);
    // The gateway ends each message with a newline.
    size_t newline;
    while ((newline = pending.find('\n')) != std::string::npos) {
      const std::string message = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      if (message.find_first_not_of(" \r\t") != std::string::npos) Deliver(message);
    }
    if (pending.size() > kMaxMessageBytes) throw std::runtime_error("watch message too long");
  }
}

void EtcdWatch::Deliver(std::string_view text) {
  WatchMessage message = ParseWatchMessage(text);
  if (message.canceled) {
    if (message.compact_revision > 0) {
      // Events up to the compaction are gone; on_connected at the next
      // creation tells the receiver to read the state instead.
      next_revision_ = message.compact_revision;
      throw std::runtime_error("watch start revision compacted (now " +
                               std::to_string(message.compact_revision) + ")");
    }
    throw std::runtime_error("watch canceled by etcd: " + message.cancel_reason);
  }
  if (message.created) {
    created_ = true;
    callbacks_.on_connected();
  }
  if (!message.events.empty()) {
    // Moved on only once delivered: a callback that throws gets the same
    // events again after the reconnection.
    callbacks_.on_events(message.events);
    next_revision_ = message.events.back().kv.mod_revision + 1;
  }
}

}  // namespace sibyl::metadata
