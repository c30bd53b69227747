#include "protocol/connection_codec.h"

#include <gtest/gtest.h>

#include "protocol/crc.h"
#include "protocol/response.h"
#include "protocol/test_frames.h"
#include "protocol/wire_reader.h"

namespace sibyl::protocol {
namespace {

using testing::Feed;
using testing::ParsedEnvelope;
using testing::ParseEnvelopes;
using testing::QueryBody;
using testing::RequestFrame;
using testing::Segments;
using testing::StartupBody;
using testing::TakeOutput;
using testing::Unsegment;

constexpr uint8_t kStartup = 0x01;
constexpr uint8_t kOptions = 0x05;
constexpr uint8_t kQuery = 0x07;

CodecOptions WithMaxFrameSize(size_t max_frame_size) {
  CodecOptions options;
  options.max_frame_size = max_frame_size;
  return options;
}

struct Received {
  FrameHeader header;
  Bytes body;
};

// Calls Next until it needs more; the last result is returned in `last`.
std::vector<Received> Drain(ConnectionCodec& codec, NextResult* last = nullptr) {
  std::vector<Received> got;
  for (;;) {
    Envelope env;
    NextResult r = codec.Next(env);
    if (r != NextResult::kEnvelope) {
      if (last) *last = r;
      return got;
    }
    got.push_back({env.header, Bytes(env.body)});
  }
}

// The ERROR body's code and message.
std::pair<int32_t, std::string> ErrorOf(const ParsedEnvelope& e) {
  EXPECT_EQ(e.opcode, 0x00);
  WireReader r(e.body);
  int32_t code = r.ReadInt("code");
  return {code, std::string(r.ReadString())};
}

void Reply(ConnectionCodec& codec, int16_t stream, Opcode opcode, BytesView body = {}) {
  Bytes& out = codec.BeginResponse(stream, opcode);
  out.append(body);
  codec.EndResponse();
}

// OPTIONS and STARTUP in `version`, answered SUPPORTED and READY.
void Handshake(ConnectionCodec& codec, int version, Compression compression = Compression::kNone) {
  Feed(codec, RequestFrame(version, 0, 0, kOptions, ""));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  Reply(codec, 0, Opcode::kSupported, "\x00\x00");
  Feed(codec, RequestFrame(version, 0, 1, kStartup, StartupBody()));
  got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.opcode, kStartup);
  codec.SetCompression(compression);
  Reply(codec, 1, Opcode::kReady);
  if (version >= 5) codec.StartSegmentFraming();
}

TEST(ConnectionCodecTest, V4Handshake) {
  ConnectionCodec codec;
  EXPECT_EQ(codec.version(), 0);
  Handshake(codec, 4);
  EXPECT_EQ(codec.version(), 4);
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].version_byte, 0x84);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kSupported));
  EXPECT_EQ(out[0].stream, 0);
  EXPECT_EQ(out[1].opcode, static_cast<uint8_t>(Opcode::kReady));
  EXPECT_EQ(out[1].stream, 1);
  EXPECT_EQ(out[1].body, "");
  EXPECT_FALSE(codec.HasOutput());
}

TEST(ConnectionCodecTest, V3HandshakeAndQuery) {
  ConnectionCodec codec;
  Handshake(codec, 3);
  Feed(codec, RequestFrame(3, 0, 7, kQuery, QueryBody("SELECT 1", 3)));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.version, 3);
  EXPECT_EQ(got[0].header.stream, 7);
  Reply(codec, 7, Opcode::kResult, "\x00\x00\x00\x01");
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].version_byte, 0x83);
  EXPECT_EQ(out[2].stream, 7);
}

TEST(ConnectionCodecTest, VersionFollowsFramesUntilStartup) {
  // Cassandra's handshake handler answers each OPTIONS in its own version and
  // fixes the version at STARTUP.
  ConnectionCodec codec;
  Feed(codec, RequestFrame(5, 0, 0, kOptions, ""));
  ASSERT_EQ(Drain(codec).size(), 1u);
  EXPECT_EQ(codec.version(), 5);
  Reply(codec, 0, Opcode::kSupported, "\x00\x00");
  Feed(codec, RequestFrame(4, 0, 1, kStartup, StartupBody()));
  ASSERT_EQ(Drain(codec).size(), 1u);
  EXPECT_EQ(codec.version(), 4);
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].version_byte, 0x85);
}

