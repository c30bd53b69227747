#include "server/connection.h"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "server/server_context.h"

namespace sibyl::server {

namespace asio = boost::asio;
using asio::use_awaitable;

namespace {
// Read at least this much per read() so pipelined requests arrive in few syscalls.
constexpr size_t kReadChunk = 64 * 1024;
// Stop reading requests while more than this many response bytes wait for a
// client that does not read its socket.
constexpr size_t kMaxQueuedOutput = 8 * 1024 * 1024;
}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, ServerContext& context,
                       std::atomic<int>& open_connections)
    : socket_(std::move(socket)),
      context_(context),
      open_connections_(open_connections),
      codec_(protocol::CodecOptions{
          .max_frame_size = context.config.native_transport_max_frame_size, .connection_id = {}}),
      dispatcher_(context),
      writer_wakeup_(socket_.get_executor()),
      output_drained_(socket_.get_executor()) {
  open_connections_.fetch_add(1);
  writer_wakeup_.expires_at(asio::steady_timer::time_point::max());
  output_drained_.expires_at(asio::steady_timer::time_point::max());
}

Connection::~Connection() { open_connections_.fetch_sub(1); }

void Connection::Start() {
  boost::system::error_code ignored;
  socket_.non_blocking(true, ignored);  // FlushOutput's write_some must never block
  auto self = shared_from_this();
  asio::co_spawn(
      socket_.get_executor(), [self] { return self->ReadLoop(); }, asio::detached);
  asio::co_spawn(
      socket_.get_executor(), [self] { return self->WriteLoop(); }, asio::detached);
}

void Connection::Close() {
  if (closing_) return;
  closing_ = true;
  boost::system::error_code ec;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  writer_wakeup_.cancel();
  output_drained_.cancel();
}

void Connection::WakeWriter() { writer_wakeup_.cancel(); }

void Connection::FlushOutput() {
  if (write_in_flight_ || closing_ || !codec_.HasOutput()) return;
  BytesView out = codec_.Output();
  boost::system::error_code ec;
  const size_t n = socket_.write_some(asio::buffer(out.data(), out.size()), ec);
  if (!ec) codec_.ConsumeOutput(n);
  // A full socket (would_block) or an error: the writer waits for the
  // socket, or meets the error and closes the connection.
  if (codec_.HasOutput()) WakeWriter();
}

asio::awaitable<void> Connection::ReadLoop() {
  protocol::Envelope envelope;
  while (!closing_) {
    auto space = codec_.PrepareRead(kReadChunk);
    boost::system::error_code ec;
    const size_t n = co_await socket_.async_read_some(asio::buffer(space.data(), space.size()),
                                                      asio::redirect_error(use_awaitable, ec));
    if (ec || closing_) break;
    codec_.CommitRead(n);
    bool close = false;
    for (;;) {
      const auto result = codec_.Next(envelope);
      if (result == protocol::NextResult::kNeedMore) break;
      if (result == protocol::NextResult::kClose) {
        spdlog::debug("Closing CQL connection: {}", codec_.close_reason());
        close = true;
        break;
      }
      if (dispatcher_.Dispatch(envelope, codec_, shared_from_this()) == DispatchOutcome::kClose) {
        close = true;
        break;
      }
    }
    if (close) {
      close_after_flush_ = true;
      WakeWriter();
      co_return;
    }
    FlushOutput();
    while (!closing_ && codec_.HasOutput() && codec_.Output().size() > kMaxQueuedOutput) {
      boost::system::error_code ignored;
      co_await output_drained_.async_wait(asio::redirect_error(use_awaitable, ignored));
      output_drained_.expires_at(asio::steady_timer::time_point::max());
    }
  }
  Close();
}

asio::awaitable<void> Connection::WriteLoop() {
  while (!closing_) {
    if (!codec_.HasOutput()) {
      if (close_after_flush_) break;
      boost::system::error_code ignored;
      co_await writer_wakeup_.async_wait(asio::redirect_error(use_awaitable, ignored));
      writer_wakeup_.expires_at(asio::steady_timer::time_point::max());
      continue;
    }
    // Take the bytes out of the codec (a buffer swap) so responses and
    // events can keep queueing while this write is in flight.
    codec_.TakeOutput(write_buffer_);
    boost::system::error_code ec;
    write_in_flight_ = true;
    co_await asio::async_write(socket_, asio::buffer(write_buffer_),
                               asio::redirect_error(use_awaitable, ec));
    write_in_flight_ = false;
    if (ec) break;
    output_drained_.cancel();
  }
  Close();
}

void Connection::Deliver(std::shared_ptr<const Event> event) {
  asio::post(socket_.get_executor(), [self = shared_from_this(), event] {
    if (self->closing_ || self->close_after_flush_) return;
    self->SendEvent(*event);
  });
}

void Connection::PostCompletion(std::unique_ptr<CompletedStatement> completed) {
  asio::post(socket_.get_executor(),
             [self = shared_from_this(), completed = std::shared_ptr(std::move(completed))] {
               if (self->closing_ || self->close_after_flush_) return;
               self->dispatcher_.Complete(*completed, self->codec_);
               self->FlushOutput();
             });
}

void Connection::SendEvent(const Event& event) {
  Bytes& body = codec_.BeginResponse(-1, protocol::Opcode::kEvent);
  body.append(event.body);
  codec_.EndResponse();
  WakeWriter();
}

}  // namespace sibyl::server
