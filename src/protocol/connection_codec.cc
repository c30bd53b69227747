#include "protocol/connection_codec.h"

#include <algorithm>
#include <cstring>

#include "common/check.h"
#include "protocol/response.h"

// What the codec answers by itself, following Cassandra 4.1's transport
// (Envelope.Decoder, InitialConnectionHandler, PreV5Handlers, CQLMessageHandler,
// ProtocolVersion, Compressor). ProtocolError is 0x000A, Invalid 0x2200.
//
//  case                                  reply                                        then
//  ------------------------------------  -------------------------------------------  --------
//  version byte not 3..5 (unframed)      ProtocolError "Invalid or unsupported        close
//                                        protocol version (N); supported versions
//                                        are (3/v3, 4/v4, 5/v5)", stream 0, unframed,
//                                        header v1/v2 for those, else the
//                                        connection's version (v5 before STARTUP)
//  unknown opcode                        ProtocolError "Unknown opcode N"             skip frame
//  request opcode sent as a response,    ProtocolError "Wrong protocol direction      skip frame
//  or response opcode                    (expected X, got Y) for opcode N (NAME)"
//  v3/v4 frame over max_frame_size       Invalid "Request is too big: length L        skip frame
//                                        exceeds maximum allowed length M." once the
//                                        frame has been skipped
//  v3/v4 compressed body that does not   ProtocolError "Provided frame does not       skip frame
//  decompress / declares a bad length    appear to be LZ4|Snappy compressed" /
//                                        "Invalid uncompressed frame length N; it must
//                                        be non-negative and no greater than
//                                        native_transport_max_frame_size (M bytes)"
//  v3/v4 version differs after STARTUP   ProtocolError "Invalid message version. Got  skip frame
//                                        4/v4 but previous messages on this
//                                        connection had version 3/v3"
//  v5 segment header or payload CRC      ProtocolError "[id ]invalid, unrecoverable   close
//                                        CRC mismatch detected in frame header|body.
//                                        Read R, Computed C", stream 0
//  v5 bad envelope in a segment          as above (version text without the space     skip; the
//  (version, opcode, direction)          after "previous", as Cassandra's)            2nd in a row
//                                                                                     in a segment
//                                                                                     closes
//  v5 negative envelope length           ProtocolError "Invalid value for envelope    close
//                                        header body length field: N"
//  v5 bad header in the first segment    that error, stream 0                         close
//  of a multi-segment envelope
//  v5 envelope over max_frame_size       Invalid "Request is too big: ..." (Sibyl's   skip
//                                        bound: Cassandra 4.1 has no v5 size limit)
//
// Sibyl differs on purpose where Cassandra replies on stream 0 to errors of a
// frame whose stream it knows (decompression failures): the reply goes to the
// frame's stream. Cassandra 4.1 does not close after an unsupported version
// but can make no further progress on the connection; Sibyl closes.