TEST(ConnectionCodecTest, PipelinedFramesSplitAtEveryByte) {
  const Bytes stream = RequestFrame(4, 0, 0, kOptions, "") +
                       RequestFrame(4, 0, 1, kStartup, StartupBody()) +
                       RequestFrame(4, 0, 2, kQuery, QueryBody("SELECT * FROM t", 4)) +
                       RequestFrame(4, 0, 3, kQuery, QueryBody("", 4));
  for (size_t split = 0; split <= stream.size(); ++split) {
    ConnectionCodec codec;
    Feed(codec, BytesView(stream).substr(0, split));
    auto got = Drain(codec);
    Feed(codec, BytesView(stream).substr(split));
    auto rest = Drain(codec);
    got.insert(got.end(), rest.begin(), rest.end());
    ASSERT_EQ(got.size(), 4u) << split;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i].header.stream, i);
    EXPECT_EQ(got[2].body, QueryBody("SELECT * FROM t", 4));
  }
  // And one byte per read.
  ConnectionCodec codec;
  std::vector<Received> got;
  for (char c : stream) {
    Feed(codec, BytesView(&c, 1));
    auto more = Drain(codec);
    got.insert(got.end(), more.begin(), more.end());
  }
  EXPECT_EQ(got.size(), 4u);
}

TEST(ConnectionCodecTest, V4Lz4AndSnappyBodies) {
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    ConnectionCodec codec;
    Handshake(codec, 4, c);
    auto out = ParseEnvelopes(TakeOutput(codec));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].flags & kFlagCompression, 0);  // SUPPORTED: before compression
    // READY is compressed, as Cassandra compresses it once STARTUP set the compressor.
    EXPECT_EQ(out[1].flags & kFlagCompression, kFlagCompression);
    Bytes ready;
    ASSERT_TRUE(DecompressBody(c, out[1].body, 1024, ready));
    EXPECT_EQ(ready, "");

    const Bytes body = QueryBody("SELECT * FROM ks.table WHERE k = 'aaaaaaaaaaaaaaaaaaaaaa'", 4);
    Bytes compressed;
    CompressBody(c, body, compressed);
    Feed(codec, RequestFrame(4, kFlagCompression, 9, kQuery, compressed));
    Feed(codec, RequestFrame(4, 0, 10, kQuery, body));  // uncompressed frames stay allowed
    auto got = Drain(codec);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].body, body);
    EXPECT_EQ(got[1].body, body);

    Bytes result(1000, 'r');
    Reply(codec, 9, Opcode::kResult, result);
    out = ParseEnvelopes(TakeOutput(codec));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].flags & kFlagCompression, kFlagCompression);
    EXPECT_LT(out[0].body.size(), result.size());
    Bytes back;
    ASSERT_TRUE(DecompressBody(c, out[0].body, 1 << 20, back));
    EXPECT_EQ(back, result);
  }
}

TEST(ConnectionCodecTest, CompressedFlagWithoutNegotiationPassesBodyThrough) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  const Bytes body = QueryBody("SELECT 1", 4);
  Feed(codec, RequestFrame(4, kFlagCompression, 2, kQuery, body));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].body, body);
}

TEST(ConnectionCodecTest, V4DecompressionFailuresAnswerAndContinue) {
  ConnectionCodec codec;
  Handshake(codec, 4, Compression::kLz4);
  TakeOutput(codec);
  Bytes lying;
  AppendBE32(lying, 0x7FFFFFF0);
  lying += "\x10z";
  Feed(codec, RequestFrame(4, kFlagCompression, 3, kQuery, "ab"));
  Feed(codec, RequestFrame(4, kFlagCompression, 4, kQuery, lying));
  Feed(codec, RequestFrame(4, kFlagCompression, 5, kQuery, "\x00\x00\x00\x10garbage!"));
  Feed(codec, RequestFrame(4, 0, 6, kQuery, QueryBody("SELECT 1", 4)));
  NextResult last;
  auto got = Drain(codec, &last);
  EXPECT_EQ(last, NextResult::kNeedMore);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.stream, 6);
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 3u);
  // Errors are compressed like every other response once lz4 is on.
  std::vector<std::pair<int32_t, std::string>> errors;
  for (const auto& e : out) {
    Bytes body;
    ASSERT_TRUE(DecompressBody(Compression::kLz4, e.body, 1 << 20, body));
    ParsedEnvelope plain = e;
    plain.body = body;
    errors.push_back(ErrorOf(plain));
  }
  EXPECT_EQ(out[0].stream, 3);
  EXPECT_EQ(
      errors[0],
      std::make_pair(0x000A, std::string("Provided frame does not appear to be LZ4 compressed")));
  EXPECT_EQ(out[1].stream, 4);
  EXPECT_EQ(errors[1].second,
            "Invalid uncompressed frame length 2147483632; it must be non-negative and no greater "
            "than native_transport_max_frame_size (16777216 bytes)");
  EXPECT_EQ(out[2].stream, 5);
  EXPECT_EQ(errors[2].first, 0x000A);
}

