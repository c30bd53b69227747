#pragma once
// Protocol v5 segment framing (native_protocol_v5.spec section 2).
//
//   uncompressed:  [3-byte LE header: payload length (17 bits) | self-contained << 17]
//                  [3-byte LE CRC24 of header][payload][4-byte LE CRC32 of payload]
//   lz4:           [5-byte LE header: compressed length (17 bits) | uncompressed length << 17
//                   (0 = payload stored uncompressed) | self-contained << 34]
//                  [3-byte LE CRC24 of header][payload][4-byte LE CRC32 of payload]
//
// A self-contained segment holds one or more whole envelopes; an envelope
// larger than kMaxSegmentPayload spans several non-self-contained segments.

#include <cstddef>
#include <string>

#include "common/bytes.h"
#include "protocol/frame.h"

namespace sibyl::protocol {

constexpr size_t kMaxSegmentPayload = 128 * 1024 - 1;

struct Segment {
  bool self_contained = false;
  BytesView payload;  // uncompressed payload; views `scratch` or the input buffer
};

class SegmentDecoder {
 public:
  explicit SegmentDecoder(bool lz4) : lz4_(lz4) {}
  // Decodes one segment from the front of `buffer`. On kComplete sets
  // `consumed` and `segment` (valid until the next call). On kInvalid sets
  // `error` (bad CRC, bad lengths, corrupt compressed data).
  DecodeStatus Decode(BytesView buffer, Segment& segment, size_t& consumed, std::string& error);

 private:
  bool lz4_;
  Bytes scratch_;
};

// Appends `envelopes` (a concatenation of whole envelopes, each with its
// 9-byte header) to `out` as segments: consecutive envelopes are packed into
// self-contained segments of at most kMaxSegmentPayload bytes; an envelope
// larger than that goes alone into a run of non-self-contained segments.
void EncodeSegments(BytesView envelopes, bool lz4, Bytes& out);

}  // namespace sibyl::protocol
