#include "protocol/segment_codec.h"

#include <lz4.h>

#include <algorithm>
#include <cstring>

#include "protocol/compression.h"
#include "protocol/crc.h"

namespace sibyl::protocol {

namespace {
constexpr size_t kPlainHeaderSize = 3;
constexpr size_t kLz4HeaderSize = 5;
constexpr size_t kHeaderCrcSize = 3;
constexpr size_t kTrailerSize = 4;
constexpr uint64_t kLength17Mask = 0x1FFFF;

uint64_t LoadLE(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}
void AppendLE(Bytes& out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}
void StoreLE(char* p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>(v >> (8 * i));
}

// Cassandra reports CRCs as Java ints (CQLMessageHandler.processCorruptFrame).
std::string CrcMismatch(const char* where, uint32_t read, uint32_t computed) {
  return std::string("invalid, unrecoverable CRC mismatch detected in frame ") + where + ". Read " +
         std::to_string(static_cast<int32_t>(read)) + ", Computed " +
         std::to_string(static_cast<int32_t>(computed));
}

// Appends one segment holding `payload` (at most kMaxSegmentPayload bytes).
void AppendSegment(BytesView payload, bool self_contained, bool lz4, Bytes& out) {
  const size_t start = out.size();
  if (!lz4) {
    const uint64_t header = payload.size() | (uint64_t{self_contained} << 17);
    AppendLE(out, header, kPlainHeaderSize);
    AppendLE(out, Crc24(header, kPlainHeaderSize), kHeaderCrcSize);
    out.append(payload);
    AppendLE(out, Crc32(payload), kTrailerSize);
    return;
  }
  // Compress straight into `out` after room for the header; keep the payload
  // uncompressed (uncompressed length 0) when compression does not pay.
  const size_t payload_at = start + kLz4HeaderSize + kHeaderCrcSize;
  const int bound = LZ4_compressBound(static_cast<int>(payload.size()));
  out.resize(payload_at + static_cast<size_t>(bound));
  const int compressed = LZ4_compress_default(payload.data(), out.data() + payload_at,
                                              static_cast<int>(payload.size()), bound);
  uint64_t compressed_length;
  uint64_t uncompressed_length;
  if (compressed > 0 && static_cast<size_t>(compressed) < payload.size()) {
    compressed_length = static_cast<uint64_t>(compressed);
    uncompressed_length = payload.size();
  } else {
    if (!payload.empty()) std::memcpy(out.data() + payload_at, payload.data(), payload.size());
    compressed_length = payload.size();
    uncompressed_length = 0;
  }
  out.resize(payload_at + compressed_length);
  const uint64_t header =
      compressed_length | (uncompressed_length << 17) | (uint64_t{self_contained} << 34);
  StoreLE(out.data() + start, header, kLz4HeaderSize);
  StoreLE(out.data() + start + kLz4HeaderSize, Crc24(header, kLz4HeaderSize), kHeaderCrcSize);
  AppendLE(out, Crc32(BytesView(out).substr(payload_at, compressed_length)), kTrailerSize);
}
}  // namespace

DecodeStatus SegmentDecoder::Decode(BytesView buffer, Segment& segment, size_t& consumed,
                                    std::string& error) {
  const size_t header_size = lz4_ ? kLz4HeaderSize : kPlainHeaderSize;
  if (buffer.size() < header_size + kHeaderCrcSize) return DecodeStatus::kNeedMore;
  const uint64_t header = LoadLE(buffer.data(), header_size);
  const uint32_t read_header_crc =
      static_cast<uint32_t>(LoadLE(buffer.data() + header_size, kHeaderCrcSize));
  const uint32_t header_crc = Crc24(header, static_cast<int>(header_size));
  if (read_header_crc != header_crc) {
    error = CrcMismatch("header", read_header_crc, header_crc);
    return DecodeStatus::kInvalid;
  }
  const size_t payload_length = header & kLength17Mask;
  const size_t uncompressed_length = lz4_ ? (header >> 17) & kLength17Mask : 0;
  const bool self_contained = (header >> (lz4_ ? 34 : 17)) & 1;
  const size_t total = header_size + kHeaderCrcSize + payload_length + kTrailerSize;
  if (buffer.size() < total) return DecodeStatus::kNeedMore;

  const BytesView payload = buffer.substr(header_size + kHeaderCrcSize, payload_length);
  const uint32_t read_crc =
      static_cast<uint32_t>(LoadLE(payload.data() + payload_length, kTrailerSize));
  const uint32_t payload_crc = Crc32(payload);
  if (read_crc != payload_crc) {
    error = CrcMismatch("body", read_crc, payload_crc);
    return DecodeStatus::kInvalid;
  }
  segment.self_contained = self_contained;
  if (lz4_ && uncompressed_length != 0) {
    if (!Lz4DecompressRaw(payload, uncompressed_length, scratch_)) {
      error = "invalid frame: corrupt LZ4 payload (" + std::to_string(payload_length) +
              " bytes declared to decompress to " + std::to_string(uncompressed_length) + ")";
      return DecodeStatus::kInvalid;
    }
    segment.payload = scratch_;
  } else {
    segment.payload = payload;
  }
  consumed = total;
  return DecodeStatus::kComplete;
}

void EncodeSegments(BytesView envelopes, bool lz4, Bytes& out) {
  size_t pos = 0;
  size_t run_start = 0;  // start of the envelopes gathered for the next self-contained segment
  while (pos < envelopes.size()) {
    // REQUIRES: `envelopes` holds whole envelopes, so each header is complete.
    const size_t size = kHeaderSize + LoadBE32(envelopes.data() + pos + 5);
    if (size > kMaxSegmentPayload) {
      if (pos > run_start) {
        AppendSegment(envelopes.substr(run_start, pos - run_start), true, lz4, out);
      }
      const BytesView large = envelopes.substr(pos, size);
      for (size_t off = 0; off < large.size(); off += kMaxSegmentPayload) {
        AppendSegment(large.substr(off, kMaxSegmentPayload), false, lz4, out);
      }
      pos += size;
      run_start = pos;
      continue;
    }
    if (pos + size - run_start > kMaxSegmentPayload) {
      AppendSegment(envelopes.substr(run_start, pos - run_start), true, lz4, out);
      run_start = pos;
    }
    pos += size;
  }
  if (pos > run_start) {
    AppendSegment(envelopes.substr(run_start, pos - run_start), true, lz4, out);
  }
}

}  // namespace sibyl::protocol
