#pragma once
// The small integer and string codec of the ledger's SSTable properties
// (partition_figures.h, measure_histogram.h). They are on disk: a change
// needs a new property name.

#include <cstdint>
#include <optional>

#include "common/bytes.h"

namespace sibyl::storage::ledger {

inline void AppendVarint(Bytes& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Reads one varint from `in` (advancing it); nullopt when truncated or too long.
inline std::optional<uint64_t> ReadVarint(BytesView& in) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    v |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) return v;
  }
  return std::nullopt;
}

inline void AppendSized(Bytes& out, BytesView bytes) {
  AppendVarint(out, bytes.size());
  out.append(bytes);
}

inline std::optional<Bytes> ReadSized(BytesView& in) {
  auto size = ReadVarint(in);
  if (!size || *size > in.size()) return std::nullopt;
  Bytes bytes(in.substr(0, *size));
  in.remove_prefix(*size);
  return bytes;
}

}  // namespace sibyl::storage::ledger
