#pragma once
// The byte side of one client connection, free of sockets: the server reads
// from the socket straight into the codec's input buffer, asks it for request
// envelopes, queues responses, and writes whatever output the codec hands back.
//
//   ConnectionCodec codec(options);
//   loop:
//     auto space = codec.PrepareRead(64 * 1024);
//     n = read(fd, space.data(), space.size());   // 0 = EOF → close
//     codec.CommitRead(n);
//     Envelope env;
//     for (;;) {
//       NextResult r = codec.Next(env);
//       if (r == NextResult::kNeedMore) break;
//       if (r == NextResult::kClose) { flush Output(); close; }
//       Request req = DecodeRequest(env.header.opcode, env.body, codec.version());
//       Bytes& body = codec.BeginResponse(env.header.stream, Opcode::kResult);
//       EncodeVoidResult(body);
//       codec.EndResponse();
//     }
//     while (codec.HasOutput()) {
//       BytesView out = codec.Output();
//       codec.ConsumeOutput(write(fd, out.data(), out.size()));
//     }
//
// What the codec does by itself, as Cassandra 4.1 does (the messages and
// whether the connection survives are listed in connection_codec.cc): it
// takes the protocol version from the envelopes and fixes it at STARTUP,
// answers an unsupported version with an unframed ERROR and closes, answers
// and skips frames that are too big, unknown opcodes, response-direction
// frames and undecompressable bodies, and closes on v5 CRC errors. Protocol
// errors it answers itself are queued in the output: the server only ever
// sees envelopes with a request opcode and a supported version.
//
// Not thread-safe: one connection is driven by one thread.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "common/bytes.h"
#include "common/error.h"
#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/segment_codec.h"

namespace sibyl::protocol {

struct CodecOptions {
  // Largest envelope (header + body) accepted, compressed or not.
  // Default: 16 MiB (Cassandra 4.1 native_transport_max_frame_size).
  size_t max_frame_size = 16 * 1024 * 1024;
  // Prefixed to v5 CRC error messages as Cassandra prefixes its channel id
  // ("<id> invalid, unrecoverable CRC mismatch ..."). Default: none.
  std::string connection_id;
};

// A request envelope as the server sees it: a known request opcode, a
// supported version, and the body already decompressed (v3/v4 lz4/snappy) or
// reassembled from v5 segments. Opcode 0x04 (CREDENTIALS, v1 only) is passed
// through: DecodeRequest rejects it with Cassandra's message.
struct Envelope {
  FrameHeader header;
  BytesView body;  // valid until the next Next() or PrepareRead()
};

enum class NextResult {
  kEnvelope,  // `out` holds a request envelope
  kNeedMore,  // no complete envelope buffered: read more, then call Next again
  kClose,     // fatal protocol error: write out Output() (it may hold the ERROR
              // reply), then close the connection. close_reason() says why.
};

class ConnectionCodec {
 public:
  explicit ConnectionCodec(CodecOptions options = {});
  ConnectionCodec(const ConnectionCodec&) = delete;
  ConnectionCodec& operator=(const ConnectionCodec&) = delete;

  // ---- Input -------------------------------------------------------------

  // Writable space at the end of the input buffer, at least `min_space` bytes.
  // Buffered bytes are compacted to the front first; the buffer only grows to
  // hold bytes that have actually arrived, never to a length a header claims.
  // Invalidates the last Envelope's body.
  [[nodiscard]] std::span<char> PrepareRead(size_t min_space);
  // REQUIRES: n <= the size of the span PrepareRead returned last.
  void CommitRead(size_t n);

  // The next request envelope, kNeedMore, or kClose. Protocol errors that
  // Cassandra answers without closing are answered here (ERROR queued in the
  // output) and the bad envelope skipped. After kClose every call returns kClose.
  [[nodiscard]] NextResult Next(Envelope& out);

  // Tells the codec that the body of the envelope Next() returned last could
  // not be decoded (DecodeRequest threw); the server queues that ERROR itself.
  // In v5 framing two such errors in a row within one segment are fatal, as in
  // Cassandra (consecutive_message_errors_threshold = 1): the next Next()
  // returns kClose.
  void NoteBadRequest();

  // The version responses are written with: the version of the last request
  // envelope until a STARTUP arrives, which fixes it for the life of the
  // connection (as Cassandra creates the connection at STARTUP). 0 before any
  // envelope.
  int version() const { return version_; }
  const std::string& close_reason() const { return close_reason_; }

  // ---- State the server decides ------------------------------------------

