#include "messaging/outbound_connection.h"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "messaging/message_codec.h"

namespace sibyl::messaging {

namespace asio = boost::asio;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

// The first frame of every connection: our listen port, since the peer sees
// only the address and the ephemeral port of the socket (tcp_transport.h).
Message Hello(uint16_t listen_port) {
  Message hello;
  hello.verb = Verb::kHello;
  hello.kind = MessageKind::kOneWay;
  AppendBE16(hello.payload, listen_port);
  return hello;
}

}  // namespace

OutboundConnection::OutboundConnection(asio::io_context& io, const TcpTransportOptions& options,
                                       PeerAddress local, PeerAddress peer, MessageSink& sink,
                                       std::shared_ptr<AtomicPeerCounters> counters)
    : options_(options),
      local_(std::move(local)),
      peer_(std::move(peer)),
      sink_(sink),
      counters_(std::move(counters)),
      strand_(asio::make_strand(io)),
      socket_(strand_),
      wakeup_(strand_),
      backoff_timer_(strand_),
      connect_timer_(strand_),
      backoff_(options.initial_backoff) {}

void OutboundConnection::Enqueue(Message message) {
  const size_t size = FrameSize(message);
  bool start = false;
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_.load() ||
        (queued_bytes_ > 0 && queued_bytes_ + size > options_.max_queued_bytes)) {
      counters_->Add(counters_->messages_dropped, 1);
      return;
    }
    queued_bytes_ += size;
    queue_.push_back(std::move(message));
    if (!running_) {
      running_ = start = true;
    } else if (writer_waiting_) {
      writer_waiting_ = false;
      wake = true;
    }
  }
  auto self = shared_from_this();
  if (start)
    asio::co_spawn(
        strand_, [self] { return self->Run(); }, asio::detached);
  // The writer may have checked the queue but not begun to wait: the wake-up
  // runs on the strand, so only once it waits.
  if (wake) asio::post(strand_, [self] { self->wakeup_.cancel(); });
}

void OutboundConnection::Stop() {
  stopping_.store(true);
  DropQueue();
  asio::post(strand_, [self = shared_from_this()] {
    self->CloseSocket();
    self->wakeup_.cancel();
    self->backoff_timer_.cancel();
    self->connect_timer_.cancel();
  });
}

void OutboundConnection::DropQueue() {
  std::lock_guard lock(mutex_);
  counters_->Add(counters_->messages_dropped, queue_.size());
  queue_.clear();
  queued_bytes_ = 0;
}

void OutboundConnection::CloseSocket() {
  boost::system::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

bool OutboundConnection::KeepRunning() {
  std::lock_guard lock(mutex_);
  if (stopping_.load() || queue_.empty()) {
    running_ = false;
    return false;
  }
  return true;
}

asio::awaitable<void> OutboundConnection::Run() {
  for (;;) {
    if (!stopping_.load() && SchedulerClock::now() < next_attempt_) {
      boost::system::error_code ignored;
      backoff_timer_.expires_at(next_attempt_);
      co_await backoff_timer_.async_wait(asio::redirect_error(use_awaitable, ignored));
    }
    if (stopping_.load()) break;
    if (co_await Connect()) {
      backoff_ = options_.initial_backoff;
      co_await Session();
      next_attempt_ = SchedulerClock::now() + options_.initial_backoff;
    } else {
      next_attempt_ = SchedulerClock::now() + backoff_;
      backoff_ = std::min(backoff_ * 2, options_.max_backoff);
    }
    CloseSocket();
    if (stopping_.load()) break;
    DropQueue();
    sink_.OnPeerLost(peer_);
    if (!KeepRunning()) co_return;
  }
  std::lock_guard lock(mutex_);
  running_ = false;
}

asio::awaitable<bool> OutboundConnection::Connect() {
  boost::system::error_code ec;
  const tcp::endpoint remote(asio::ip::make_address(peer_.ip, ec), peer_.port);
  if (ec) co_return false;
  socket_ = tcp::socket(strand_);
  socket_.open(remote.protocol(), ec);
  // Bound to the listen address, so the peer sees this node as configured
  // and not as whichever local address routes to it.
  if (!ec) socket_.bind(tcp::endpoint(asio::ip::make_address(local_.ip, ec), 0), ec);
  if (ec) {
    spdlog::warn("Cannot bind an internode socket to {}: {}", local_.ip, ec.message());
    co_return false;
  }
  const uint64_t generation = ++generation_;
  connect_timer_.expires_after(options_.connect_timeout);
  connect_timer_.async_wait([self = shared_from_this(), generation](boost::system::error_code e) {
    if (!e && generation == self->generation_) self->CloseSocket();
  });
  co_await socket_.async_connect(remote, asio::redirect_error(use_awaitable, ec));
  connect_timer_.cancel();
  if (ec || stopping_.load()) {
    spdlog::debug("Cannot connect to {}: {}", peer_.ToString(), ec.message());
    co_return false;
  }
  socket_.set_option(tcp::no_delay(true), ec);
  co_return true;
}

bool OutboundConnection::TakeQueue() {
  std::lock_guard lock(mutex_);
  if (queue_.empty()) {
    writer_waiting_ = true;
    return false;
  }
  batch_.swap(queue_);
  queued_bytes_ = 0;
  return true;
}

asio::awaitable<void> OutboundConnection::Session() {
  broken_ = false;
  asio::co_spawn(
      strand_, [self = shared_from_this(), g = generation_] { return self->WatchForClose(g); },
      asio::detached);
  write_buffer_.clear();
  AppendFrame(Hello(local_.port), write_buffer_);
  while (!broken_ && !stopping_.load()) {
    if (!TakeQueue() && write_buffer_.empty()) {
      boost::system::error_code ignored;
      wakeup_.expires_at(asio::steady_timer::time_point::max());
      co_await wakeup_.async_wait(asio::redirect_error(use_awaitable, ignored));
      continue;
    }
    for (const Message& message : batch_) AppendFrame(message, write_buffer_);
    const size_t count = batch_.size();
    batch_.clear();
    boost::system::error_code ec;
    co_await asio::async_write(socket_, asio::buffer(write_buffer_),
                               asio::redirect_error(use_awaitable, ec));
    if (ec) {
      // Some of these may have arrived; the callers' timeouts decide.
      counters_->Add(counters_->messages_dropped, count);
      break;
    }
    counters_->Add(counters_->messages_sent, count);
    counters_->Add(counters_->bytes_sent, write_buffer_.size());
    write_buffer_.clear();
  }
}

asio::awaitable<void> OutboundConnection::WatchForClose(uint64_t generation) {
  // The peer never writes on this connection: any read completion means it
  // closed (or broke the protocol), and the writer must stop.
  char byte;
  boost::system::error_code ignored;
  co_await socket_.async_read_some(asio::buffer(&byte, 1),
                                   asio::redirect_error(use_awaitable, ignored));
  if (generation != generation_) co_return;
  broken_ = true;
  wakeup_.cancel();
}

}  // namespace sibyl::messaging