TEST(ConnectionCodecTest, UnsupportedVersionIsAnsweredUnframedAndCloses) {
  for (int requested : {0x42, 0x41, 6, 0x7F, 0}) {
    ConnectionCodec codec;
    Feed(codec, RequestFrame(requested, 0, 5, kOptions, ""));
    Envelope env;
    EXPECT_EQ(codec.Next(env), NextResult::kClose);
    EXPECT_EQ(codec.Next(env), NextResult::kClose);
    auto out = ParseEnvelopes(TakeOutput(codec));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].version_byte, 0x85);
    EXPECT_EQ(out[0].stream, 0);  // Cassandra rejects from the first byte
    EXPECT_EQ(ErrorOf(out[0]),
              std::make_pair(0x000A, "Invalid or unsupported protocol version (" +
                                         std::to_string(requested) +
                                         "); supported versions are (3/v3, 4/v4, 5/v5)"));
  }
}

TEST(ConnectionCodecTest, UnsupportedVersionNeedsOnlyTheFirstByte) {
  ConnectionCodec codec;
  Feed(codec, "\x42");
  Envelope env;
  EXPECT_EQ(codec.Next(env), NextResult::kClose);
  EXPECT_TRUE(codec.HasOutput());
}

TEST(ConnectionCodecTest, OldVersionsAreAnsweredInTheirOwnHeaderLayout) {
  for (int requested : {1, 2}) {
    ConnectionCodec codec;
    Feed(codec, Bytes{static_cast<char>(requested), 0, 0, kOptions, 0, 0, 0, 0});
    Envelope env;
    EXPECT_EQ(codec.Next(env), NextResult::kClose);
    const Bytes out = TakeOutput(codec);
    ASSERT_GE(out.size(), 8u);
    EXPECT_EQ(static_cast<uint8_t>(out[0]), 0x80 | requested);
    EXPECT_EQ(out[2], 0);  // one-byte stream
    EXPECT_EQ(out[3], 0);  // ERROR
    EXPECT_EQ(LoadBE32(out.data() + 4), out.size() - 8);
    WireReader r(BytesView(out).substr(8));
    EXPECT_EQ(r.ReadInt("code"), 0x000A);
    EXPECT_EQ(r.ReadString(), "Invalid or unsupported protocol version (" +
                                  std::to_string(requested) +
                                  "); supported versions are (3/v3, 4/v4, 5/v5)");
  }
}

TEST(ConnectionCodecTest, TooBigFrameIsSkippedAndAnsweredWithoutBuffering) {
  ConnectionCodec codec(WithMaxFrameSize(1024));
  Handshake(codec, 4);
  TakeOutput(codec);
  const Bytes big = RequestFrame(4, 0, 12, kQuery, Bytes(5000, 'x'));
  const Bytes next = RequestFrame(4, 0, 13, kQuery, QueryBody("SELECT 1", 4));
  const Bytes all = big + next;
  std::vector<Received> got;
  for (size_t at = 0; at < all.size(); at += 100) {
    Feed(codec, BytesView(all).substr(at, 100));
    auto more = Drain(codec);
    got.insert(got.end(), more.begin(), more.end());
    // The input never holds more than what a read brings.
    EXPECT_LE(codec.PrepareRead(100).size(), 4096u);
  }
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.stream, 13);
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].stream, 12);
  EXPECT_EQ(ErrorOf(out[0]),
            std::make_pair(0x2200, std::string("Request is too big: length 5009 exceeds maximum "
                                               "allowed length 1024.")));
}

