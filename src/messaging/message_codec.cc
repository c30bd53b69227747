#include "messaging/message_codec.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "common/check.h"

namespace sibyl::messaging {

namespace {

uint32_t Crc32(const char* data, size_t size) {
  return static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(data), size));
}

// Offsets in the header.
constexpr size_t kVersionAt = 4;
constexpr size_t kKindAt = 5;
constexpr size_t kVerbAt = 6;
constexpr size_t kIdAt = 8;
constexpr size_t kEpochAt = 16;
constexpr size_t kSenderAt = 24;
constexpr size_t kLengthAt = 40;
constexpr size_t kHeaderCrcAt = 44;

}  // namespace

void AppendFrame(const Message& message, Bytes& out) {
  SIBYL_CHECK(message.payload.size() <= UINT32_MAX, "an internode payload over 4 GiB");
  const size_t start = out.size();
  out.reserve(start + FrameSize(message));
  out.append(kFrameMagic, sizeof(kFrameMagic));
  AppendU8(out, kFrameVersion);
  AppendU8(out, static_cast<uint8_t>(message.kind));
  AppendBE16(out, static_cast<uint16_t>(message.verb));
  AppendBE64(out, message.id);
  AppendBE64(out, message.epoch);
  out.append(message.sender.View());
  AppendBE32(out, static_cast<uint32_t>(message.payload.size()));
  AppendBE32(out, Crc32(out.data() + start, kHeaderCrcAt));
  out.append(message.payload);
  AppendBE32(out, Crc32(message.payload.data(), message.payload.size()));
}

std::span<char> FrameDecoder::PrepareRead(size_t n) {
  if (begin_ == end_) {
    begin_ = end_ = 0;
  } else if (begin_ > 0 && (begin_ >= buffer_.size() / 2 || end_ + n > buffer_.size())) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() < end_ + n) buffer_.resize(end_ + n);
  return {buffer_.data() + end_, n};
}

void FrameDecoder::CommitRead(size_t n) {
  SIBYL_CHECK(end_ + n <= buffer_.size(), "committed more bytes than were prepared");
  end_ += n;
}

void FrameDecoder::Append(BytesView bytes) {
  auto space = PrepareRead(bytes.size());
  std::memcpy(space.data(), bytes.data(), bytes.size());
  CommitRead(bytes.size());
}

DecodeResult FrameDecoder::Fail(std::string reason) {
  error_ = std::move(reason);
  return DecodeResult::kError;
}

bool FrameDecoder::CheckHeaderPrefix(const char* p, size_t available) {
  // Garbage is refused from its first bytes, without waiting for a header.
  const size_t magic = std::min(available, sizeof(kFrameMagic));
  if (std::memcmp(p, kFrameMagic, magic) != 0) {
    error_ = "bad magic: not an internode frame";
    return false;
  }
  if (available > kVersionAt && static_cast<uint8_t>(p[kVersionAt]) != kFrameVersion) {
    error_ = "unsupported frame version " + std::to_string(static_cast<uint8_t>(p[kVersionAt]));
    return false;
  }
  return true;
}

DecodeResult FrameDecoder::Next(Message& out) {
  if (!error_.empty()) return DecodeResult::kError;
  const char* p = buffer_.data() + begin_;
  const size_t available = end_ - begin_;
  if (available == 0) return DecodeResult::kNeedMore;
  if (!CheckHeaderPrefix(p, available)) return DecodeResult::kError;
  if (available < kFrameHeaderSize) return DecodeResult::kNeedMore;
  if (LoadBE32(p + kHeaderCrcAt) != Crc32(p, kHeaderCrcAt)) return Fail("header checksum mismatch");
  const auto kind = MessageKindFromWire(static_cast<uint8_t>(p[kKindAt]));
  if (!kind) return Fail("bad message kind " + std::to_string(static_cast<uint8_t>(p[kKindAt])));
  const size_t length = LoadBE32(p + kLengthAt);
  if (length > max_payload_) {
    return Fail("payload of " + std::to_string(length) + " bytes exceeds the limit of " +
                std::to_string(max_payload_));
  }
  if (available < kFrameOverhead + length) return DecodeResult::kNeedMore;
  const char* payload = p + kFrameHeaderSize;
  if (LoadBE32(payload + length) != Crc32(payload, length))
    return Fail("payload checksum mismatch");
  // Unknown verbs pass: the receiver answers them (a newer peer's verb is
  // not a broken stream).
  out.verb = static_cast<Verb>(LoadBE16(p + kVerbAt));
  out.kind = *kind;
  out.id = LoadBE64(p + kIdAt);
  out.epoch = LoadBE64(p + kEpochAt);
  out.sender = types::Uuid::FromBytes(BytesView(p + kSenderAt, 16));
  out.payload.assign(payload, length);
  begin_ += kFrameOverhead + length;
  return DecodeResult::kMessage;
}

}  // namespace sibyl::messaging
