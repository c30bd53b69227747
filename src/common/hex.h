#pragma once
// Lower-case hexadecimal, as Cassandra prints blobs, ids and UUIDs.

#include <string>

#include "common/bytes.h"

namespace sibyl {

inline void AppendHex(std::string& out, BytesView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0x0f]);
  }
}

inline std::string ToHex(BytesView bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  AppendHex(out, bytes);
  return out;
}

}  // namespace sibyl
