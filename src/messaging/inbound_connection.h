#pragma once
// A connection a peer opened to us, carrying what it sends us. Its first
// frame is HELLO with the peer's listen port; the peer's address is the
// socket's remote address (the peer binds its outgoing sockets to its listen
// address). Every later frame goes to the sink as coming from that address.
// A malformed frame, or a HELLO missing or repeated, closes the connection.
//
// Thread-safety: Close may be called from any thread; everything else runs
// on the connection's strand (the socket's executor).

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (kept apart so include sorting leaves it first)

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <optional>

#include "messaging/message_codec.h"
#include "messaging/peer_traffic.h"
#include "messaging/transport.h"

namespace sibyl::messaging {

class InboundConnection : public std::enable_shared_from_this<InboundConnection> {
 public:
  // REQUIRES: `sink` and `traffic` outlive the io_context's last run.
  InboundConnection(boost::asio::ip::tcp::socket socket, MessageSink& sink, PeerTraffic& traffic,
                    size_t max_payload);

  void Start();
  void Close();

 private:
  boost::asio::awaitable<void> ReadLoop();
  // Takes one decoded message; false when the connection must close.
  bool Take(Message& message);

  boost::asio::ip::tcp::socket socket_;
  MessageSink& sink_;
  PeerTraffic& traffic_;
  FrameDecoder decoder_;
  std::optional<PeerAddress> from_;  // known once HELLO has come
  std::shared_ptr<AtomicPeerCounters> counters_;
};

}  // namespace sibyl::messaging