  // Call once STARTUP has been validated and BEFORE queueing its reply:
  //  - v3/v4: that reply (READY/AUTHENTICATE) and every response after it are
  //    compressed with `c` (Cassandra compresses READY too), and request bodies
  //    flagged compressed are decompressed with it.
  //  - v5: only kLz4 means anything, and only for segments once
  //    StartSegmentFraming() runs (the server rejects snappy in v5 STARTUP).
  void SetCompression(Compression c);
  // v5 only: call right AFTER queueing the reply to STARTUP (Cassandra frames
  // everything after that reply, whatever the reply was). That reply and
  // everything queued before go out unframed; everything after, in both
  // directions, is framed in segments (lz4 segments after SetCompression(kLz4)).
  // REQUIRES: version() == 5.
  void StartSegmentFraming();
  bool segment_framing() const { return framing_; }
  Compression compression() const { return compression_; }

  // ---- Output ------------------------------------------------------------

  // Starts a response envelope (version() with the response bit) and returns
  // the buffer to append its body to (tracing id, warnings and custom payload
  // first when their flags are set). Events use stream -1.
  // REQUIRES: version() != 0; no other response open.
  [[nodiscard]] Bytes& BeginResponse(int16_t stream, Opcode opcode, uint8_t flags = 0);
  // Closes the response begun last: patches its length and, when negotiated,
  // compresses its body (v3/v4).
  void EndResponse();

  bool HasOutput() const;
  // Bytes to write to the socket, every queued response coalesced; in v5
  // framing, pending envelopes are wrapped into segments here. Valid until the
  // next call to a non-const member.
  [[nodiscard]] BytesView Output();
  // Marks the first `n` bytes of Output() as written.
  void ConsumeOutput(size_t n);
  // Moves all of Output() into `out` (replacing its contents) by swapping
  // buffers, not copying: a writer takes the queued bytes and writes them
  // while new responses queue into `out`'s old buffer.
  void TakeOutput(Bytes& out);

 private:
  NextResult NextUnframed(Envelope& out);
  NextResult NextFramed(Envelope& out);
  // One part of an envelope spanning several segments, for NextFramed: the
  // envelope once its last part is in, kClose on a bad part, or nothing
  // (NextFramed reads on) before the last part and after answering an
  // envelope that was too big.
  std::optional<NextResult> TakeMultiSegmentPart(BytesView part, Envelope& out);
  // The first part, whose header gives the envelope's length, and the later
  // ones: kClose on an error, else nothing.
  std::optional<NextResult> BeginMultiSegmentEnvelope(BytesView part);
  std::optional<NextResult> AppendMultiSegmentPart(BytesView part);
  // Checks a framed envelope header (version, opcode, direction, length).
  // Returns the ProtocolError message, or an empty string when it is fine.
  std::string CheckFramedHeader(const FrameHeader& header) const;
  NextResult Fail(std::string reason);
  // Queues a ProtocolError on `stream` and closes with its message as the reason.
  NextResult CloseOnProtocolError(int16_t stream, std::string message);
  size_t BeginEnvelope(int version, int16_t stream, Opcode opcode, uint8_t flags);
  // Queues an ERROR envelope with an explicit header version.
  void QueueError(int version, int16_t stream, ErrorCode code, std::string_view message);
  void QueueUnsupportedVersion(int requested_version);
  Bytes& OutputTarget() { return framing_ ? pending_ : wire_; }

  CodecOptions options_;
  int version_ = 0;
  bool version_fixed_ = false;  // a STARTUP was seen
  Compression compression_ = Compression::kNone;
  bool framing_ = false;
  bool closed_ = false;
  std::string close_reason_;

  // Input: bytes [in_begin_, in_end_) of in_ are unread.
  Bytes in_;
  size_t in_begin_ = 0;
  size_t in_end_ = 0;

  // v3/v4: bytes of a skipped frame still to drop as they arrive, and the
  // "too big" reply to send once they are gone.
  uint64_t discard_remaining_ = 0;
  bool discard_reply_ = false;
  int16_t discard_stream_ = 0;
  int discard_version_ = 0;
  uint64_t discard_total_ = 0;
  Bytes body_scratch_;  // decompressed v3/v4 bodies

  // v5 framed input.
  SegmentDecoder segment_decoder_{false};
  BytesView segment_;  // payload of the self-contained segment being read
  size_t segment_pos_ = 0;
  Bytes segment_copy_;  // owns segment_ when PrepareRead had to move the input
  int consecutive_errors_ = 0;
  bool returned_envelope_ = false;  // the last Next() returned an envelope
  bool bad_request_close_ = false;
  // An envelope spanning several non-self-contained segments.
  bool large_active_ = false;
  bool large_too_big_ = false;
  FrameHeader large_header_;
  uint64_t large_remaining_ = 0;
  Bytes large_;

  // Output: wire_[wire_begin_, end) is ready for the socket; pending_ holds v5
  // envelopes not yet wrapped into segments.
  Bytes wire_;
  size_t wire_begin_ = 0;
  Bytes pending_;
  Bytes compress_scratch_;
  static constexpr size_t kNoResponse = static_cast<size_t>(-1);
  size_t open_response_ = kNoResponse;  // header offset of the response being built
  bool open_compressed_ = false;
};

}  // namespace sibyl::protocol
