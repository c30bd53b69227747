#pragma once
// One client connection: a reader coroutine that feeds the socket into the
// protocol codec and dispatches each request envelope, and a writer
// coroutine that sends the codec's coalesced output with one write per
// batch of responses. After each batch of requests the reader sends the
// answers itself when the socket takes them at once (the common case, which
// spares waking the writer); the writer sends the rest, and events. Output
// leaves in codec order because only one of them writes at a time. Both run
// on the connection's reactor thread, so the state below is touched by one
// thread only.

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (kept apart so include sorting leaves it first)

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>

#include "protocol/connection_codec.h"
#include "server/event_bus.h"
#include "server/request_dispatcher.h"

namespace sibyl::server {

struct ServerContext;

class Connection : public ConnectionHandle, public std::enable_shared_from_this<Connection> {
 public:
  Connection(boost::asio::ip::tcp::socket socket, ServerContext& context,
             std::atomic<int>& open_connections);
  ~Connection() override;

  boost::asio::any_io_executor executor() { return socket_.get_executor(); }

  // REQUIRES: called on the connection's reactor thread.
  void Start();
  void Close();

  // EventSubscriber: posts the event to this connection's thread.
  void Deliver(std::shared_ptr<const Event> event) override;
  // ConnectionHandle: posts a worker's finished statement to this connection's thread.
  void PostCompletion(std::unique_ptr<CompletedStatement> completed) override;

 private:
  boost::asio::awaitable<void> ReadLoop();
  boost::asio::awaitable<void> WriteLoop();
  void WakeWriter();
  // Writes queued output now, without blocking, when no write is in flight;
  // wakes the writer for whatever the socket does not take.
  void FlushOutput();
  void SendEvent(const Event& event);

  boost::asio::ip::tcp::socket socket_;
  ServerContext& context_;
  std::atomic<int>& open_connections_;
  protocol::ConnectionCodec codec_;
  RequestDispatcher dispatcher_;

  // The writer sleeps on this timer (expiry at infinity); cancel() wakes it.
  boost::asio::steady_timer writer_wakeup_;
  // The reader waits here when too much output is queued for a slow reader.
  boost::asio::steady_timer output_drained_;
  Bytes write_buffer_;            // the bytes of the writer's write in flight, taken from the codec
  bool write_in_flight_ = false;  // the writer's async_write has not completed
  bool closing_ = false;
  bool close_after_flush_ = false;
};

}  // namespace sibyl::server
