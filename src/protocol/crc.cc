#include "protocol/crc.h"

#include <zlib.h>

namespace sibyl::protocol {

namespace {
constexpr uint32_t kCrc24Init = 0x875060;
constexpr uint32_t kCrc24Poly = 0x1974F0B;

// zlib's running CRC after the four priming bytes FA 2D 55 CA; every segment
// CRC32 continues from here (Cassandra net/Crc.java).
uint32_t PrimedCrc32() {
  static const uint32_t primed = [] {
    static const unsigned char kPrime[4] = {0xFA, 0x2D, 0x55, 0xCA};
    return static_cast<uint32_t>(crc32(0L, kPrime, 4));
  }();
  return primed;
}
}  // namespace

uint32_t Crc24(uint64_t value, int len) {
  uint32_t crc = kCrc24Init;
  while (len-- > 0) {
    crc ^= static_cast<uint32_t>(value & 0xFF) << 16;
    value >>= 8;
    for (int i = 0; i < 8; ++i) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= kCrc24Poly;
    }
  }
  return crc & 0xFFFFFF;
}

uint32_t Crc32(BytesView data) {
  return static_cast<uint32_t>(
      crc32_z(PrimedCrc32(), reinterpret_cast<const unsigned char*>(data.data()), data.size()));
}

}  // namespace sibyl::protocol
