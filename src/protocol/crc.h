#pragma once
// Checksums of protocol v5 segments, bit-exact with Cassandra's net/Crc.java.

#include <cstdint>

#include "common/bytes.h"

namespace sibyl::protocol {

// CRC24 of the first `len` bytes of `value`, fed least significant byte first
// (init 0x875060, polynomial 0x1974F0B).
uint32_t Crc24(uint64_t value, int len);

// zlib CRC32 primed with the bytes FA 2D 55 CA.
uint32_t Crc32(BytesView data);

}  // namespace sibyl::protocol