TEST(ConnectionCodecTest, HugeDeclaredLengthDoesNotAllocate) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  Bytes header = RequestFrame(4, 0, 1, kQuery, "");
  StoreBE32(header.data() + 5, 0xFFFFFFF0u);
  Feed(codec, header);
  NextResult last;
  EXPECT_TRUE(Drain(codec, &last).empty());
  EXPECT_EQ(last, NextResult::kNeedMore);
  EXPECT_LE(codec.PrepareRead(16).size(), 4096u);
  // Also a length just under the limit: buffered only as it arrives.
  ConnectionCodec codec2;
  Handshake(codec2, 4);
  Bytes header2 = RequestFrame(4, 0, 1, kQuery, "");
  StoreBE32(header2.data() + 5, 16 * 1024 * 1024 - 100);
  Feed(codec2, header2);
  EXPECT_TRUE(Drain(codec2).empty());
  EXPECT_LE(codec2.PrepareRead(16).size(), 4096u);
}

TEST(ConnectionCodecTest, UnknownOpcodeAndWrongDirectionAreSkipped) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  TakeOutput(codec);
  Bytes response_dir = RequestFrame(4, 0, 21, kQuery, QueryBody("x", 4));
  response_dir[0] = static_cast<char>(0x84);
  Feed(codec, RequestFrame(4, 0, 20, 0x20, "some body") + response_dir +
                  RequestFrame(4, 0, 22, 0x08, "abc") +
                  RequestFrame(4, 0, 23, kQuery, QueryBody("SELECT 1", 4)));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.stream, 23);
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].stream, 20);
  EXPECT_EQ(ErrorOf(out[0]), std::make_pair(0x000A, std::string("Unknown opcode 32")));
  EXPECT_EQ(out[1].stream, 21);
  EXPECT_EQ(ErrorOf(out[1]).second,
            "Wrong protocol direction (expected REQUEST, got RESPONSE) for opcode 7 (QUERY)");
  EXPECT_EQ(out[2].stream, 22);
  EXPECT_EQ(ErrorOf(out[2]).second,
            "Wrong protocol direction (expected RESPONSE, got REQUEST) for opcode 8 (RESULT)");
}

TEST(ConnectionCodecTest, VersionChangeAfterStartupIsAnError) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  TakeOutput(codec);
  Feed(codec, RequestFrame(3, 0, 30, kQuery, QueryBody("SELECT 1", 3)) +
                  RequestFrame(4, 0, 31, kQuery, QueryBody("SELECT 1", 4)));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.stream, 31);
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].version_byte, 0x84);
  EXPECT_EQ(out[0].stream, 30);
  EXPECT_EQ(ErrorOf(out[0]).second,
            "Invalid message version. Got 3/v3 but previous messages on this connection had "
            "version 4/v4");
}

TEST(ConnectionCodecTest, EventsUseStreamMinusOne) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  TakeOutput(codec);
  Bytes& body = codec.BeginResponse(-1, Opcode::kEvent);
  EncodeStatusChangeEvent(body, "UP", Bytes("\x7f\x00\x00\x01", 4), 9042);
  codec.EndResponse();
  auto out = ParseEnvelopes(TakeOutput(codec));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].stream, -1);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kEvent));
}

TEST(ConnectionCodecTest, PartialWritesKeepTheRest) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  const Bytes all(codec.Output());
  codec.ConsumeOutput(5);
  EXPECT_EQ(Bytes(codec.Output()), all.substr(5));
  Reply(codec, 3, Opcode::kResult, "\x00\x00\x00\x01");
  const Bytes rest(codec.Output());
  EXPECT_EQ(rest.substr(0, all.size() - 5), all.substr(5));
  codec.ConsumeOutput(rest.size());
  EXPECT_FALSE(codec.HasOutput());
}

TEST(ConnectionCodecTest, TakeOutputHandsOverOnlyTheUnwrittenBytes) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  const Bytes all(codec.Output());
  codec.ConsumeOutput(5);
  Bytes taken = "stale contents";
  codec.TakeOutput(taken);
  EXPECT_EQ(taken, all.substr(5));
  EXPECT_FALSE(codec.HasOutput());
  Reply(codec, 3, Opcode::kResult, "\x00\x00\x00\x01");
  codec.TakeOutput(taken);
  EXPECT_EQ(ParseEnvelopes(taken).size(), 1u);
}

// ---- v5 ----------------------------------------------------------------------

// The server's framed output, unwrapped into envelopes.
std::vector<ParsedEnvelope> FramedOutput(ConnectionCodec& codec, bool lz4) {
  Bytes envelopes;
  EXPECT_TRUE(Unsegment(TakeOutput(codec), lz4, envelopes));
  return ParseEnvelopes(envelopes);
}

