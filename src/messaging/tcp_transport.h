#pragma once
// The Transport of a real node: internode TCP on listen_address:storage_port.
//
// Each peer is reached through one outgoing connection (outbound_connection.h),
// opened on the first message to it and bound to our listen address, so a
// node on 127.0.0.2 is 127.0.0.2 to everyone. Its messages to us arrive on
// the connection it opened (inbound_connection.h); each connection begins
// with a HELLO frame naming the sender's listen port, which with the
// connection's remote address is the sender's PeerAddress. Replies therefore
// travel on the replier's own outgoing connection, as in Cassandra.
//
// Thread-safety: Send and Counters may be called from any thread; Start and
// Stop once each, in that order. The sink is called on the transport's
// io threads. One-shot: a stopped transport is not started again (a node
// that restarts builds a new one).

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (kept apart so include sorting leaves it first)

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "messaging/peer_traffic.h"
#include "messaging/tcp_transport_options.h"
#include "messaging/transport.h"

namespace sibyl::messaging {

class InboundConnection;
class OutboundConnection;

class TcpTransport final : public Transport {
 public:
  explicit TcpTransport(TcpTransportOptions options);
  TcpTransport(const TcpTransport&) = delete;
  TcpTransport& operator=(const TcpTransport&) = delete;
  ~TcpTransport() override;  // Stop()

  // Listens and starts the io threads. Throws std::runtime_error naming the
  // address when it cannot listen (in use, not local).
  void Start(MessageSink& sink) override;
  void Send(const PeerAddress& to, Message message) override;
  // Closes the listener and every connection, drops what is queued
  // (counted), and joins the io threads.
  void Stop() override;
  PeerAddress local_address() const override;
  std::map<PeerAddress, PeerCounters> Counters() const override { return traffic_.Snapshot(); }

 private:
  boost::asio::awaitable<void> AcceptLoop();
  void Adopt(boost::asio::ip::tcp::socket socket);

  const TcpTransportOptions options_;
  // Before the members that use it, so destroyed after them: connections
  // still held by its handlers die with it and need its services.
  boost::asio::io_context io_;
  PeerTraffic traffic_;
  MessageSink* sink_ = nullptr;
  PeerAddress local_;  // the listen address with its port resolved, set by Start
  std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor_;  // on its own strand
  std::unique_ptr<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopped_{false};

  mutable std::mutex mutex_;
  std::map<PeerAddress, std::shared_ptr<OutboundConnection>> outbound_;  // GUARDED_BY(mutex_)
  std::vector<std::weak_ptr<InboundConnection>> inbound_;                // GUARDED_BY(mutex_)
};

}  // namespace sibyl::messaging
