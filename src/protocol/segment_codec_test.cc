#include "protocol/segment_codec.h"

#include <gtest/gtest.h>

#include "protocol/crc.h"
#include "protocol/test_frames.h"

namespace sibyl::protocol {
namespace {

using testing::RequestFrame;

Bytes Envelope(int16_t stream, size_t body_size) {
  Bytes body;
  for (size_t i = 0; i < body_size; ++i) body.push_back(static_cast<char>('a' + i % 7));
  return RequestFrame(5, 0, stream, 0x07, body);
}

std::vector<Segment> DecodeAll(BytesView bytes, bool lz4, std::vector<Bytes>& payloads) {
  SegmentDecoder decoder(lz4);
  std::vector<Segment> segments;
  while (!bytes.empty()) {
    Segment s;
    size_t consumed = 0;
    std::string error;
    EXPECT_EQ(decoder.Decode(bytes, s, consumed, error), DecodeStatus::kComplete) << error;
    if (consumed == 0) break;
    payloads.emplace_back(s.payload);
    segments.push_back(s);
    bytes.remove_prefix(consumed);
  }
  return segments;
}

TEST(SegmentCodecTest, UncompressedLayoutMatchesTheSpec) {
  // A 50-byte payload: 9-byte header + 41-byte body.
  const Bytes envelope = Envelope(1, 41);
  Bytes out;
  EncodeSegments(envelope, false, out);
  ASSERT_EQ(out.size(), 6 + 50 + 4u);
  EXPECT_EQ(out.substr(0, 6), Bytes("\x32\x00\x02\xa5\xff\xee", 6));
  EXPECT_EQ(out.substr(6, 50), envelope);
  const uint32_t crc = Crc32(envelope);
  EXPECT_EQ(static_cast<uint8_t>(out[56]), crc & 0xFF);
  EXPECT_EQ(static_cast<uint8_t>(out[59]), crc >> 24);
}

TEST(SegmentCodecTest, SmallEnvelopesShareSelfContainedSegments) {
  for (bool lz4 : {false, true}) {
    Bytes envelopes =
        Envelope(1, 10) + Envelope(2, 60000) + Envelope(3, 60000) + Envelope(4, 20000);
    Bytes out;
    EncodeSegments(envelopes, lz4, out);
    std::vector<Bytes> payloads;
    auto segments = DecodeAll(out, lz4, payloads);
    ASSERT_EQ(segments.size(), 2u) << lz4;  // 10+60000+60000 fit, the last starts a new one
    EXPECT_TRUE(segments[0].self_contained);
    EXPECT_TRUE(segments[1].self_contained);
    EXPECT_EQ(payloads[0] + payloads[1], envelopes);
  }
}

TEST(SegmentCodecTest, LargeEnvelopeSpansNonSelfContainedSegments) {
  for (bool lz4 : {false, true}) {
    const Bytes small = Envelope(1, 100);
    const Bytes large = Envelope(2, 300000);
    Bytes out;
    EncodeSegments(small + large + small, lz4, out);
    std::vector<Bytes> payloads;
    auto segments = DecodeAll(out, lz4, payloads);
    ASSERT_EQ(segments.size(), 5u);  // small | 3 parts of large | small
    EXPECT_TRUE(segments[0].self_contained);
    EXPECT_FALSE(segments[1].self_contained);
    EXPECT_FALSE(segments[2].self_contained);
    EXPECT_FALSE(segments[3].self_contained);
    EXPECT_TRUE(segments[4].self_contained);
    EXPECT_EQ(payloads[1].size(), kMaxSegmentPayload);
    EXPECT_EQ(payloads[1] + payloads[2] + payloads[3], large);
  }
}

TEST(SegmentCodecTest, Lz4KeepsIncompressiblePayloadsUncompressed) {
  Bytes noise;
  uint32_t x = 12345;
  for (int i = 0; i < 200; ++i) {
    x = x * 1103515245 + 12345;
    noise.push_back(static_cast<char>(x >> 16));
  }
  const Bytes envelope = RequestFrame(5, 0, 1, 0x07, noise);
  Bytes out;
  EncodeSegments(envelope, true, out);
  // Header: compressed length = payload size, uncompressed length 0.
  const uint64_t header =
      uint64_t{static_cast<uint8_t>(out[0])} | uint64_t{static_cast<uint8_t>(out[1])} << 8 |
      uint64_t{static_cast<uint8_t>(out[2])} << 16 | uint64_t{static_cast<uint8_t>(out[3])} << 24 |
      uint64_t{static_cast<uint8_t>(out[4])} << 32;
  EXPECT_EQ(header & 0x1FFFF, envelope.size());
  EXPECT_EQ((header >> 17) & 0x1FFFF, 0u);
  EXPECT_TRUE((header >> 34) & 1);
  std::vector<Bytes> payloads;
  DecodeAll(out, true, payloads);
  ASSERT_EQ(payloads.size(), 1u);
  EXPECT_EQ(payloads[0], envelope);
}

TEST(SegmentCodecTest, PartialInputNeedsMore) {
  Bytes out;
  EncodeSegments(Envelope(1, 100), false, out);
  SegmentDecoder decoder(false);
  for (size_t n = 0; n < out.size(); ++n) {
    Segment s;
    size_t consumed = 0;
    std::string error;
    EXPECT_EQ(decoder.Decode(BytesView(out).substr(0, n), s, consumed, error),
              DecodeStatus::kNeedMore);
  }
}

TEST(SegmentCodecTest, CorruptHeaderOrPayloadIsInvalid) {
  for (bool lz4 : {false, true}) {
    Bytes out;
    EncodeSegments(Envelope(1, 100), lz4, out);
    Bytes bad_header = out;
    bad_header[0] ^= 0x01;
    Bytes bad_payload = out;
    bad_payload[lz4 ? 9 : 7] ^= 0x01;
    Bytes bad_trailer = out;
    bad_trailer.back() ^= 0x01;
    SegmentDecoder decoder(lz4);
    Segment s;
    size_t consumed = 0;
    std::string error;
    EXPECT_EQ(decoder.Decode(bad_header, s, consumed, error), DecodeStatus::kInvalid);
    EXPECT_NE(error.find("CRC mismatch detected in frame header"), std::string::npos) << error;
    EXPECT_EQ(decoder.Decode(bad_payload, s, consumed, error), DecodeStatus::kInvalid);
    EXPECT_NE(error.find("CRC mismatch detected in frame body"), std::string::npos) << error;
    EXPECT_EQ(decoder.Decode(bad_trailer, s, consumed, error), DecodeStatus::kInvalid);
  }
}

TEST(SegmentCodecTest, CorruptLz4WithValidCrcIsInvalid) {
  // Hand-made lz4 segment claiming 100 uncompressed bytes from garbage.
  const Bytes payload = "\xff\xff\xff\xff\xff\xff";
  const uint64_t header = payload.size() | (uint64_t{100} << 17) | (uint64_t{1} << 34);
  Bytes out;
  for (int i = 0; i < 5; ++i) out.push_back(static_cast<char>(header >> (8 * i)));
  const uint32_t hcrc = Crc24(header, 5);
  for (int i = 0; i < 3; ++i) out.push_back(static_cast<char>(hcrc >> (8 * i)));
  out += payload;
  const uint32_t pcrc = Crc32(payload);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(pcrc >> (8 * i)));
  SegmentDecoder decoder(true);
  Segment s;
  size_t consumed = 0;
  std::string error;
  EXPECT_EQ(decoder.Decode(out, s, consumed, error), DecodeStatus::kInvalid);
}

}  // namespace
}  // namespace sibyl::protocol
