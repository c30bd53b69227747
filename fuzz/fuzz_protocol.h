#pragma once
// The input layout of fuzz_protocol, shared with make_protocol_seeds:
//   [mode byte][knobs byte][bytes...]
// mode (taken modulo kModeCount) picks what the bytes are fed to; knobs pick
// read sizes, compression, limits, opcode and version.

#include <cstdint>

namespace sibyl::fuzz {

enum Mode : uint8_t {
  kUnframedConnection = 0,  // a fresh connection: handshake and v3/v4/v5 envelopes
  kFramedConnection = 1,    // a v5 connection after the handshake: segments
  kRequestBody = 2,         // DecodeRequest for an opcode and version from the knobs
  kRawDecoders = 3,         // body decompression and the segment decoder on their own
  kModeCount = 4,
};

// kFramedConnection: knobs bit 0 = lz4 segments.
constexpr uint8_t kKnobLz4 = 0x01;
// kRequestBody: opcode = request opcode table[knobs & 7], version = 3 + (knobs >> 3) % 3.

}  // namespace sibyl::fuzz
