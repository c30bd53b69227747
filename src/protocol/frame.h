#pragma once
// CQL native protocol envelopes ("frames" before v5):
//
//   struct EnvelopeHeader {      // 9 bytes, big-endian
//     uint8  version;            // bit 7: 1 = response; bits 0-6: protocol version
//     uint8  flags;              // kFlag* below
//     int16  stream;             // request id chosen by the client; -1 = server event
//     uint8  opcode;             // Opcode
//     uint32 length;             // body length in bytes
//   };
//
// The decoder never touches a socket: it is given bytes and answers
// complete / need more / invalid.

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/bytes.h"

namespace sibyl::protocol {

constexpr int kMinVersion = 3;
constexpr int kMaxVersion = 5;
constexpr size_t kHeaderSize = 9;

constexpr uint8_t kFlagCompression = 0x01;
constexpr uint8_t kFlagTracing = 0x02;
constexpr uint8_t kFlagCustomPayload = 0x04;
constexpr uint8_t kFlagWarning = 0x08;
constexpr uint8_t kFlagUseBeta = 0x10;

enum class Opcode : uint8_t {
  kError = 0x00,
  kStartup = 0x01,
  kReady = 0x02,
  kAuthenticate = 0x03,
  kOptions = 0x05,
  kSupported = 0x06,
  kQuery = 0x07,
  kResult = 0x08,
  kPrepare = 0x09,
  kExecute = 0x0A,
  kRegister = 0x0B,
  kEvent = 0x0C,
  kBatch = 0x0D,
  kAuthChallenge = 0x0E,
  kAuthResponse = 0x0F,
  kAuthSuccess = 0x10,
};

struct FrameHeader {
  uint8_t version = 0;  // without the direction bit
  bool is_response = false;
  uint8_t flags = 0;
  int16_t stream = 0;
  uint8_t opcode = 0;  // raw: may be a value Opcode does not name
  uint32_t length = 0;
};

enum class DecodeStatus { kComplete, kNeedMore, kInvalid };

// Reads the 9-byte header at the start of `buffer` without validating the
// version or opcode (the connection decides, since the answer depends on its
// state). kNeedMore when fewer than 9 bytes are present.
DecodeStatus DecodeHeader(BytesView buffer, FrameHeader& header);

// Appends a response header with a zero length; returns the offset of the
// header in `out` so PatchLength can fill in the body length afterwards.
size_t BeginResponse(Bytes& out, int version, uint8_t flags, int16_t stream, Opcode opcode);
// Sets the length field of the header at `header_offset` to the bytes appended since.
void PatchLength(Bytes& out, size_t header_offset);

}  // namespace sibyl::protocol