TEST(ConnectionCodecTest, V5HandshakeRepliesUnframedThenFrames) {
  for (bool lz4 : {false, true}) {
    ConnectionCodec codec;
    Handshake(codec, 5, lz4 ? Compression::kLz4 : Compression::kNone);
    EXPECT_TRUE(codec.segment_framing());
    // SUPPORTED and READY: plain envelopes, READY uncompressed.
    auto out = ParseEnvelopes(TakeOutput(codec));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].version_byte, 0x85);
    EXPECT_EQ(out[1].opcode, static_cast<uint8_t>(Opcode::kReady));
    EXPECT_EQ(out[1].flags, 0);
    EXPECT_EQ(out[1].body, "");

    // Two queries in one self-contained segment.
    const Bytes q1 = RequestFrame(5, 0, 2, kQuery, QueryBody("SELECT a FROM t", 5));
    const Bytes q2 = RequestFrame(5, 0, 3, kQuery, QueryBody("SELECT b FROM t", 5));
    Feed(codec, Segments(q1 + q2, lz4));
    auto got = Drain(codec);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].header.stream, 2);
    EXPECT_EQ(got[0].body, QueryBody("SELECT a FROM t", 5));
    EXPECT_EQ(got[1].header.stream, 3);

    // Both replies coalesced into one self-contained segment.
    Reply(codec, 2, Opcode::kResult, "\x00\x00\x00\x01");
    Reply(codec, 3, Opcode::kResult, "\x00\x00\x00\x01");
    const Bytes wire(codec.Output());
    SegmentDecoder decoder(lz4);
    Segment seg;
    size_t consumed = 0;
    std::string error;
    ASSERT_EQ(decoder.Decode(wire, seg, consumed, error), DecodeStatus::kComplete);
    EXPECT_EQ(consumed, wire.size());
    EXPECT_TRUE(seg.self_contained);
    auto replies = ParseEnvelopes(seg.payload);
    ASSERT_EQ(replies.size(), 2u);
    EXPECT_EQ(replies[0].version_byte, 0x85);
    EXPECT_EQ(replies[0].flags, 0);  // v5 compresses segments, not envelopes
    EXPECT_EQ(replies[1].stream, 3);
  }
}

TEST(ConnectionCodecTest, V5SegmentsSplitAtEveryByte) {
  const Bytes envelopes = RequestFrame(5, 0, 1, kQuery, QueryBody("SELECT 1", 5)) +
                          RequestFrame(5, 0, 2, kQuery, QueryBody("SELECT 2", 5));
  const Bytes wire = Segments(envelopes, false) + Segments(envelopes, false);
  for (size_t split = 0; split <= wire.size(); ++split) {
    ConnectionCodec codec;
    Handshake(codec, 5);
    Feed(codec, BytesView(wire).substr(0, split));
    auto got = Drain(codec);
    Feed(codec, BytesView(wire).substr(split));
    auto rest = Drain(codec);
    got.insert(got.end(), rest.begin(), rest.end());
    ASSERT_EQ(got.size(), 4u) << split;
    EXPECT_EQ(got[3].header.stream, 2);
  }
}

TEST(ConnectionCodecTest, V5ReadsBetweenEnvelopesOfOneSegment) {
  // The server may read again before it has taken every envelope of a segment.
  ConnectionCodec codec;
  Handshake(codec, 5);
  const Bytes envelopes = RequestFrame(5, 0, 1, kQuery, QueryBody("SELECT 1", 5)) +
                          RequestFrame(5, 0, 2, kQuery, QueryBody("SELECT 2", 5));
  Feed(codec, Segments(envelopes, false));
  Envelope env;
  ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);
  EXPECT_EQ(env.header.stream, 1);
  Feed(codec, Segments(RequestFrame(5, 0, 3, kQuery, QueryBody("SELECT 3", 5)), false));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].header.stream, 2);
  EXPECT_EQ(got[0].body, QueryBody("SELECT 2", 5));
  EXPECT_EQ(got[1].header.stream, 3);
}