namespace sibyl::protocol {

namespace {

// Cassandra's Message.Type names and directions, indexed by opcode.
struct OpcodeInfo {
  const char* name;
  bool is_request;
};
constexpr OpcodeInfo kOpcodes[] = {
    {"ERROR", false},        {"STARTUP", true}, {"READY", false},          {"AUTHENTICATE", false},
    {"CREDENTIALS", true},   {"OPTIONS", true}, {"SUPPORTED", false},      {"QUERY", true},
    {"RESULT", false},       {"PREPARE", true}, {"EXECUTE", true},         {"REGISTER", true},
    {"EVENT", false},        {"BATCH", true},   {"AUTH_CHALLENGE", false}, {"AUTH_RESPONSE", true},
    {"AUTH_SUCCESS", false},
};
constexpr size_t kOpcodeCount = sizeof(kOpcodes) / sizeof(kOpcodes[0]);

bool IsSupportedVersion(int version) { return version >= kMinVersion && version <= kMaxVersion; }

// ProtocolVersion.toString(): "4/v4".
std::string VersionName(int version) {
  return std::to_string(version) + "/v" + std::to_string(version);
}

// ProtocolVersion.invalidVersionMessage, listing the versions Sibyl supports.
std::string InvalidVersionMessage(int version) {
  std::string message = "Invalid or unsupported protocol version (" + std::to_string(version) +
                        "); supported versions are (";
  for (int v = kMinVersion; v <= kMaxVersion; ++v) {
    if (v != kMinVersion) message += ", ";
    message += VersionName(v);
  }
  return message + ")";
}

// Message.Type.fromOpcode's checks: a known opcode sent in the request direction.
std::string OpcodeError(const FrameHeader& header) {
  if (header.opcode >= kOpcodeCount) {
    return "Unknown opcode " + std::to_string(header.opcode);
  }
  const OpcodeInfo& info = kOpcodes[header.opcode];
  const bool sent_as_request = !header.is_response;
  if (info.is_request != sent_as_request) {
    return std::string("Wrong protocol direction (expected ") +
           (info.is_request ? "REQUEST" : "RESPONSE") + ", got " +
           (sent_as_request ? "REQUEST" : "RESPONSE") + ") for opcode " +
           std::to_string(header.opcode) + " (" + info.name + ")";
  }
  // A response-direction frame with a response opcode passes Cassandra's
  // opcode check but is no request either.
  if (!sent_as_request) {
    return std::string("Wrong protocol direction (expected REQUEST, got RESPONSE) for opcode ") +
           std::to_string(header.opcode) + " (" + info.name + ")";
  }
  return {};
}

std::string TooBigMessage(uint64_t total_length, size_t max_frame_size) {
  return "Request is too big: length " + std::to_string(total_length) +
         " exceeds maximum allowed length " + std::to_string(max_frame_size) + ".";
}

std::string UndersizedMessage(size_t actual) {
  return "Undersized buffer supplied. Expected " + std::to_string(kHeaderSize) + ", actual " +
         std::to_string(actual);
}

std::string OverrunningEnvelopeMessage(uint64_t total_length, size_t segment_left) {
  return "Envelope of " + std::to_string(total_length) +
         " bytes runs past the end of its self-contained frame (" + std::to_string(segment_left) +
         " bytes left)";
}

std::string NegativeLengthMessage(const FrameHeader& header) {
  return "Invalid value for envelope header body length field: " +
         std::to_string(static_cast<int32_t>(header.length));
}

}  // namespace

ConnectionCodec::ConnectionCodec(CodecOptions options) : options_(std::move(options)) {}

// ---- Input ----------------------------------------------------------------

std::span<char> ConnectionCodec::PrepareRead(size_t min_space) {
  // A self-contained segment still being read may view the bytes about to be
  // moved: keep its unread rest in storage of its own first.
  const auto at = reinterpret_cast<uintptr_t>(segment_.data());
  const auto in_start = reinterpret_cast<uintptr_t>(in_.data());
  if (segment_pos_ < segment_.size() && at >= in_start && at < in_start + in_.size()) {
    segment_copy_.assign(segment_.substr(segment_pos_));
    segment_ = segment_copy_;
    segment_pos_ = 0;
  }
  if (in_begin_ == in_end_) {
    in_begin_ = in_end_ = 0;
  } else if (in_.size() - in_end_ < min_space && in_begin_ > 0) {
    std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
    in_end_ -= in_begin_;
    in_begin_ = 0;
  }
  if (in_.size() - in_end_ < min_space) {
    // Grow by half of what is buffered (what really arrived), at least min_space.
    const size_t growth = std::max(min_space, std::min(in_end_, options_.max_frame_size) / 2);
    in_.resize(in_end_ + growth);
  }
  return {in_.data() + in_end_, in_.size() - in_end_};
}

void ConnectionCodec::CommitRead(size_t n) {
  SIBYL_CHECK(n <= in_.size() - in_end_);
  in_end_ += n;
}

NextResult ConnectionCodec::Next(Envelope& out) {
  SIBYL_CHECK(open_response_ == kNoResponse);
  if (closed_) return NextResult::kClose;
  if (bad_request_close_) {
    return Fail("consecutive undecodable messages in one frame");
  }
  if (returned_envelope_) {
    // The server decoded the last envelope without complaint.
    consecutive_errors_ = 0;
    returned_envelope_ = false;
  }
  const NextResult result = framing_ ? NextFramed(out) : NextUnframed(out);
  if (result == NextResult::kEnvelope) returned_envelope_ = true;
  return result;
}

void ConnectionCodec::NoteBadRequest() {
  returned_envelope_ = false;
  if (framing_ && ++consecutive_errors_ > 1) bad_request_close_ = true;
}

// v3/v4 frames, and v5 envelopes before segment framing starts
// (Envelope.Decoder and the legacy pipeline in Cassandra).
NextResult ConnectionCodec::NextUnframed(Envelope& out) {
  for (;;) {
    size_t available = in_end_ - in_begin_;
    if (discard_remaining_ > 0 || discard_reply_) {
      const uint64_t n = std::min<uint64_t>(discard_remaining_, available);
      in_begin_ += n;
      discard_remaining_ -= n;
      if (discard_remaining_ > 0) return NextResult::kNeedMore;
      if (discard_reply_) {
        // Cassandra answers a frame over native_transport_max_frame_size once
        // all of it has been skipped, and keeps the connection.
        discard_reply_ = false;
        QueueError(version_fixed_ ? version_ : discard_version_, discard_stream_,
                   ErrorCode::kInvalid, TooBigMessage(discard_total_, options_.max_frame_size));
      }
      continue;
    }
    if (available == 0) return NextResult::kNeedMore;

    // The version byte is checked as soon as it arrives (v1/v2 headers are
    // shorter, so Cassandra does not wait for nine bytes).
    const int requested = static_cast<unsigned char>(in_[in_begin_]) & 0x7F;
    if (!IsSupportedVersion(requested)) {
      QueueUnsupportedVersion(requested);
      return Fail(InvalidVersionMessage(requested));
    }
    FrameHeader header;
    if (DecodeHeader(BytesView(in_.data() + in_begin_, available), header) !=
        DecodeStatus::kComplete) {
      return NextResult::kNeedMore;
    }
    const uint64_t total = kHeaderSize + uint64_t{header.length};
    const int reply_version = version_fixed_ ? version_ : header.version;

    if (std::string error = OpcodeError(header); !error.empty()) {
      QueueError(reply_version, header.stream, ErrorCode::kProtocolError, error);
      discard_remaining_ = total;  // skip the frame, keep the connection
      continue;
    }
    if (total > options_.max_frame_size) {
      discard_remaining_ = total;
      discard_reply_ = true;
      discard_stream_ = header.stream;
      discard_total_ = total;
      discard_version_ = reply_version;
      continue;
    }
    if (available < total) return NextResult::kNeedMore;

    BytesView body(in_.data() + in_begin_ + kHeaderSize, header.length);
    in_begin_ += total;

    if ((header.flags & kFlagCompression) && compression_ != Compression::kNone && version_fixed_ &&
        version_ < 5) {
      const DecompressOutcome outcome =
          DecompressBodyDetailed(compression_, body, options_.max_frame_size, body_scratch_);
      if (outcome.kind != DecompressOutcome::Kind::kOk) {
        std::string message;
        if (outcome.kind == DecompressOutcome::Kind::kBadLength) {
          message = "Invalid uncompressed frame length " + std::to_string(outcome.declared_length) +
                    "; it must be non-negative and no greater than "
                    "native_transport_max_frame_size (" +
                    std::to_string(options_.max_frame_size) + " bytes)";
        } else {
          message = compression_ == Compression::kLz4
                        ? "Provided frame does not appear to be LZ4 compressed"
                        : "Provided frame does not appear to be Snappy compressed";
        }
        QueueError(reply_version, header.stream, ErrorCode::kProtocolError, message);
        continue;
      }
      body = body_scratch_;
    }
    if (version_fixed_ && header.version != version_) {
      QueueError(version_, header.stream, ErrorCode::kProtocolError,
                 "Invalid message version. Got " + VersionName(header.version) +
                     " but previous messages on this connection had version " +
                     VersionName(version_));
      continue;
    }
    if (!version_fixed_) {
      version_ = header.version;
      if (header.opcode == static_cast<uint8_t>(Opcode::kStartup)) version_fixed_ = true;
    }
    out.header = header;
    out.body = body;
    return NextResult::kEnvelope;
  }
}

std::string ConnectionCodec::CheckFramedHeader(const FrameHeader& header) const {
  if (!IsSupportedVersion(header.version)) return InvalidVersionMessage(header.version);
  if (std::string error = OpcodeError(header); !error.empty()) return error;
  if (header.version != version_) {
    // Cassandra's v5 text lacks the space between "previous" and "messages".
    return "Invalid message version. Got " + VersionName(header.version) +
           " but previousmessages on this connection had version " + VersionName(version_);
  }
  return {};
}

// v5 after the handshake: segments of envelopes (CQLMessageHandler in Cassandra).
NextResult ConnectionCodec::NextFramed(Envelope& out) {
  for (;;) {
    // The next envelope of the self-contained segment being read.
    if (segment_pos_ < segment_.size()) {
      const BytesView rest = segment_.substr(segment_pos_);
      if (rest.size() < kHeaderSize) return CloseOnProtocolError(0, UndersizedMessage(rest.size()));
      FrameHeader header;
      (void)DecodeHeader(rest, header);
      if (static_cast<int32_t>(header.length) < 0) {
        // The envelope cannot be skipped without its length: fatal.
        return CloseOnProtocolError(header.stream, NegativeLengthMessage(header));
      }
      if (std::string error = CheckFramedHeader(header); !error.empty()) {
        QueueError(version_, header.stream, ErrorCode::kProtocolError, error);
        // One bad envelope is skipped; a second in a row in the same segment
        // means the rest of the segment is garbage (Cassandra closes).
        if (++consecutive_errors_ > 1) return Fail(error);
        segment_pos_ = std::min<uint64_t>(segment_.size(),
                                          segment_pos_ + kHeaderSize + uint64_t{header.length});
        continue;
      }
      if (kHeaderSize + uint64_t{header.length} > rest.size()) {
        return CloseOnProtocolError(
            header.stream, OverrunningEnvelopeMessage(kHeaderSize + header.length, rest.size()));
      }
      out.header = header;
      out.body = rest.substr(kHeaderSize, header.length);
      segment_pos_ += kHeaderSize + header.length;
      return NextResult::kEnvelope;
    }

    Segment segment;
    size_t consumed = 0;
    std::string error;
    const DecodeStatus status = segment_decoder_.Decode(
        BytesView(in_.data() + in_begin_, in_end_ - in_begin_), segment, consumed, error);
    if (status == DecodeStatus::kNeedMore) return NextResult::kNeedMore;
    if (status == DecodeStatus::kInvalid) {
      if (!options_.connection_id.empty()) error = options_.connection_id + " " + error;
      return CloseOnProtocolError(0, std::move(error));
    }
    in_begin_ += consumed;
    consecutive_errors_ = 0;  // a new segment, a clean slate
    segment_ = {};
    segment_pos_ = 0;

    if (segment.self_contained) {
      if (large_active_) {
        return CloseOnProtocolError(
            0, "Self-contained frame received before the last frame of a multi-frame message");
      }
      segment_ = segment.payload;
      continue;
    }
    if (const std::optional<NextResult> result = TakeMultiSegmentPart(segment.payload, out)) {
      return *result;
    }
  }
}

std::optional<NextResult> ConnectionCodec::TakeMultiSegmentPart(BytesView part, Envelope& out) {
  if (const std::optional<NextResult> failed =
          large_active_ ? AppendMultiSegmentPart(part) : BeginMultiSegmentEnvelope(part)) {
    return failed;
  }
  if (large_remaining_ > 0) return std::nullopt;
  large_active_ = false;
  if (large_too_big_) {
    QueueError(
        version_, large_header_.stream, ErrorCode::kInvalid,
        TooBigMessage(kHeaderSize + uint64_t{large_header_.length}, options_.max_frame_size));
    return std::nullopt;
  }
  out.header = large_header_;
  out.body = BytesView(large_).substr(kHeaderSize);
  return NextResult::kEnvelope;
}

std::optional<NextResult> ConnectionCodec::BeginMultiSegmentEnvelope(BytesView part) {
  // Errors in the header are fatal: the following segments cannot be
  // trusted (stream 0, as Cassandra cannot attribute them).
  std::string header_error;
  FrameHeader header;
  if (part.size() < kHeaderSize) {
    header_error = UndersizedMessage(part.size());
  } else {
    (void)DecodeHeader(part, header);
    if (static_cast<int32_t>(header.length) < 0) {
      header_error = NegativeLengthMessage(header);
    } else {
      header_error = CheckFramedHeader(header);
    }
  }
  const uint64_t total = kHeaderSize + uint64_t{header.length};
  if (header_error.empty() && part.size() > total) {
    header_error = "Multi-frame message of " + std::to_string(total) +
                   " bytes followed by other data in its first frame";
  }
  if (!header_error.empty()) return CloseOnProtocolError(0, std::move(header_error));
  large_active_ = true;
  large_header_ = header;
  large_remaining_ = total - part.size();
  // Too big: the parts are dropped as they arrive, never buffered.
  large_too_big_ = total > options_.max_frame_size;
  large_.clear();
  if (!large_too_big_) large_.append(part);
  return std::nullopt;
}

std::optional<NextResult> ConnectionCodec::AppendMultiSegmentPart(BytesView part) {
  if (part.size() > large_remaining_) {
    return CloseOnProtocolError(0, "Multi-frame message longer than its envelope header declares");
  }
  large_remaining_ -= part.size();
  if (!large_too_big_) large_.append(part);
  return std::nullopt;
}

NextResult ConnectionCodec::CloseOnProtocolError(int16_t stream, std::string message) {
  QueueError(version_, stream, ErrorCode::kProtocolError, message);
  return Fail(std::move(message));
}

NextResult ConnectionCodec::Fail(std::string reason) {
  closed_ = true;
  close_reason_ = std::move(reason);
  return NextResult::kClose;
}

// ---- State ----------------------------------------------------------------

void ConnectionCodec::SetCompression(Compression c) {
  compression_ = c;
  if (framing_) segment_decoder_ = SegmentDecoder(c == Compression::kLz4);
}

void ConnectionCodec::StartSegmentFraming() {
  SIBYL_CHECK(version_ == 5);
  SIBYL_CHECK(open_response_ == kNoResponse);
  framing_ = true;
  segment_decoder_ = SegmentDecoder(compression_ == Compression::kLz4);
}

// ---- Output ---------------------------------------------------------------

size_t ConnectionCodec::BeginEnvelope(int version, int16_t stream, Opcode opcode, uint8_t flags) {
  SIBYL_CHECK(open_response_ == kNoResponse);
  open_response_ = protocol::BeginResponse(OutputTarget(), version, flags, stream, opcode);
  // v3/v4 compress envelope bodies; v5 compresses segments instead.
  open_compressed_ = !framing_ && version < 5 && compression_ != Compression::kNone;
  return open_response_;
}

Bytes& ConnectionCodec::BeginResponse(int16_t stream, Opcode opcode, uint8_t flags) {
  SIBYL_CHECK(version_ != 0);
  BeginEnvelope(version_, stream, opcode, flags);
  return OutputTarget();
}

void ConnectionCodec::EndResponse() {
  SIBYL_CHECK(open_response_ != kNoResponse);
  Bytes& target = OutputTarget();
  if (open_compressed_) {
    const size_t body_at = open_response_ + kHeaderSize;
    compress_scratch_.assign(target, body_at, Bytes::npos);
    target.resize(body_at);
    CompressBody(compression_, compress_scratch_, target);
    target[open_response_ + 1] =
        static_cast<char>(static_cast<uint8_t>(target[open_response_ + 1]) | kFlagCompression);
  }
  PatchLength(target, open_response_);
  open_response_ = kNoResponse;
}

void ConnectionCodec::QueueError(int version, int16_t stream, ErrorCode code,
                                 std::string_view message) {
  BeginEnvelope(version, stream, Opcode::kError, 0);
  EncodeError(OutputTarget(), code, message);
  EndResponse();
}

// The reply to a version the server does not speak goes out unframed, on
// stream 0 (Cassandra rejects the version from the first byte, before it has
// read a stream id), with the requested version when it is v1/v2 (and so in
// their 8-byte header layout) and otherwise with the connection's version, or
// the greatest supported one before STARTUP.
void ConnectionCodec::QueueUnsupportedVersion(int requested_version) {
  SIBYL_CHECK(open_response_ == kNoResponse);
  Bytes& out = wire_;
  const size_t start = out.size();
  if (requested_version == 1 || requested_version == 2) {
    AppendU8(out, static_cast<uint8_t>(0x80 | requested_version));
    AppendU8(out, 0);  // flags
    AppendU8(out, 0);  // 1-byte stream
    AppendU8(out, static_cast<uint8_t>(Opcode::kError));
    AppendBE32(out, 0);
    const size_t body_at = out.size();
    EncodeError(out, ErrorCode::kProtocolError, InvalidVersionMessage(requested_version));
    StoreBE32(out.data() + start + 4, static_cast<uint32_t>(out.size() - body_at));
    return;
  }
  const int version = version_fixed_ ? version_ : kMaxVersion;
  protocol::BeginResponse(out, version, 0, 0, Opcode::kError);
  EncodeError(out, ErrorCode::kProtocolError, InvalidVersionMessage(requested_version));
  PatchLength(out, start);
}

bool ConnectionCodec::HasOutput() const { return wire_begin_ < wire_.size() || !pending_.empty(); }

BytesView ConnectionCodec::Output() {
  SIBYL_CHECK(open_response_ == kNoResponse);
  if (!pending_.empty()) {
    EncodeSegments(pending_, compression_ == Compression::kLz4, wire_);
    pending_.clear();
  }
  return BytesView(wire_).substr(wire_begin_);
}

void ConnectionCodec::ConsumeOutput(size_t n) {
  wire_begin_ = std::min(wire_.size(), wire_begin_ + n);
  if (wire_begin_ == wire_.size()) {
    wire_.clear();
    wire_begin_ = 0;
  } else if (wire_begin_ > 64 * 1024 && wire_begin_ > wire_.size() / 2) {
    // A slow reader: drop what was written so the buffer does not only grow.
    wire_.erase(0, wire_begin_);
    wire_begin_ = 0;
  }
}

void ConnectionCodec::TakeOutput(Bytes& out) {
  (void)Output();  // wraps pending v5 envelopes into wire_
  if (wire_begin_ > 0) wire_.erase(0, wire_begin_);
  out.clear();
  out.swap(wire_);
  wire_begin_ = 0;
}

}  // namespace sibyl::protocol
