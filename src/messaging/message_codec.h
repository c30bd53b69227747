#pragma once
// Frames messages on a byte stream, free of sockets (a connection reads into
// the decoder and writes what the encoder appends). docs/dev/messaging.md
// has the layout; in short, every value big-endian:
//
//   struct Frame {
//     char     magic[4];        // "SBYM"
//     uint8_t  version;         // 1
//     uint8_t  kind;            // MessageKind
//     uint16_t verb;            // Verb
//     uint64_t id;
//     uint64_t epoch;
//     uint8_t  sender[16];      // host id
//     uint32_t payload_length;  // <= the decoder's max_payload
//     uint32_t header_crc;      // zlib crc32 of the 44 bytes above
//     char     payload[payload_length];
//     uint32_t payload_crc;     // zlib crc32 of the payload
//   };
//
// The header has its own checksum so that a corrupted length is caught
// before the decoder waits for a payload that will never come. CRC32 is
// zlib's because Sibyl already links zlib (the native protocol's v5 framing
// uses it too); it runs at several GB/s, far above what a socket delivers.
// A frame that fails any check ends the connection: after a bad byte the
// stream cannot be resynchronised with confidence.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/bytes.h"
#include "messaging/message.h"

namespace sibyl::messaging {

inline constexpr char kFrameMagic[4] = {'S', 'B', 'Y', 'M'};
inline constexpr uint8_t kFrameVersion = 1;
inline constexpr size_t kFrameHeaderSize = 48;
inline constexpr size_t kFrameOverhead = kFrameHeaderSize + 4;  // header + payload CRC
// The largest payload accepted by default: well above any legitimate
// message (a mutation is bounded by the commit log, a range read's reply by
// its page), and small enough that a lying peer cannot make a node reserve
// gigabytes. The decoder never reserves it up front in any case: the buffer
// grows only as bytes arrive.
inline constexpr size_t kDefaultMaxPayload = 128 * 1024 * 1024;

// The frame's size on the wire.
inline size_t FrameSize(const Message& message) { return kFrameOverhead + message.payload.size(); }
// Appends the frame of `message` to `out`. REQUIRES: the payload fits in 32 bits.
void AppendFrame(const Message& message, Bytes& out);

enum class DecodeResult {
  kMessage,   // `out` holds the next message
  kNeedMore,  // no complete frame is buffered: read more and call Next again
  kError,     // malformed input (error() says how): close the connection.
              // Sticky: every later Next returns kError.
};

// Not thread-safe: one connection's reader drives it.
class FrameDecoder {
 public:
  explicit FrameDecoder(size_t max_payload = kDefaultMaxPayload) : max_payload_(max_payload) {}
  FrameDecoder(const FrameDecoder&) = delete;
  FrameDecoder& operator=(const FrameDecoder&) = delete;

  // Space for up to `n` more bytes; CommitRead says how many were written.
  // Invalidates what Next returned only through `out`, which owns its bytes.
  std::span<char> PrepareRead(size_t n);
  void CommitRead(size_t n);
  // PrepareRead, copy, CommitRead (tests, simulated links).
  void Append(BytesView bytes);

  DecodeResult Next(Message& out);

  const std::string& error() const { return error_; }
  size_t buffered() const { return end_ - begin_; }

 private:
  DecodeResult Fail(std::string reason);
  // Checks what is buffered of a header; false (with error_ set) on a bad one.
  bool CheckHeaderPrefix(const char* p, size_t available);

  size_t max_payload_;
  Bytes buffer_;  // [begin_, end_) holds unconsumed bytes
  size_t begin_ = 0;
  size_t end_ = 0;
  std::string error_;
};

}  // namespace sibyl::messaging
