#pragma once
// Body compression negotiated in STARTUP.
//  - v3/v4 "lz4":    [uint32 big-endian uncompressed length][raw LZ4 block]
//  - v3/v4 "snappy": raw snappy block
//  - v5 segments use raw LZ4 blocks (lengths are in the segment header), see segment_codec.h

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/bytes.h"

namespace sibyl::protocol {

enum class Compression { kNone, kLz4, kSnappy };

// "lz4" / "snappy" (case-insensitive as Cassandra) → Compression; nullopt if unknown.
std::optional<Compression> CompressionByName(std::string_view name);

// Frame-body (v3/v4) compression. Decompress returns false on corrupt input or
// when the declared uncompressed size exceeds `max_size` — never allocates
// more than `max_size` for a body that lies about its length.
void CompressBody(Compression c, BytesView in, Bytes& out);
[[nodiscard]] bool DecompressBody(Compression c, BytesView in, size_t max_size, Bytes& out);

// DecompressBody with the reason for a failure, so the connection can answer
// with Cassandra's message for each case.
struct DecompressOutcome {
  enum class Kind {
    kOk,
    kMalformed,  // not lz4/snappy data (too short, corrupt, lengths disagree)
    kBadLength,  // declared uncompressed length negative or over max_size
  };
  Kind kind = Kind::kOk;
  int64_t declared_length = 0;  // as the body declares it (lz4: signed 32-bit)
};
[[nodiscard]] DecompressOutcome DecompressBodyDetailed(Compression c, BytesView in, size_t max_size,
                                                       Bytes& out);

// Raw LZ4 block helpers for v5 segments.
void Lz4CompressRaw(BytesView in, Bytes& out);
[[nodiscard]] bool Lz4DecompressRaw(BytesView in, size_t uncompressed_size, Bytes& out);

}  // namespace sibyl::protocol
