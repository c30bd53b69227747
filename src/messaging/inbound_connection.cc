#include "messaging/inbound_connection.h"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace sibyl::messaging {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {
// Read at least this much per read() so that a burst costs few syscalls.
constexpr size_t kReadChunk = 64 * 1024;
}  // namespace

InboundConnection::InboundConnection(tcp::socket socket, MessageSink& sink, PeerTraffic& traffic,
                                     size_t max_payload)
    : socket_(std::move(socket)), sink_(sink), traffic_(traffic), decoder_(max_payload) {}

void InboundConnection::Start() {
  boost::system::error_code ignored;
  socket_.set_option(tcp::no_delay(true), ignored);
  asio::co_spawn(
      socket_.get_executor(), [self = shared_from_this()] { return self->ReadLoop(); },
      asio::detached);
}

void InboundConnection::Close() {
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ignored;
    self->socket_.shutdown(tcp::socket::shutdown_both, ignored);
    self->socket_.close(ignored);
  });
}

asio::awaitable<void> InboundConnection::ReadLoop() {
  Message message;
  for (;;) {
    auto space = decoder_.PrepareRead(kReadChunk);
    boost::system::error_code ec;
    const size_t n = co_await socket_.async_read_some(
        asio::buffer(space.data(), space.size()), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) break;
    decoder_.CommitRead(n);
    bool close = false;
    while (!close) {
      const DecodeResult result = decoder_.Next(message);
      if (result == DecodeResult::kNeedMore) break;
      if (result == DecodeResult::kError) {
        spdlog::warn("Closing the internode connection from {}: {}",
                     from_ ? from_->ToString() : std::string("a peer"), decoder_.error());
        close = true;
      } else {
        close = !Take(message);
      }
    }
    if (close) break;
  }
  boost::system::error_code ignored;
  socket_.close(ignored);
}

bool InboundConnection::Take(Message& message) {
  const bool hello = message.verb == Verb::kHello;
  if (!from_) {
    boost::system::error_code ec;
    const auto remote = socket_.remote_endpoint(ec);
    if (!hello || message.kind != MessageKind::kOneWay || message.payload.size() != 2 || ec) {
      spdlog::warn("Closing an internode connection that did not begin with HELLO");
      return false;
    }
    from_ = PeerAddress{remote.address().to_string(), LoadBE16(message.payload.data())};
    counters_ = traffic_.For(*from_);
    return true;
  }
  if (hello) {
    spdlog::warn("Closing the internode connection from {}: a second HELLO", from_->ToString());
    return false;
  }
  counters_->Add(counters_->messages_received, 1);
  counters_->Add(counters_->bytes_received, FrameSize(message));
  sink_.OnMessage(*from_, std::move(message));
  return true;
}

}  // namespace sibyl::messaging
