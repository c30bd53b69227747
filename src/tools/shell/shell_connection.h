#pragma once
// The shell's one connection to a node, on the project's client
// (src/client): requests wait for their reply on the calling thread, but
// give up at once when the user presses Ctrl-C (the reply, when it comes,
// is dropped), and a connection that was lost is opened again before the
// next request.
//
// Thread-safety: one thread (the shell's) calls every method; the
// connection itself runs on an io thread of its own.

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/client_connection.h"
#include "client/io_thread.h"
#include "protocol/request_encoder.h"

namespace sibyl::tools::shell {

// What a request carries beyond its text, owned so that a request the user
// gave up on can still be sent and answered safely.
struct RequestSettings {
  protocol::Consistency consistency = protocol::Consistency::kOne;
  std::optional<protocol::Consistency> serial_consistency;
  int32_t page_size = -1;  // <= 0: the whole result at once
  std::optional<Bytes> paging_state;
  std::vector<std::optional<Bytes>> values;  // EXECUTE's bound values; nullopt is null
};

class ShellConnection {
 public:
  // `interrupted`: set (by a signal handler) to abandon the request being
  // waited for; while it stays set no request is sent. The shell clears it.
  ShellConnection(client::ConnectionOptions options, const std::atomic<bool>* interrupted);
  ~ShellConnection();

  // Opens the connection (again). Returns READY or the failure.
  client::Reply Connect();
  bool is_ready() const { return connection_ != nullptr && connection_->is_ready(); }
  const client::ConnectionOptions& options() const { return options_; }

  // Each returns nullopt when the user interrupted the wait.
  std::optional<client::Reply> Query(std::string cql, RequestSettings settings);
  std::optional<client::Reply> Prepare(std::string cql);
  std::optional<client::Reply> Execute(Bytes id, Bytes result_metadata_id,
                                       RequestSettings settings);

  // For tools that pipeline (COPY): the connection and the thread running it.
  client::Connection& connection() { return *connection_; }

 private:
  std::optional<client::Reply> Call(
      std::function<void(client::Connection&, client::Connection::Callback)> start);

  client::ConnectionOptions options_;
  const std::atomic<bool>* interrupted_;
  std::unique_ptr<client::IoThread> io_;
  std::shared_ptr<client::Connection> connection_;
};

}  // namespace sibyl::tools::shell
