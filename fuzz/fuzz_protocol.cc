// Feeds arbitrary bytes to the protocol layer: a connection before and after
// the v5 switch (read at pseudo-random split points, answering every request
// as a server would), every request decoder, and the raw decoders. Crashes,
// sanitizer reports and the invariants checked below are failures.

#include "fuzz_protocol.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "common/error.h"
#include "fuzz_check.h"
#include "protocol/compression.h"
#include "protocol/connection_codec.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "protocol/segment_codec.h"
#include "protocol/test_frames.h"

namespace sibyl::fuzz {
namespace {

using protocol::Compression;
using protocol::ConnectionCodec;
using protocol::Envelope;
using protocol::NextResult;
using protocol::Opcode;

// Deterministic read sizes from the knobs and the input size.
class SplitPoints {
 public:
  SplitPoints(uint8_t knobs, size_t size) : state_(0x9E3779B9u ^ knobs ^ (size << 8)) {}
  size_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    // Mostly small reads, sometimes large ones.
    return (state_ & 3) == 0 ? 1 + state_ % 4096 : 1 + state_ % 16;
  }

 private:
  uint32_t state_;
};

// Answers one request the way the server does, including the state changes.
void Serve(ConnectionCodec& codec, const Envelope& env, uint8_t knobs) {
  const int version = codec.version();
  FUZZ_CHECK(version >= protocol::kMinVersion && version <= protocol::kMaxVersion);
  try {
    protocol::Request request =
        protocol::DecodeRequest(env.header.opcode, env.header.flags, env.body, version);
    if (std::holds_alternative<protocol::StartupMessage>(request)) {
      const Compression c = (knobs & 0x30) == 0x10   ? Compression::kLz4
                            : (knobs & 0x30) == 0x20 ? Compression::kSnappy
                                                     : Compression::kNone;
      if (!(version >= 5 && c == Compression::kSnappy)) codec.SetCompression(c);
      (void)codec.BeginResponse(env.header.stream, Opcode::kReady);
      codec.EndResponse();
      if (version >= 5 && !codec.segment_framing()) codec.StartSegmentFraming();
      return;
    }
    Bytes& body = codec.BeginResponse(env.header.stream, Opcode::kResult);
    protocol::EncodeVoidResult(body);
    // Echo the request to exercise compression and segment packing of larger bodies.
    body.append(env.body.substr(0, 300000));
    codec.EndResponse();
  } catch (const CqlError& e) {
    codec.NoteBadRequest();
    Bytes& body = codec.BeginResponse(env.header.stream, Opcode::kError);
    protocol::EncodeError(body, e, version);
    codec.EndResponse();
  }
}

void Drive(ConnectionCodec& codec, BytesView input, uint8_t knobs, size_t max_frame_size) {
  SplitPoints splits(knobs, input.size());
  size_t fed = 0;
  bool closed = false;
  while (!closed) {
    if (fed < input.size()) {
      const size_t n = std::min(splits.Next(), input.size() - fed);
      std::span<char> space = codec.PrepareRead(n);
      FUZZ_CHECK(space.size() >= n);
      // The input buffer grows with bytes that arrived, never with a length a
      // header claims.
      FUZZ_CHECK(space.size() <= 2 * (std::min(max_frame_size, input.size()) + 8192));
      std::memcpy(space.data(), input.data() + fed, n);
      codec.CommitRead(n);
      fed += n;
    }
    for (;;) {
      Envelope env;
      const NextResult r = codec.Next(env);
      if (r == NextResult::kNeedMore) break;
      if (r == NextResult::kClose) {
        FUZZ_CHECK(!codec.close_reason().empty());
        FUZZ_CHECK(codec.Next(env) == NextResult::kClose);
        closed = true;
        break;
      }
      FUZZ_CHECK(env.body.size() <= (16u << 20));
      Serve(codec, env, knobs);
    }
    // Write out in pieces, as a slow socket would.
    while (codec.HasOutput()) {
      BytesView out = codec.Output();
      FUZZ_CHECK(!out.empty());
      codec.ConsumeOutput(std::min<size_t>(out.size(), 1 + splits.Next() * 7));
    }
    if (fed == input.size()) break;
  }
}

protocol::CodecOptions Options(uint8_t knobs) {
  protocol::CodecOptions options;
  // Small limits reach the too-big paths with small inputs.
  if (knobs & 0x80) options.max_frame_size = 64 + (knobs & 0x0F) * 1024;
  return options;
}

void FuzzUnframed(BytesView input, uint8_t knobs) {
  const protocol::CodecOptions options = Options(knobs);
  ConnectionCodec codec(options);
  Drive(codec, input, knobs, options.max_frame_size);
}

void FuzzFramed(BytesView input, uint8_t knobs) {
  const protocol::CodecOptions options = Options(knobs);
  ConnectionCodec codec(options);
  const Bytes startup =
      protocol::testing::RequestFrame(5, 0, 0, 0x01, protocol::testing::StartupBody());
  auto space = codec.PrepareRead(startup.size());
  std::memcpy(space.data(), startup.data(), startup.size());
  codec.CommitRead(startup.size());
  Envelope env;
  FUZZ_CHECK(codec.Next(env) == NextResult::kEnvelope);
  codec.SetCompression((knobs & kKnobLz4) ? Compression::kLz4 : Compression::kNone);
  (void)codec.BeginResponse(0, Opcode::kReady);
  codec.EndResponse();
  codec.StartSegmentFraming();
  Drive(codec, input, knobs & ~0x30,
        options.max_frame_size);  // no second STARTUP compression choice
}

void FuzzRequestBody(BytesView input, uint8_t knobs) {
  static constexpr uint8_t kRequestOpcodes[8] = {0x01, 0x04, 0x05, 0x07, 0x09, 0x0A, 0x0B, 0x0D};
  const uint8_t opcode = (knobs & 0x40) ? 0x0F : kRequestOpcodes[knobs & 7];
  const int version = 3 + (knobs >> 3) % 3;
  try {
    // knobs bit 7: the body starts with a custom payload map.
    const uint8_t flags = (knobs & 0x80) ? protocol::kFlagCustomPayload : 0;
    protocol::Request request = protocol::DecodeRequest(opcode, flags, input, version);
    // Every view must lie inside the body.
    auto inside = [&](BytesView v) {
      FUZZ_CHECK(v.empty() ||
                 (v.data() >= input.data() && v.data() + v.size() <= input.data() + input.size()));
    };
    if (auto* q = std::get_if<protocol::QueryMessage>(&request)) {
      inside(q->query);
      for (const Value& v : q->params.values) inside(v.bytes);
    } else if (auto* b = std::get_if<protocol::BatchMessage>(&request)) {
      for (const auto& child : b->children) {
        inside(child.query);
        inside(child.id);
        for (const Value& v : child.values) inside(v.bytes);
      }
    } else if (auto* e = std::get_if<protocol::ExecuteMessage>(&request)) {
      inside(e->id);
      for (const Value& v : e->params.values) inside(v.bytes);
    }
  } catch (const CqlError& e) {
    FUZZ_CHECK(e.code() == ErrorCode::kProtocolError);
  }
}

void FuzzRawDecoders(BytesView input, uint8_t knobs) {
  Bytes out;
  const size_t max = 1 + knobs * 512;
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    if (protocol::DecompressBody(c, input, max, out)) FUZZ_CHECK(out.size() <= max);
  }
  protocol::SegmentDecoder decoder(knobs & kKnobLz4);
  BytesView rest = input;
  while (!rest.empty()) {
    protocol::Segment segment;
    size_t consumed = 0;
    std::string error;
    if (decoder.Decode(rest, segment, consumed, error) != protocol::DecodeStatus::kComplete) break;
    FUZZ_CHECK(consumed > 0 && consumed <= rest.size());
    FUZZ_CHECK(segment.payload.size() <= protocol::kMaxSegmentPayload);
    rest.remove_prefix(consumed);
  }
}

}  // namespace
}  // namespace sibyl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sibyl::fuzz;
  if (size < 2) return 0;
  const uint8_t knobs = data[1];
  const sibyl::BytesView input(reinterpret_cast<const char*>(data) + 2, size - 2);
  switch (data[0] % kModeCount) {
    case kUnframedConnection:
      FuzzUnframed(input, knobs);
      break;
    case kFramedConnection:
      FuzzFramed(input, knobs);
      break;
    case kRequestBody:
      FuzzRequestBody(input, knobs);
      break;
    case kRawDecoders:
      FuzzRawDecoders(input, knobs);
      break;
  }
  return 0;
}
