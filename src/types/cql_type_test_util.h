#pragma once
// Helpers of the types tests.

#include <cstdint>

#include "common/bytes.h"
#include "types/cql_type.h"
#include "types/value_codec.h"

namespace sibyl::types::testing {

// The native type of `kind`: N(Kind::kInt) reads as the type it names.
inline TypePtr N(Kind kind) { return CqlType::Native(kind); }

// A decimal's wire form: the scale, then the unscaled value as a varint.
inline Bytes DecimalBytes(int32_t scale, int64_t unscaled) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(scale));
  return out + EncodeVarint(unscaled);
}

}  // namespace sibyl::types::testing