TEST(ConnectionCodecTest, V5LargeEnvelopesSpanSegmentsBothWays) {
  for (bool lz4 : {false, true}) {
    ConnectionCodec codec;
    Handshake(codec, 5, lz4 ? Compression::kLz4 : Compression::kNone);
    TakeOutput(codec);
    Bytes query(300000, 'q');
    for (size_t i = 0; i < query.size(); i += 7) query[i] = static_cast<char>('a' + i % 26);
    const Bytes body = QueryBody(query, 5);
    const Bytes wire = Segments(RequestFrame(5, 0, 8, kQuery, body) +
                                    RequestFrame(5, 0, 9, kQuery, QueryBody("SELECT 1", 5)),
                                lz4);
    std::vector<Received> got;
    for (size_t at = 0; at < wire.size(); at += 4099) {
      Feed(codec, BytesView(wire).substr(at, 4099));
      auto more = Drain(codec);
      got.insert(got.end(), more.begin(), more.end());
    }
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].header.stream, 8);
    EXPECT_EQ(got[0].body, body);
    EXPECT_EQ(got[1].header.stream, 9);

    Reply(codec, 8, Opcode::kResult, query);
    Reply(codec, 9, Opcode::kResult, "\x00\x00\x00\x01");
    auto replies = FramedOutput(codec, lz4);
    ASSERT_EQ(replies.size(), 2u);
    EXPECT_EQ(replies[0].body, query);
    EXPECT_EQ(replies[1].stream, 9);
  }
}

std::pair<int32_t, std::string> OnlyFramedError(ConnectionCodec& codec, int16_t stream) {
  auto out = FramedOutput(codec, false);
  EXPECT_EQ(out.size(), 1u);
  if (out.empty()) return {};
  EXPECT_EQ(out[0].version_byte, 0x85);
  EXPECT_EQ(out[0].stream, stream);
  return ErrorOf(out[0]);
}

TEST(ConnectionCodecTest, V5BadHeaderCrcCloses) {
  CodecOptions options;
  options.connection_id = "a1b2c3d4";
  ConnectionCodec codec(options);
  Handshake(codec, 5);
  TakeOutput(codec);
  Bytes wire = Segments(RequestFrame(5, 0, 1, kQuery, QueryBody("SELECT 1", 5)), false);
  wire[3] ^= 0x40;
  Feed(codec, wire);
  NextResult last;
  EXPECT_TRUE(Drain(codec, &last).empty());
  EXPECT_EQ(last, NextResult::kClose);
  auto [code, message] = OnlyFramedError(codec, 0);
  EXPECT_EQ(code, 0x000A);
  EXPECT_EQ(message.rfind("a1b2c3d4 invalid, unrecoverable CRC mismatch detected in frame header. "
                          "Read ",
                          0),
            0u)
      << message;
}

TEST(ConnectionCodecTest, V5BadPayloadCrcCloses) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  Bytes wire = Segments(RequestFrame(5, 0, 1, kQuery, QueryBody("SELECT 1", 5)), false);
  wire[10] ^= 0x01;
  Feed(codec, wire);
  NextResult last;
  EXPECT_TRUE(Drain(codec, &last).empty());
  EXPECT_EQ(last, NextResult::kClose);
  auto [code, message] = OnlyFramedError(codec, 0);
  EXPECT_EQ(code, 0x000A);
  EXPECT_NE(message.find("CRC mismatch detected in frame body. Read "), std::string::npos);
}

TEST(ConnectionCodecTest, V5OneBadEnvelopePerSegmentIsSkipped) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  Feed(codec, Segments(RequestFrame(5, 0, 1, 0x33, "junk") +
                           RequestFrame(5, 0, 2, kQuery, QueryBody("SELECT 1", 5)) +
                           RequestFrame(4, 0, 3, kQuery, QueryBody("SELECT 1", 4)) +
                           RequestFrame(5, 0, 4, kQuery, QueryBody("SELECT 1", 5)),
                       false));
  NextResult last;
  auto got = Drain(codec, &last);
  EXPECT_EQ(last, NextResult::kNeedMore);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].header.stream, 2);
  EXPECT_EQ(got[1].header.stream, 4);
  auto out = FramedOutput(codec, false);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].stream, 1);
  EXPECT_EQ(ErrorOf(out[0]).second, "Unknown opcode 51");
  EXPECT_EQ(out[1].stream, 3);
  EXPECT_EQ(ErrorOf(out[1]).second,
            "Invalid message version. Got 4/v4 but previousmessages on this connection had "
            "version 5/v5");
}

TEST(ConnectionCodecTest, V5TwoBadEnvelopesInARowClose) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  Feed(codec, Segments(RequestFrame(5, 0, 1, 0x33, "") + RequestFrame(5, 0, 2, 0x34, "") +
                           RequestFrame(5, 0, 3, kQuery, QueryBody("SELECT 1", 5)),
                       false));
  NextResult last;
  EXPECT_TRUE(Drain(codec, &last).empty());
  EXPECT_EQ(last, NextResult::kClose);
  auto out = FramedOutput(codec, false);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].stream, 2);
}

