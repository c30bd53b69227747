#pragma once
// TcpTransport's one connection to one peer, for the messages this node
// sends it (its replies come back on the peer's own connection to us).
// Connects lazily on the first message, bound to our listen address;
// queues up to max_queued_bytes while connecting; writes everything queued
// with one write per batch. When the connection breaks or cannot be made,
// what is queued is dropped (counted), the sink hears OnPeerLost, and the
// next message reconnects after a backoff that doubles up to max_backoff.
//
// Thread-safety: Enqueue and Stop may be called from any thread. The socket,
// timers and the coroutines live on the connection's strand; the queue is
// shared with senders under `mutex_`, never held across I/O.

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (kept apart so include sorting leaves it first)

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <memory>
#include <mutex>
#include <vector>

#include "messaging/message.h"
#include "messaging/peer_traffic.h"
#include "messaging/tcp_transport_options.h"
#include "messaging/transport.h"

namespace sibyl::messaging {

class OutboundConnection : public std::enable_shared_from_this<OutboundConnection> {
 public:
  // `local` is our listen address with its port resolved.
  // REQUIRES: `sink` outlives the io_context's last run.
  OutboundConnection(boost::asio::io_context& io, const TcpTransportOptions& options,
                     PeerAddress local, PeerAddress peer, MessageSink& sink,
                     std::shared_ptr<AtomicPeerCounters> counters);

  void Enqueue(Message message);
  // Drops the queue and closes the socket; the coroutines end soon after.
  void Stop();

 private:
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

  boost::asio::awaitable<void> Run();
  boost::asio::awaitable<bool> Connect();
  // Writes until the connection breaks or the transport stops.
  boost::asio::awaitable<void> Session();
  boost::asio::awaitable<void> WatchForClose(uint64_t generation);
  // Moves the queue into batch_; true if there was anything, else marks
  // the writer as waiting for a wake-up.
  bool TakeQueue();
  void DropQueue();
  void CloseSocket();
  // After a session or an attempt: false when the coroutine should end.
  bool KeepRunning();

  const TcpTransportOptions& options_;
  const PeerAddress local_;
  const PeerAddress peer_;
  MessageSink& sink_;
  const std::shared_ptr<AtomicPeerCounters> counters_;
  std::atomic<bool> stopping_{false};

  // On the strand only.
  Strand strand_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer wakeup_;  // the idle writer sleeps on it
  boost::asio::steady_timer backoff_timer_;
  boost::asio::steady_timer connect_timer_;
  uint64_t generation_ = 0;  // one per connection attempt
  bool broken_ = false;      // the peer closed the session's socket
  Duration backoff_;
  TimePoint next_attempt_{};
  std::vector<Message> batch_;
  Bytes write_buffer_;

  std::mutex mutex_;
  std::vector<Message> queue_;   // GUARDED_BY(mutex_)
  size_t queued_bytes_ = 0;      // GUARDED_BY(mutex_)
  bool running_ = false;         // GUARDED_BY(mutex_): Run() is active
  bool writer_waiting_ = false;  // GUARDED_BY(mutex_): Session() sleeps on wakeup_
};

}  // namespace sibyl::messaging
