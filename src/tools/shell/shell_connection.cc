#include "tools/shell/shell_connection.h"

#include <boost/asio/post.hpp>
#include <chrono>
#include <future>

namespace sibyl::tools::shell {
namespace {

// Owns the request's settings and the views QueryOptions holds into them.
struct OwnedRequest {
  RequestSettings settings;
  std::vector<Value> values;
  protocol::QueryOptions options;

  explicit OwnedRequest(RequestSettings s) : settings(std::move(s)) {
    values.reserve(settings.values.size());
    for (const auto& v : settings.values) values.push_back(v ? Value::Of(*v) : Value::Null());
    options.consistency = settings.consistency;
    options.serial_consistency = settings.serial_consistency;
    options.page_size = settings.page_size;
    if (settings.paging_state) options.paging_state = BytesView(*settings.paging_state);
    options.values = values;
  }
};

}  // namespace

ShellConnection::ShellConnection(client::ConnectionOptions options,
                                 const std::atomic<bool>* interrupted)
    : options_(std::move(options)), interrupted_(interrupted) {}

ShellConnection::~ShellConnection() {
  if (connection_) {
    boost::asio::post(connection_->executor(), [c = connection_] { c->Close(); });
  }
  if (io_) io_->Stop();
}

client::Reply ShellConnection::Connect() {
  if (connection_) {
    boost::asio::post(connection_->executor(), [c = connection_] { c->Close(); });
  }
  if (io_) io_->Stop();
  io_ = std::make_unique<client::IoThread>();
  connection_ = client::Connection::Create(io_->context(), options_);
  auto reply = Call(
      [](client::Connection& c, client::Connection::Callback done) { c.Connect(std::move(done)); });
  if (!reply) return client::Reply{client::TransportFailure{"connection aborted"}, {}};
  return std::move(*reply);
}

std::optional<client::Reply> ShellConnection::Call(
    std::function<void(client::Connection&, client::Connection::Callback)> start) {
  // Ctrl-C came before the request went out: it is not sent at all.
  if (interrupted_ != nullptr && interrupted_->load()) return std::nullopt;
  // Shared: the callback may run after this frame gave up waiting.
  auto promise = std::make_shared<std::promise<client::Reply>>();
  auto future = promise->get_future();
  boost::asio::post(connection_->executor(), [c = connection_, promise, start = std::move(start)] {
    start(*c, [promise](client::Reply&& r) { promise->set_value(std::move(r)); });
  });
  // The connection's timeouts end every request; this bound only guards
  // against an io thread that stopped.
  const auto limit = std::chrono::steady_clock::now() + options_.connect_timeout +
                     options_.request_timeout + std::chrono::seconds(5);
  while (future.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
    if (interrupted_ != nullptr && interrupted_->load()) return std::nullopt;
    if (std::chrono::steady_clock::now() > limit) {
      return client::Reply{client::TransportFailure{"no reply from the connection"}, {}};
    }
  }
  return future.get();
}

std::optional<client::Reply> ShellConnection::Query(std::string cql, RequestSettings settings) {
  auto request = std::make_shared<OwnedRequest>(std::move(settings));
  return Call(
      [cql = std::move(cql), request](client::Connection& c, client::Connection::Callback done) {
        c.Query(cql, request->options,
                [request, done = std::move(done)](client::Reply&& r) { done(std::move(r)); });
      });
}

std::optional<client::Reply> ShellConnection::Prepare(std::string cql) {
  return Call([cql = std::move(cql)](client::Connection& c, client::Connection::Callback done) {
    c.Prepare(cql, std::move(done));
  });
}

std::optional<client::Reply> ShellConnection::Execute(Bytes id, Bytes result_metadata_id,
                                                      RequestSettings settings) {
  auto request = std::make_shared<OwnedRequest>(std::move(settings));
  return Call([id = std::move(id), metadata_id = std::move(result_metadata_id), request](
                  client::Connection& c, client::Connection::Callback done) {
    c.Execute(id, metadata_id, request->options,
              [request, done = std::move(done)](client::Reply&& r) { done(std::move(r)); });
  });
}

}  // namespace sibyl::tools::shell
