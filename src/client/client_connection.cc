#include "client/client_connection.h"

#include <algorithm>
#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cstring>

#include "common/error.h"

namespace sibyl::client {

namespace asio = boost::asio;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kReadChunk = 64 * 1024;
// Largest envelope accepted: Cassandra's default native_transport_max_frame_size.
constexpr size_t kMaxEnvelope = 16 * 1024 * 1024;
// A v5 segment with its header and CRCs, the most a segment decoder needs at once.
constexpr size_t kMaxSegment = 8 + 3 + protocol::kMaxSegmentPayload + 4;
constexpr std::chrono::milliseconds kMaxSweepPeriod{250};

std::string MillisText(std::chrono::milliseconds ms) { return std::to_string(ms.count()) + " ms"; }

}  // namespace

std::shared_ptr<Connection> Connection::Create(asio::io_context& io, ConnectionOptions options) {
  return std::shared_ptr<Connection>(new Connection(io, std::move(options)));
}

Connection::Connection(asio::io_context& io, ConnectionOptions options)
    : options_(std::move(options)),
      resolver_(io),
      socket_(io),
      connect_timer_(io),
      sweep_timer_(io) {
  options_.max_streams = std::clamp(options_.max_streams, 1, 32768);
  read_buffer_.resize(kReadChunk);
}

Connection::~Connection() = default;

std::string Connection::Address() const {
  return options_.host + ":" + std::to_string(options_.port);
}

void Connection::Connect(Callback done) {
  if (state_ != State::kIdle) {
    FailLater(std::move(done), "Connect called twice");
    return;
  }
  if (options_.protocol_version != 4 && options_.protocol_version != 5) {
    state_ = State::kClosed;
    failure_ = "unsupported protocol version " + std::to_string(options_.protocol_version) +
               " (this client speaks v4 and v5)";
    FailLater(std::move(done), failure_);
    return;
  }
  state_ = State::kConnecting;
  connect_done_ = std::move(done);
  auto self = shared_from_this();
  connect_timer_.expires_after(options_.connect_timeout);
  connect_timer_.async_wait([self](const boost::system::error_code& ec) {
    if (ec || self->state_ == State::kReady || self->state_ == State::kClosed) return;
    self->Fail("cannot connect to " + self->Address() + ": no answer within " +
               MillisText(self->options_.connect_timeout));
  });
  resolver_.async_resolve(
      options_.host, std::to_string(options_.port),
      [self](const boost::system::error_code& ec, tcp::resolver::results_type results) {
        if (self->state_ != State::kConnecting) return;
        if (ec) {
          self->Fail("cannot resolve " + self->options_.host + ": " + ec.message());
          return;
        }
        asio::async_connect(
            self->socket_, results,
            [self](const boost::system::error_code& ec, const tcp::endpoint&) {
              if (self->state_ != State::kConnecting) return;
              if (ec) {
                self->Fail("cannot connect to " + self->Address() + ": " + ec.message());
                return;
              }
              boost::system::error_code ignored;
              self->socket_.set_option(tcp::no_delay(true), ignored);
              self->state_ = State::kStartingUp;
              self->StartRead();
              static constexpr std::array<protocol::StartupOption, 1> kStartup{
                  protocol::StartupOption{"CQL_VERSION", "3.0.0"}};
              self->Send([self](Reply&& reply) { self->OnStartupReply(std::move(reply)); },
                         [&](Bytes& out, int16_t stream) {
                           protocol::EncodeStartup(out, self->version(), stream, kStartup);
                         });
            });
      });
}

void Connection::OnStartupReply(Reply&& reply) {
  if (std::holds_alternative<ReadyResponse>(reply.response)) {
    state_ = State::kReady;
    connect_timer_.cancel();
    if (version() >= 5) {
      // Both directions switch to segments after READY (v5 spec section 2.1).
      framing_ = true;
      segment_decoder_.emplace(/*lz4=*/false);
    }
    ArmSweep();
    FinishConnect(std::move(reply));
    return;
  }
  std::string why;
  if (const auto* auth = std::get_if<AuthenticateResponse>(&reply.response)) {
    why = "server at " + Address() + " requires authentication (" + auth->authenticator +
          "); this client does not implement authentication";
  } else if (const auto* error = std::get_if<ErrorResponse>(&reply.response)) {
    why = "server at " + Address() + " refused STARTUP: " + error->message;
  } else if (const auto* failure = std::get_if<TransportFailure>(&reply.response)) {
    why = failure->message;
  } else {
    why = "server at " + Address() + " answered STARTUP with " + Describe(reply.response);
  }
  // An ERROR goes to the caller as sent (its code matters, e.g. a protocol
  // version the server refuses); anything else becomes a failure.
  if (std::holds_alternative<ErrorResponse>(reply.response)) {
    failure_ = why;
    FinishConnect(std::move(reply));
    Fail(why);
    return;
  }
  Fail(why);
}

