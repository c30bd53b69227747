#pragma once
// Cassandra's variable-length integers (VIntCoding), used by the duration
// type and by vectors of variable-length elements. An unsigned vint is 1 to
// 9 bytes: the count of leading 1 bits in the first byte is the number of
// extra bytes, and the value is big-endian over the remaining bits. A signed
// vint is the zig-zag encoding of the value as an unsigned vint.

#include <cstdint>
#include <optional>

#include "common/bytes.h"

namespace sibyl::types {

struct DecodedVint {
  uint64_t value;
  size_t size;  // bytes consumed
};

// Reads an unsigned vint at the start of `in`; nullopt if `in` is too short.
[[nodiscard]] std::optional<DecodedVint> ReadUnsignedVint(BytesView in);

// Reads a signed (zig-zag) vint; the value is the two's complement bit pattern.
[[nodiscard]] std::optional<DecodedVint> ReadSignedVint(BytesView in);

void AppendUnsignedVint(Bytes& out, uint64_t value);
void AppendSignedVint(Bytes& out, int64_t value);

}  // namespace sibyl::types
