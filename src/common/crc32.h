#pragma once
// zlib's CRC-32 of some bytes: the checksum Sibyl's own files end their
// records with (the schema snapshot, the metadata cache and log entries).
// Callers link zlib (ZLIB::ZLIB).

#include <zlib.h>

#include <cstdint>

#include "common/bytes.h"

namespace sibyl {

inline uint32_t ZlibCrc32(BytesView data) {
  return static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

}  // namespace sibyl