void Connection::FinishConnect(Reply&& reply) {
  if (!connect_done_) return;
  Callback done = std::move(connect_done_);
  connect_done_ = nullptr;
  done(std::move(reply));
}

void Connection::FailLater(Callback done, std::string message) {
  asio::post(socket_.get_executor(), [done = std::move(done), message = std::move(message)] {
    done(Reply{TransportFailure{message}, {}});
  });
}

template <typename Encode>
void Connection::Send(Callback done, Encode&& encode) {
  if (!is_open() || (state_ == State::kStartingUp && in_flight_ > 0)) {
    FailLater(std::move(done),
              failure_.empty() ? "connection to " + Address() + " is not ready" : failure_);
    return;
  }
  int16_t stream;
  if (!free_.empty()) {
    stream = free_.back();
    free_.pop_back();
  } else if (slots_.size() < static_cast<size_t>(options_.max_streams)) {
    stream = static_cast<int16_t>(slots_.size());
    slots_.emplace_back();
  } else {
    FailLater(std::move(done), "all " + std::to_string(options_.max_streams) +
                                   " stream ids of the connection to " + Address() + " are in use");
    return;
  }
  Slot& slot = slots_[static_cast<size_t>(stream)];
  slot.callback = std::move(done);
  slot.deadline = Clock::now() + options_.request_timeout;
  slot.state = SlotState::kPending;
  ++in_flight_;
  encode(pending_, stream);
  ScheduleFlush();
}

void Connection::Options(Callback done) {
  Send(std::move(done),
       [&](Bytes& out, int16_t stream) { protocol::EncodeOptions(out, version(), stream); });
}

void Connection::Query(std::string_view cql, const protocol::QueryOptions& options, Callback done) {
  Send(std::move(done), [&](Bytes& out, int16_t stream) {
    protocol::EncodeQuery(out, version(), stream, cql, options);
  });
}

void Connection::Prepare(std::string_view cql, Callback done) {
  Send(std::move(done),
       [&](Bytes& out, int16_t stream) { protocol::EncodePrepare(out, version(), stream, cql); });
}

void Connection::Execute(BytesView id, BytesView result_metadata_id,
                         const protocol::QueryOptions& options, Callback done) {
  Send(std::move(done), [&](Bytes& out, int16_t stream) {
    protocol::EncodeExecute(out, version(), stream, id, result_metadata_id, options);
  });
}

void Connection::Register(std::span<const std::string_view> event_types, Callback done) {
  Send(std::move(done), [&](Bytes& out, int16_t stream) {
    protocol::EncodeRegister(out, version(), stream, event_types);
  });
}

// Flushing from a posted handler rather than inline lets every request issued
// in the same round of callbacks leave in one write.
void Connection::ScheduleFlush() {
  if (writing_ || flush_scheduled_) return;
  flush_scheduled_ = true;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->flush_scheduled_ = false;
    self->Flush();
  });
}

void Connection::Flush() {
  if (writing_ || pending_.empty() || !is_open()) return;
  wire_.clear();
  if (framing_) {
    protocol::EncodeSegments(pending_, /*lz4=*/false, wire_);
    pending_.clear();
  } else {
    wire_.swap(pending_);
  }
  writing_ = true;
  asio::async_write(socket_, asio::buffer(wire_),
                    [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                      self->writing_ = false;
                      if (ec) {
                        if (self->is_open()) {
                          self->Fail("write to " + self->Address() + " failed: " + ec.message());
                        }
                        return;
                      }
                      self->Flush();
                    });
}

void Connection::StartRead() {
  // Views into the buffer are dead by now: resizing is safe here only.
  if (framing_ && read_buffer_.size() < kMaxSegment) read_buffer_.resize(kMaxSegment);
  if (read_buffer_.size() < wanted_read_size_) read_buffer_.resize(wanted_read_size_);
  if (read_buffer_.size() - read_length_ < kReadChunk / 4) {
    read_buffer_.resize(read_length_ + kReadChunk);
  }
  socket_.async_read_some(
      asio::buffer(read_buffer_.data() + read_length_, read_buffer_.size() - read_length_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
        if (!self->is_open()) return;
        if (ec) {
          self->Fail(ec == asio::error::eof
                         ? "connection closed by the server at " + self->Address()
                         : "read from " + self->Address() + " failed: " + ec.message());
          return;
        }
        self->OnRead(n);
      });
}

