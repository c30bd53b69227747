#include "client/blocking_call.h"

#include <boost/asio/post.hpp>
#include <future>
#include <memory>
#include <string>

namespace sibyl::client {

Reply BlockingCall(Connection& connection,
                   const std::function<void(Connection&, Connection::Callback)>& start) {
  // Shared: the callback may outlive this frame if the wait gives up.
  auto promise = std::make_shared<std::promise<Reply>>();
  auto future = promise->get_future();
  auto self = connection.shared_from_this();
  boost::asio::post(connection.executor(), [self, promise, start] {
    start(*self, [promise](Reply&& reply) { promise->set_value(std::move(reply)); });
  });
  const auto limit = connection.options().connect_timeout + connection.options().request_timeout +
                     std::chrono::seconds(5);
  if (future.wait_for(limit) != std::future_status::ready) {
    return Reply{TransportFailure{"no reply: the connection's io thread is not running"}, {}};
  }
  return future.get();
}

Reply BlockingConnect(Connection& connection) {
  return BlockingCall(connection,
                      [](Connection& c, Connection::Callback done) { c.Connect(std::move(done)); });
}

Reply BlockingQuery(Connection& connection, std::string_view cql,
                    const protocol::QueryOptions& options) {
  return BlockingCall(connection, [&](Connection& c, Connection::Callback done) {
    c.Query(cql, options, std::move(done));
  });
}

Reply BlockingPrepare(Connection& connection, std::string_view cql) {
  return BlockingCall(connection, [&](Connection& c, Connection::Callback done) {
    c.Prepare(cql, std::move(done));
  });
}

}  // namespace sibyl::client
