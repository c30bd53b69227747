#include "messaging/message_codec.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <iostream>
#include <random>
#include <vector>

namespace sibyl::messaging {
namespace {

Message Sample(uint64_t id, Bytes payload, MessageKind kind = MessageKind::kRequest) {
  Message message;
  message.verb = Verb::kRead;
  message.kind = kind;
  message.id = id;
  message.epoch = 0x0102030405060708ULL + id;
  message.sender = types::Uuid::NameBased("node-" + std::to_string(id));
  message.payload = std::move(payload);
  return message;
}

Bytes Frame(const Message& message) {
  Bytes out;
  AppendFrame(message, out);
  return out;
}

// Every message decodable from `decoder` now, and what stopped it.
std::pair<std::vector<Message>, DecodeResult> DrainAll(FrameDecoder& decoder) {
  std::vector<Message> out;
  Message message;
  for (;;) {
    const DecodeResult result = decoder.Next(message);
    if (result != DecodeResult::kMessage) return {out, result};
    out.push_back(message);
  }
}

TEST(MessageCodecTest, LayoutIsTheDocumentedOne) {
  Message message = Sample(7, "abc", MessageKind::kFailure);
  message.verb = Verb::kCounterMutation;
  const Bytes frame = Frame(message);
  ASSERT_EQ(frame.size(), kFrameOverhead + 3);
  ASSERT_EQ(FrameSize(message), frame.size());
  EXPECT_EQ(frame.substr(0, 4), "SBYM");
  EXPECT_EQ(static_cast<uint8_t>(frame[4]), 1);     // version
  EXPECT_EQ(static_cast<uint8_t>(frame[5]), 0x0C);  // response | failure
  EXPECT_EQ(LoadBE16(frame.data() + 6), 24);        // COUNTER_MUTATION
  EXPECT_EQ(LoadBE64(frame.data() + 8), 7u);
  EXPECT_EQ(LoadBE64(frame.data() + 16), message.epoch);
  EXPECT_EQ(frame.substr(24, 16), message.sender.ToBytes());
  EXPECT_EQ(LoadBE32(frame.data() + 40), 3u);
  EXPECT_EQ(frame.substr(48, 3), "abc");
}

TEST(MessageCodecTest, RoundTripsEveryKindAndSize) {
  std::vector<Message> messages = {
      Sample(1, ""), Sample(2, "x", MessageKind::kOneWay),
      Sample(3, "reply", MessageKind::kResponse),
      Sample(4, EncodeFailurePayload(FailureReason::kStaleEpoch, "d"), MessageKind::kFailure),
      Sample(5, Bytes(300000, '\xab'))};
  Bytes stream;
  for (const auto& m : messages) AppendFrame(m, stream);
  FrameDecoder whole;
  whole.Append(stream);
  auto [decoded, end] = DrainAll(whole);
  EXPECT_EQ(end, DecodeResult::kNeedMore);
  EXPECT_EQ(decoded, messages);
  EXPECT_EQ(whole.buffered(), 0u);

  // Byte by byte: a frame is complete only when its last byte arrives.
  FrameDecoder trickle;
  std::vector<Message> one_by_one;
  Message message;
  for (char c : stream) {
    trickle.Append(BytesView(&c, 1));
    while (trickle.Next(message) == DecodeResult::kMessage) one_by_one.push_back(message);
  }
  EXPECT_EQ(one_by_one, messages);
}

TEST(MessageCodecTest, EveryTruncationNeedsMore) {
  const Bytes frame = Frame(Sample(9, "payload bytes"));
  for (size_t n = 0; n < frame.size(); ++n) {
    FrameDecoder decoder;
    decoder.Append(BytesView(frame).substr(0, n));
    Message message;
    EXPECT_EQ(decoder.Next(message), DecodeResult::kNeedMore) << "prefix of " << n;
  }
}

TEST(MessageCodecTest, EveryFlippedBitIsAnError) {
  const Bytes frame = Frame(Sample(9, "payload bytes"));
  for (size_t i = 0; i < frame.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes corrupt = frame;
      corrupt[i] = static_cast<char>(corrupt[i] ^ (1 << bit));
      FrameDecoder decoder;
      decoder.Append(corrupt);
      Message message;
      // A flipped length can only make the decoder wait if the header checksum
      // were not checked first: it is, so every flip is caught at once.
      EXPECT_EQ(decoder.Next(message), DecodeResult::kError) << "byte " << i << " bit " << bit;
      EXPECT_FALSE(decoder.error().empty());
    }
  }
}

TEST(MessageCodecTest, OversizedBadVersionAndBadKindFailWithoutWaitingForThePayload) {
  const Bytes frame = Frame(Sample(1, Bytes(100, 'p')));
  FrameDecoder small(99);
  small.Append(BytesView(frame).substr(0, kFrameHeaderSize));  // no payload yet
  Message message;
  EXPECT_EQ(small.Next(message), DecodeResult::kError);
  EXPECT_NE(small.error().find("exceeds the limit of 99"), std::string::npos) << small.error();

  FrameDecoder exact(100);
  exact.Append(frame);
  EXPECT_EQ(exact.Next(message), DecodeResult::kMessage);

  Bytes future = frame;
  future[4] = 2;
  FrameDecoder version;
  version.Append(BytesView(future).substr(0, 5));  // caught from the fifth byte
  EXPECT_EQ(version.Next(message), DecodeResult::kError);
  EXPECT_EQ(version.error(), "unsupported frame version 2");
}

TEST(MessageCodecTest, BadKindBehindAValidChecksumIsRefused) {
  Bytes frame = Frame(Sample(1, ""));
  frame[5] = 0x03;  // request | one-way
  StoreBE32(frame.data() + 44,
            static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(frame.data()), 44)));
  FrameDecoder decoder;
  decoder.Append(frame);
  Message message;
  EXPECT_EQ(decoder.Next(message), DecodeResult::kError);
  EXPECT_EQ(decoder.error(), "bad message kind 3");
}

