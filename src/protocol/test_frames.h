#pragma once
// Test and fuzz helpers: builds request frames and segments the way a client
// does, and parses what the server wrote. Header-only so that it stays out of
// the library; not for production code.

#include <cstring>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "protocol/connection_codec.h"
#include "protocol/frame.h"
#include "protocol/segment_codec.h"
#include "protocol/wire_format.h"

namespace sibyl::protocol::testing {

// A request envelope: version without the response bit.
inline Bytes RequestFrame(int version, uint8_t flags, int16_t stream, uint8_t opcode,
                          BytesView body) {
  Bytes out;
  AppendU8(out, static_cast<uint8_t>(version));
  AppendU8(out, flags);
  AppendBE16(out, static_cast<uint16_t>(stream));
  AppendU8(out, opcode);
  AppendBE32(out, static_cast<uint32_t>(body.size()));
  out.append(body);
  return out;
}

inline Bytes StartupBody(std::vector<std::pair<std::string, std::string>> options = {
                             {"CQL_VERSION", "3.0.0"}}) {
  Bytes out;
  AppendBE16(out, static_cast<uint16_t>(options.size()));
  for (const auto& [k, v] : options) {
    AppendString(out, k);
    AppendString(out, v);
  }
  return out;
}

// QUERY body with consistency ONE and no parameters (v5 flags are an int).
inline Bytes QueryBody(std::string_view query, int version) {
  Bytes out;
  AppendLongString(out, query);
  AppendBE16(out, 0x0001);
  if (version >= 5) {
    AppendBE32(out, 0);
  } else {
    AppendU8(out, 0);
  }
  return out;
}

// Wraps whole request envelopes into v5 segments as a client would.
inline Bytes Segments(BytesView envelopes, bool lz4) {
  Bytes out;
  EncodeSegments(envelopes, lz4, out);
  return out;
}

struct ParsedEnvelope {
  uint8_t version_byte = 0;
  uint8_t flags = 0;
  int16_t stream = 0;
  uint8_t opcode = 0;
  Bytes body;
};

// Splits unframed server output into envelopes (9-byte headers).
inline std::vector<ParsedEnvelope> ParseEnvelopes(BytesView bytes) {
  std::vector<ParsedEnvelope> result;
  while (bytes.size() >= kHeaderSize) {
    ParsedEnvelope e;
    e.version_byte = static_cast<uint8_t>(bytes[0]);
    e.flags = static_cast<uint8_t>(bytes[1]);
    e.stream = static_cast<int16_t>(LoadBE16(bytes.data() + 2));
    e.opcode = static_cast<uint8_t>(bytes[4]);
    const size_t length = LoadBE32(bytes.data() + 5);
    if (bytes.size() < kHeaderSize + length) break;
    e.body.assign(bytes.substr(kHeaderSize, length));
    result.push_back(std::move(e));
    bytes.remove_prefix(kHeaderSize + length);
  }
  return result;
}

// Decodes server segments back into the envelope bytes they carry.
inline bool Unsegment(BytesView bytes, bool lz4, Bytes& envelopes) {
  SegmentDecoder decoder(lz4);
  while (!bytes.empty()) {
    Segment segment;
    size_t consumed = 0;
    std::string error;
    if (decoder.Decode(bytes, segment, consumed, error) != DecodeStatus::kComplete) return false;
    envelopes.append(segment.payload);
    bytes.remove_prefix(consumed);
  }
  return true;
}

// Copies `bytes` into the codec's input as one read.
inline void Feed(ConnectionCodec& codec, BytesView bytes) {
  auto space = codec.PrepareRead(bytes.size());
  std::memcpy(space.data(), bytes.data(), bytes.size());
  codec.CommitRead(bytes.size());
}

// Takes all output and marks it written.
inline Bytes TakeOutput(ConnectionCodec& codec) {
  Bytes out;
  codec.TakeOutput(out);
  return out;
}

}  // namespace sibyl::protocol::testing