TEST(ConnectionCodecTest, V5ErrorCountRestartsWithEachSegment) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  Feed(codec, Segments(RequestFrame(5, 0, 1, 0x33, ""), false) +
                  Segments(RequestFrame(5, 0, 2, 0x33, ""), false) +
                  Segments(RequestFrame(5, 0, 3, kQuery, QueryBody("SELECT 1", 5)), false));
  auto got = Drain(codec);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.stream, 3);
}

TEST(ConnectionCodecTest, V5BadRequestsReportedByTheServerCount) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  const Bytes q = RequestFrame(5, 0, 1, kQuery, QueryBody("SELECT 1", 5));
  Feed(codec, Segments(q + q + q, false));
  Envelope env;
  ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);
  codec.NoteBadRequest();
  ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);  // decoded fine: resets the count
  ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);
  codec.NoteBadRequest();
  EXPECT_EQ(codec.Next(env), NextResult::kNeedMore);

  Feed(codec, Segments(q + q + q, false));
  ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);
  codec.NoteBadRequest();
  ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);
  codec.NoteBadRequest();
  EXPECT_EQ(codec.Next(env), NextResult::kClose);
}

TEST(ConnectionCodecTest, V4BadRequestsNeverClose) {
  ConnectionCodec codec;
  Handshake(codec, 4);
  const Bytes q = RequestFrame(4, 0, 1, kQuery, QueryBody("SELECT 1", 4));
  Feed(codec, q + q + q);
  Envelope env;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(codec.Next(env), NextResult::kEnvelope);
    codec.NoteBadRequest();
  }
  EXPECT_EQ(codec.Next(env), NextResult::kNeedMore);
}

// One segment carrying exactly `payload`, self-contained unless told
// otherwise (EncodeSegments trusts envelope lengths, so lies need framing by
// hand).
Bytes RawSegment(BytesView payload, bool self_contained = true) {
  Bytes out;
  const uint64_t header = payload.size() | (uint64_t{self_contained} << 17);
  for (int i = 0; i < 3; ++i) out.push_back(static_cast<char>(header >> (8 * i)));
  const uint32_t header_crc = Crc24(header, 3);
  for (int i = 0; i < 3; ++i) out.push_back(static_cast<char>(header_crc >> (8 * i)));
  out.append(payload);
  const uint32_t payload_crc = Crc32(payload);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(payload_crc >> (8 * i)));
  return out;
}

TEST(ConnectionCodecTest, V5EnvelopeOverflowingItsSegmentCloses) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  Bytes envelope = RequestFrame(5, 0, 1, kQuery, QueryBody("SELECT 1", 5));
  StoreBE32(envelope.data() + 5, 1000);
  Feed(codec, RawSegment(envelope));
  NextResult last;
  EXPECT_TRUE(Drain(codec, &last).empty());
  EXPECT_EQ(last, NextResult::kClose);
  EXPECT_EQ(OnlyFramedError(codec, 1).first, 0x000A);
}

TEST(ConnectionCodecTest, V5NegativeLengthAndShortHeaderClose) {
  {
    ConnectionCodec codec;
    Handshake(codec, 5);
    TakeOutput(codec);
    Bytes envelope = RequestFrame(5, 0, 6, kQuery, "");
    StoreBE32(envelope.data() + 5, 0x80000000u);
    Feed(codec, RawSegment(envelope));
    NextResult last;
    EXPECT_TRUE(Drain(codec, &last).empty());
    EXPECT_EQ(last, NextResult::kClose);
    EXPECT_EQ(OnlyFramedError(codec, 6).second,
              "Invalid value for envelope header body length field: -2147483648");
  }
  {
    ConnectionCodec codec;
    Handshake(codec, 5);
    TakeOutput(codec);
    Feed(codec, RawSegment(Bytes("\x05\x00\x00", 3)));
    NextResult last;
    EXPECT_TRUE(Drain(codec, &last).empty());
    EXPECT_EQ(last, NextResult::kClose);
    EXPECT_EQ(OnlyFramedError(codec, 0).second, "Undersized buffer supplied. Expected 9, actual 3");
  }
}

