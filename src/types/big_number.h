#pragma once
// Arbitrary-precision CQL numbers in their serialized forms.
//   varint:  two's complement, big-endian, any length (CQL's IntegerType).
//   decimal: [int] scale, then the unscaled value as a varint;
//            value = unscaled * 10^-scale (Java's BigDecimal).

#include <boost/multiprecision/cpp_int.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/bytes.h"

namespace sibyl::types {

using BigInteger = boost::multiprecision::cpp_int;

// The value of a serialized varint (two's complement); empty reads as 0.
[[nodiscard]] BigInteger VarintValue(BytesView v);
// The minimal two's complement bytes of `v`.
[[nodiscard]] Bytes VarintBytes(const BigInteger& v);

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

// Java's new BigInteger(text): an optional '+' or '-', then one or more
// ASCII digits. The minimal varint bytes, or nullopt if not a number.
[[nodiscard]] std::optional<Bytes> ParseVarint(std::string_view text);

// Java's new BigDecimal(text): [+-] then digits with an optional '.' (at
// least one digit in all), then an optional exponent e|E[+-]digits. The
// scale is the number of fraction digits minus the exponent, so "1.50" has
// scale 2 and "1E+3" scale -3. The serialized decimal, or nullopt if not a
// number or the scale does not fit an int.
[[nodiscard]] std::optional<Bytes> ParseDecimal(std::string_view text);

}  // namespace sibyl::types
