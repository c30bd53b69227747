#pragma once
// Writers for the protocol's notations (native_protocol_v5.spec section 3),
// all big-endian:
//   [string]       [short n][n bytes UTF-8]      [long string]  [int n][n bytes]
//   [short bytes]  [short n][n bytes]            [bytes]        [int n][n bytes], n < 0: null
//   [string list]  [short n][n x string]

#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "types/utf8.h"

namespace sibyl::protocol {

// Writes `s` as a [string]. Whatever `s` holds, what goes out is valid
// UTF-8 of at most 65535 bytes with the right length: ill-formed sequences
// become U+FFFD and a longer text is cut at a character boundary (an error
// message may quote any bytes a client sent; Cassandra would write a wrapped
// length there, and a driver drops a connection that sends it bad UTF-8).
inline void AppendString(Bytes& out, std::string_view s) {
  if (s.size() <= 0xFFFF && types::IsValidUtf8(s)) {
    AppendBE16(out, static_cast<uint16_t>(s.size()));
    out.append(s);
    return;
  }
  const std::string repaired = types::ToValidUtf8(s, 0xFFFF);
  AppendBE16(out, static_cast<uint16_t>(repaired.size()));
  out.append(repaired);
}
// Writes `s` as a [long string] as it is (the client's query text; the
// server writes none).
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