TEST(ConnectionCodecTest, V5TooBigLargeEnvelopeIsSkippedAndAnswered) {
  ConnectionCodec codec(WithMaxFrameSize(200000));
  Handshake(codec, 5);
  TakeOutput(codec);
  const Bytes wire = Segments(RequestFrame(5, 0, 40, kQuery, Bytes(300000, 'x')) +
                                  RequestFrame(5, 0, 41, kQuery, QueryBody("SELECT 1", 5)),
                              false);
  std::vector<Received> got;
  for (size_t at = 0; at < wire.size(); at += 8192) {
    Feed(codec, BytesView(wire).substr(at, 8192));
    auto more = Drain(codec);
    got.insert(got.end(), more.begin(), more.end());
  }
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.stream, 41);
  auto [code, message] = OnlyFramedError(codec, 40);
  EXPECT_EQ(code, 0x2200);
  EXPECT_EQ(message, "Request is too big: length 300009 exceeds maximum allowed length 200000.");
}

// The first part of an envelope spanning several segments: its header, then
// `part_size` bytes of body in all, out of a declared `length`.
Bytes FirstPart(int16_t stream, uint8_t opcode, uint32_t length, size_t part_size) {
  Bytes part = RequestFrame(5, 0, stream, opcode, Bytes(part_size - kHeaderSize, 'x'));
  StoreBE32(part.data() + 5, length);
  return part;
}

// Feeds `wire` and expects the connection to close with one ProtocolError on
// stream 0 (an envelope split over segments cannot be attributed).
std::string MultiSegmentCloseMessage(BytesView wire) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  Feed(codec, wire);
  NextResult last;
  EXPECT_TRUE(Drain(codec, &last).empty());
  EXPECT_EQ(last, NextResult::kClose);
  auto [code, message] = OnlyFramedError(codec, 0);
  EXPECT_EQ(code, 0x000A);
  EXPECT_EQ(codec.close_reason(), message);
  return message;
}

TEST(ConnectionCodecTest, V5BadMultiSegmentEnvelopesClose) {
  EXPECT_EQ(MultiSegmentCloseMessage(RawSegment(Bytes("\x05\x00\x00", 3), false)),
            "Undersized buffer supplied. Expected 9, actual 3");
  EXPECT_EQ(MultiSegmentCloseMessage(RawSegment(FirstPart(7, 0x33, 1000, 100), false)),
            "Unknown opcode 51");
  EXPECT_EQ(MultiSegmentCloseMessage(RawSegment(FirstPart(7, kQuery, 0x80000000u, 100), false)),
            "Invalid value for envelope header body length field: -2147483648");
  EXPECT_EQ(MultiSegmentCloseMessage(RawSegment(FirstPart(7, kQuery, 10, 100), false)),
            "Multi-frame message of 19 bytes followed by other data in its first frame");
  EXPECT_EQ(MultiSegmentCloseMessage(RawSegment(FirstPart(7, kQuery, 1000, 500), false) +
                                     RawSegment(Bytes(600, 'y'), false)),
            "Multi-frame message longer than its envelope header declares");
  EXPECT_EQ(MultiSegmentCloseMessage(
                RawSegment(FirstPart(7, kQuery, 1000, 500), false) +
                Segments(RequestFrame(5, 0, 8, kQuery, QueryBody("SELECT 1", 5)), false)),
            "Self-contained frame received before the last frame of a multi-frame message");
}

TEST(ConnectionCodecTest, V5MultiSegmentEnvelopeOfHandMadeParts) {
  ConnectionCodec codec;
  Handshake(codec, 5);
  TakeOutput(codec);
  const Bytes body = QueryBody(Bytes(991, 'q'), 5);
  const Bytes envelope = RequestFrame(5, 0, 7, kQuery, body);
  // Three parts, then a self-contained segment once the envelope is whole.
  Feed(codec, RawSegment(BytesView(envelope).substr(0, 20), false) +
                  RawSegment(BytesView(envelope).substr(20, 500), false) +
                  RawSegment(BytesView(envelope).substr(520), false) +
                  Segments(RequestFrame(5, 0, 8, kQuery, QueryBody("SELECT 1", 5)), false));
  NextResult last;
  auto got = Drain(codec, &last);
  EXPECT_EQ(last, NextResult::kNeedMore);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].header.stream, 7);
  EXPECT_EQ(got[0].body, body);
  EXPECT_EQ(got[1].header.stream, 8);
}

}  // namespace
}  // namespace sibyl::protocol
