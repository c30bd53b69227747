#pragma once
// Byte buffers. Owning buffers are std::string (cheap small-buffer storage,
// contiguous, easy to append to); borrowed views are std::string_view. Values
// travel as views into the frame or row they came from wherever the owner
// outlives the use.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sibyl {

using Bytes = std::string;
using BytesView = std::string_view;

// A CQL value on the wire: absent (null), unset (protocol v4+ "not set"), or bytes.
struct Value {
  enum class Kind : uint8_t { kNull, kUnset, kBytes };
  Kind kind = Kind::kNull;
  BytesView bytes;  // valid when kind == kBytes; points into the owner's buffer

  static Value Null() { return {}; }
  static Value Unset() { return {Kind::kUnset, {}}; }
  static Value Of(BytesView b) { return {Kind::kBytes, b}; }
  bool is_null() const { return kind == Kind::kNull; }
  bool is_unset() const { return kind == Kind::kUnset; }
};

// An owned, nullable cell value (rows produced by the read path).
using OptBytes = std::optional<Bytes>;

// Big-endian helpers used by every codec.
inline void AppendU8(Bytes& out, uint8_t v) { out.push_back(static_cast<char>(v)); }
inline void AppendBE16(Bytes& out, uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v));
}
inline void AppendBE32(Bytes& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>(v >> s));
}
inline void AppendBE64(Bytes& out, uint64_t v) {
  for (int s = 56; s >= 0; s -= 8) out.push_back(static_cast<char>(v >> s));
}
inline uint16_t LoadBE16(const char* p) {
  auto u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint16_t>(u[0] << 8 | u[1]);
}
inline uint32_t LoadBE32(const char* p) {
  auto u = reinterpret_cast<const unsigned char*>(p);
  return uint32_t{u[0]} << 24 | uint32_t{u[1]} << 16 | uint32_t{u[2]} << 8 | uint32_t{u[3]};
}
inline uint64_t LoadBE64(const char* p) { return uint64_t{LoadBE32(p)} << 32 | LoadBE32(p + 4); }
inline void StoreBE32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (24 - 8 * i));
}

}  // namespace sibyl
