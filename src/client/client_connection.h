#pragma once
// One client connection to a CQL node over plain TCP (native protocol v4, or
// v5 with segment framing), built for load generators as well as tools:
//
//   * many requests in flight: every request takes a stream id from a free
//     list (0..max_streams-1) and gives it back when its response arrives;
//   * pipelining: requests issued while a write is in progress are queued in
//     one buffer and leave in a single write; one read hands every complete
//     response in the buffer to its callback;
//   * no allocation per request on the hot path: requests are encoded straight
//     into the reused output buffer, callbacks live in a reused slot table
//     (a std::function small enough to be stored inline does not allocate),
//     and a VOID result decodes without allocating;
//   * every callback runs exactly once: with the response, or with a
//     TransportFailure when the request times out, cannot be sent, or the
//     connection fails or is closed.
//
// Threading: a connection lives on one io_context and all its methods must be
// called on the thread running it (from a callback, or via
// boost::asio::post(connection->executor(), ...)). Callbacks run on that
// thread. blocking_call.h has helpers for calling from other threads.
//
//   auto c = Connection::Create(io, options);
//   c->Connect([](Reply&& r) { ... READY or a failure ... });
//   c->Execute(id, {}, query_options, [](Reply&& r) { ... });

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "client/response_decoder.h"
#include "common/bytes.h"
#include "protocol/request_encoder.h"
#include "protocol/segment_codec.h"

namespace sibyl::client {

struct ConnectionOptions {
  // Default: 127.0.0.1.
  std::string host = "127.0.0.1";
  // Default: 9042.
  uint16_t port = 9042;
  // 4 or 5. Default: 4.
  int protocol_version = 4;
  // Covers resolving, connecting and the STARTUP exchange. Default: 5 s.
  std::chrono::milliseconds connect_timeout{5000};
  // A request without a response after this long completes with a
  // TransportFailure; its stream id is reused only once the late response
  // arrives. Default: 12 s (the drivers' default request timeout).
  std::chrono::milliseconds request_timeout{12000};
  // Stream ids usable at once, 1..32768. Default: 32768.
  int max_streams = 32768;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Callback = std::function<void(Reply&&)>;

  static std::shared_ptr<Connection> Create(boost::asio::io_context& io, ConnectionOptions options);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Resolves, connects and sends STARTUP {CQL_VERSION: 3.0.0} (no
  // compression). `done` receives READY, the server's ERROR (e.g. an
  // unsupported protocol version), or a TransportFailure naming the address
  // and the cause. A server asking for authentication gets a TransportFailure
  // saying the client does not implement it. REQUIRES: called once.
  void Connect(Callback done);

  void Options(Callback done);
  void Query(std::string_view cql, const protocol::QueryOptions& options, Callback done);
  void Prepare(std::string_view cql, Callback done);
  // `result_metadata_id` is the PREPARED result's (v5); ignored before v5.
  void Execute(BytesView id, BytesView result_metadata_id, const protocol::QueryOptions& options,
               Callback done);
  void Register(std::span<const std::string_view> event_types, Callback done);

  // Server-pushed EVENTs (stream -1) go to `handler`; without one they are dropped.
  void SetEventHandler(Callback handler) { event_handler_ = std::move(handler); }

  // Fails every request in flight with "connection closed by the client" and
  // closes the socket. Safe to call more than once.
  void Close();

  bool is_open() const { return state_ == State::kReady || state_ == State::kStartingUp; }
  bool is_ready() const { return state_ == State::kReady; }
  int in_flight() const { return in_flight_; }
  int version() const { return options_.protocol_version; }
  const ConnectionOptions& options() const { return options_; }
  boost::asio::any_io_executor executor() { return socket_.get_executor(); }
  // Why the connection failed or closed; empty while it is usable.
  const std::string& failure() const { return failure_; }

 private:
  enum class State { kIdle, kConnecting, kStartingUp, kReady, kClosed };
  enum class SlotState : uint8_t { kFree, kPending, kTimedOut };
  struct Slot {
    Callback callback;
    std::chrono::steady_clock::time_point deadline;
    SlotState state = SlotState::kFree;
  };

  Connection(boost::asio::io_context& io, ConnectionOptions options);

  // Takes a stream, stores `done`, appends the envelope that `encode(out,
  // stream)` writes, and schedules a flush. Fails `done` (posted, never
  // inline) when the connection is not usable or every stream is taken.
  template <typename Encode>
  void Send(Callback done, Encode&& encode);
  void FailLater(Callback done, std::string message);
  void ScheduleFlush();
  void Flush();
  void StartRead();
  void OnRead(size_t bytes);
  // Consumes envelopes from the front of `buffer`; returns the bytes used.
  size_t ConsumeEnvelopes(BytesView buffer);
  void Dispatch(const protocol::FrameHeader& header, BytesView body);
  void OnStartupReply(Reply&& reply);
  void ArmSweep();
  void SweepTimeouts();
  // Closes the socket and fails everything pending with `message`.
  void Fail(std::string message);
  void FinishConnect(Reply&& reply);
  std::string Address() const;

  ConnectionOptions options_;
  boost::asio::ip::tcp::resolver resolver_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer connect_timer_;
  boost::asio::steady_timer sweep_timer_;
  State state_ = State::kIdle;
  std::string failure_;
  Callback connect_done_;
  Callback event_handler_;

  // Streams: slots_[stream]; free_ holds the free ids below slots_.size().
  std::vector<Slot> slots_;
  std::vector<int16_t> free_;
  int in_flight_ = 0;  // kPending slots

  // Output: envelopes queued (pending_) while `wire_` is being written.
  Bytes pending_;
  Bytes wire_;
  bool writing_ = false;
  bool flush_scheduled_ = false;

  // Input: raw bytes; with v5 framing also the envelopes unpacked from segments.
  Bytes read_buffer_;
  size_t read_length_ = 0;
  size_t wanted_read_size_ = 0;  // set when an envelope is larger than the buffer
  bool framing_ = false;         // v5 after READY
  std::optional<protocol::SegmentDecoder> segment_decoder_;
  Bytes envelopes_;
};

}  // namespace sibyl::client
