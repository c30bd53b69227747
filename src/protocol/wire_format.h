#pragma once
// Writers for the protocol's notations (native_protocol_v5.spec section 3),
// all big-endian:
//   [string]       [short n][n bytes UTF-8]      [long string]  [int n][n bytes]
//   [short bytes]  [short n][n bytes]            [bytes]        [int n][n bytes], n < 0: null
//   [string list]  [short n][n x string]

#include <string_view>
#include <vector>

#include "common/bytes.h"

namespace sibyl::protocol {

inline void AppendString(Bytes& out, std::string_view s) {
  AppendBE16(out, static_cast<uint16_t>(s.size()));
  out.append(s.substr(0, 0xFFFF));
}
inline void AppendLongString(Bytes& out, std::string_view s) {
  AppendBE32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}
inline void AppendShortBytes(Bytes& out, BytesView b) {
  AppendBE16(out, static_cast<uint16_t>(b.size()));
  out.append(b.substr(0, 0xFFFF));
}
inline void AppendBytes(Bytes& out, BytesView b) {
  AppendBE32(out, static_cast<uint32_t>(b.size()));
  out.append(b);
}
inline void AppendNullBytes(Bytes& out) { AppendBE32(out, 0xFFFFFFFFu); }
template <typename Strings>
void AppendStringList(Bytes& out, const Strings& list) {
  AppendBE16(out, static_cast<uint16_t>(list.size()));
  for (const auto& s : list) AppendString(out, s);
}

}  // namespace sibyl::protocol
