#pragma once
// Calling a Connection from a thread that does not run its io_context: for
// set-up steps (connect, create a schema, prepare) and interactive tools.
// REQUIRES: the connection's io thread is running. Never call these on that
// thread itself: they would wait for
// work that thread can no longer do.
//
//   Reply r = BlockingCall(*connection, [&](Connection& c, Connection::Callback done) {
//     c.Prepare("INSERT ...", std::move(done));
//   });

#include <chrono>
#include <functional>

#include "client/client_connection.h"

namespace sibyl::client {

// Runs `start(connection, done)` on the connection's executor and waits for
// `done`. The connection's own timeouts bound the wait; should its io thread
// stop without running the callback, the wait ends after
// connect_timeout + request_timeout + 5 s with a TransportFailure.
[[nodiscard]] Reply BlockingCall(
    Connection& connection, const std::function<void(Connection&, Connection::Callback)>& start);

// Shorthands.
[[nodiscard]] Reply BlockingConnect(Connection& connection);
[[nodiscard]] Reply BlockingQuery(Connection& connection, std::string_view cql,
                                  const protocol::QueryOptions& options = {});
[[nodiscard]] Reply BlockingPrepare(Connection& connection, std::string_view cql);

}  // namespace sibyl::client
