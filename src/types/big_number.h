#pragma once
// Arbitrary-precision CQL numbers in their serialized forms.
//   varint:  two's complement, big-endian, any length (CQL's IntegerType).
//   decimal: [int] scale, then the unscaled value as a varint;
//            value = unscaled * 10^-scale (Java's BigDecimal).

#include <string>

#include "common/bytes.h"

namespace sibyl::types {

// Numeric order; redundant sign-extension bytes do not matter.
// REQUIRES: both non-empty.
[[nodiscard]] int CompareVarint(BytesView a, BytesView b);
// Numeric order, 1.0 == 1.00 as BigDecimal.compareTo has it.
// REQUIRES: both at least 4 bytes.
[[nodiscard]] int CompareDecimal(BytesView a, BytesView b);

// Base-10 text. REQUIRES: non-empty.
[[nodiscard]] std::string VarintToString(BytesView v);
// The text Python's Decimal gives (what cqlsh prints): "1.5", "0.000",
// "1E+3", "1.23E-7". REQUIRES: at least 4 bytes.
[[nodiscard]] std::string DecimalToString(BytesView v);

// Minimal two's complement bytes of `v`.
[[nodiscard]] Bytes EncodeVarintFromInt64(int64_t v);

}  // namespace sibyl::types
