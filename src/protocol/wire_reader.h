#pragma once
// Reads the protocol's notations (native_protocol_v5.spec section 3) from a
// request body. Every read checks the bytes are there and throws
// CqlError(kProtocolError) otherwise; results view the body, never copy it.

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/bytes.h"
#include "common/error.h"

namespace sibyl::protocol {

class WireReader {
 public:
  explicit WireReader(BytesView body) : body_(body) {}

  uint8_t ReadByte(std::string_view what);
  uint16_t ReadShort(std::string_view what);
  int32_t ReadInt(std::string_view what);
  int64_t ReadLong(std::string_view what);
  // [string] and [long string]: valid UTF-8 or a ProtocolError quoting the
  // bad bytes as Cassandra's CBUtil does.
  std::string_view ReadString();
  std::string_view ReadLongString();
  BytesView ReadShortBytes();                                 // [short bytes]
  std::optional<BytesView> ReadBytes(std::string_view what);  // [bytes]; negative length: null
  // [value]: v4+ -1 = null, -2 = unset, below -2 invalid; before v4 any
  // negative length is null (Cassandra's CBUtil.readBoundValue).
  Value ReadValue(int version);
  // A [consistency] that Cassandra 4.1 knows (ANY..NODE_LOCAL).
  uint16_t ReadConsistency();

  size_t remaining() const { return body_.size() - pos_; }

 private:
  [[noreturn]] void Truncated(std::string_view what) const;
  BytesView Take(size_t n, std::string_view what);

  BytesView body_;
  size_t pos_ = 0;
};

}  // namespace sibyl::protocol