TEST(MessageCodecTest, GarbageIsRefusedFromItsFirstByte) {
  FrameDecoder decoder;
  decoder.Append("GET / HTTP/1.1\r\n");
  Message message;
  EXPECT_EQ(decoder.Next(message), DecodeResult::kError);
  // Sticky, even if good frames follow.
  decoder.Append(Frame(Sample(1, "")));
  EXPECT_EQ(decoder.Next(message), DecodeResult::kError);
}

TEST(MessageCodecTest, InvalidKindCombinationsAreRefused) {
  for (int flags = 0; flags < 256; ++flags) {
    const auto kind = MessageKindFromWire(static_cast<uint8_t>(flags));
    const bool valid = flags == 0x01 || flags == 0x02 || flags == 0x04 || flags == 0x0C;
    EXPECT_EQ(kind.has_value(), valid) << flags;
  }
}

TEST(MessageCodecTest, FailurePayloadCarriesTheReasonFirst) {
  const Bytes payload = EncodeFailurePayload(FailureReason::kReadTooManyTombstones, "why");
  EXPECT_EQ(LoadBE16(payload.data()), 1);
  const auto decoded = DecodeFailurePayload(payload);
  EXPECT_EQ(decoded.reason, FailureReason::kReadTooManyTombstones);
  EXPECT_EQ(decoded.detail, "why");
  EXPECT_EQ(DecodeFailurePayload("x").reason, FailureReason::kUnknown);
}

// Random streams and randomly damaged streams never crash the decoder, and
// damage never yields a message that was not sent: what decodes is a prefix
// of what was encoded.
TEST(MessageCodecTest, RandomAndDamagedStreams) {
  const uint64_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 random(seed);
  for (int round = 0; round < 2000; ++round) {
    std::vector<Message> sent;
    Bytes stream;
    const int count = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < count; ++i) {
      Bytes payload(random() % 200, '\0');
      for (char& c : payload) c = static_cast<char>(random());
      sent.push_back(Sample(random(), std::move(payload)));
      AppendFrame(sent.back(), stream);
    }
    if (round % 4 == 0) {
      for (char& c : stream) c = static_cast<char>(random());  // pure noise
    } else {
      const int damages = 1 + static_cast<int>(random() % 3);
      for (int d = 0; d < damages; ++d) {
        const size_t at = random() % stream.size();
        switch (random() % 3) {
          case 0:
            stream[at] = static_cast<char>(random());
            break;
          case 1:
            stream.erase(at, 1 + random() % 8);
            break;
          default:
            stream.insert(at, 1 + random() % 8, static_cast<char>(random()));
        }
        if (stream.empty()) stream = "x";
      }
    }
    FrameDecoder decoder(4096);
    size_t fed = 0;
    std::vector<Message> decoded;
    DecodeResult last = DecodeResult::kNeedMore;
    while (fed < stream.size() && last != DecodeResult::kError) {
      const size_t chunk = std::min<size_t>(1 + random() % 64, stream.size() - fed);
      decoder.Append(BytesView(stream).substr(fed, chunk));
      fed += chunk;
      auto [more, end] = DrainAll(decoder);
      decoded.insert(decoded.end(), more.begin(), more.end());
      last = end;
    }
    ASSERT_LE(decoded.size(), sent.size());
    for (size_t i = 0; i < decoded.size(); ++i) ASSERT_EQ(decoded[i], sent[i]) << "round " << round;
  }
}

}  // namespace
}  // namespace sibyl::messaging