void Connection::OnRead(size_t bytes) {
  read_length_ += bytes;
  size_t pos = 0;
  while (is_open() && pos < read_length_) {
    const BytesView rest(read_buffer_.data() + pos, read_length_ - pos);
    if (!framing_) {
      const size_t used = ConsumeEnvelopes(rest);
      pos += used;
      // READY on v5 turns framing on: what follows it is segments.
      if (used == 0 || !framing_) break;
      continue;
    }
    protocol::Segment segment;
    size_t consumed = 0;
    std::string error;
    const auto status = segment_decoder_->Decode(rest, segment, consumed, error);
    if (status == protocol::DecodeStatus::kNeedMore) break;
    if (status == protocol::DecodeStatus::kInvalid) {
      Fail("invalid segment from " + Address() + ": " + error);
      return;
    }
    pos += consumed;
    envelopes_.append(segment.payload);
    const size_t used = ConsumeEnvelopes(envelopes_);
    envelopes_.erase(0, used);
  }
  if (!is_open()) return;
  // Keep the unconsumed tail at the front; the next read appends to it.
  if (pos > 0) {
    std::memmove(read_buffer_.data(), read_buffer_.data() + pos, read_length_ - pos);
    read_length_ -= pos;
  }
  StartRead();
}

size_t Connection::ConsumeEnvelopes(BytesView buffer) {
  size_t pos = 0;
  while (is_open()) {
    protocol::FrameHeader header;
    const BytesView rest = buffer.substr(pos);
    if (protocol::DecodeHeader(rest, header) != protocol::DecodeStatus::kComplete) break;
    if (header.length > kMaxEnvelope) {
      Fail("response of " + std::to_string(header.length) + " bytes from " + Address() +
           " is larger than the " + std::to_string(kMaxEnvelope) +
           "-byte limit (is it a CQL server?)");
      break;
    }
    const size_t total = protocol::kHeaderSize + header.length;
    if (rest.size() < total) {
      // The next read needs room for the whole envelope.
      if (!framing_) wanted_read_size_ = total;
      break;
    }
    pos += total;
    const bool was_framing = framing_;
    Dispatch(header, rest.substr(protocol::kHeaderSize, header.length));
    if (framing_ != was_framing) break;  // the rest of the buffer is segments
  }
  return pos;
}

void Connection::Dispatch(const protocol::FrameHeader& header, BytesView body) {
  // A server refusing the version answers STARTUP in a version it speaks.
  const bool version_ok =
      header.version == options_.protocol_version || state_ == State::kStartingUp;
  if (!header.is_response || !version_ok) {
    Fail("unexpected envelope from " + Address() + " (version byte " +
         std::to_string(header.version | (header.is_response ? 0x80 : 0)) + ")");
    return;
  }
  Reply reply;
  try {
    reply = DecodeResponse(header, body);
  } catch (const CqlError& e) {
    reply = Reply{TransportFailure{"malformed response from " + Address() + ": " + e.what()}, {}};
  }
  if (header.stream < 0) {
    if (event_handler_) event_handler_(std::move(reply));
    return;
  }
  const auto stream = static_cast<size_t>(header.stream);
  if (stream >= slots_.size() || slots_[stream].state == SlotState::kFree) return;  // stray
  Slot& slot = slots_[stream];
  const bool timed_out = slot.state == SlotState::kTimedOut;
  Callback callback = std::move(slot.callback);
  slot.callback = nullptr;
  slot.state = SlotState::kFree;
  free_.push_back(static_cast<int16_t>(header.stream));
  if (timed_out) return;  // its callback already ran
  --in_flight_;
  callback(std::move(reply));
}

void Connection::ArmSweep() {
  sweep_timer_.expires_after(
      std::min<std::chrono::milliseconds>(options_.request_timeout / 4, kMaxSweepPeriod));
  sweep_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec || !self->is_open()) return;
    self->SweepTimeouts();
    self->ArmSweep();
  });
}

void Connection::SweepTimeouts() {
  const auto now = Clock::now();
  // By index: a callback may issue a request that grows slots_.
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.state != SlotState::kPending || slot.deadline > now) continue;
    // The stream stays taken until the late response arrives, so that
    // response cannot be mistaken for a newer request's.
    slot.state = SlotState::kTimedOut;
    --in_flight_;
    Callback callback = std::move(slot.callback);
    slot.callback = nullptr;
    callback(Reply{TransportFailure{"no response from " + Address() + " within " +
                                        MillisText(options_.request_timeout),
                                    /*timed_out=*/true},
                   {}});
    if (!is_open()) return;
  }
}

void Connection::Close() {
  if (state_ == State::kClosed) return;
  Fail("connection to " + Address() + " closed by the client");
}

void Connection::Fail(std::string message) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  if (failure_.empty()) failure_ = message;
  boost::system::error_code ignored;
  resolver_.cancel();
  socket_.close(ignored);
  connect_timer_.cancel();
  sweep_timer_.cancel();
  pending_.clear();
  // Callbacks may issue new requests (which fail, posted); collect first.
  std::vector<Callback> callbacks;
  for (Slot& slot : slots_) {
    if (slot.state == SlotState::kPending) callbacks.push_back(std::move(slot.callback));
    slot.callback = nullptr;
    slot.state = SlotState::kFree;
  }
  in_flight_ = 0;
  for (Callback& callback : callbacks) callback(Reply{TransportFailure{message}, {}});
  FinishConnect(Reply{TransportFailure{message}, {}});
}

}  // namespace sibyl::client
