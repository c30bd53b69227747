#pragma once
// How a vector<T, n> value is laid out (Cassandra 5.0's VectorType): when T
// has a fixed width the n elements are simply concatenated; otherwise each
// element is an unsigned vint length followed by its bytes.

#include <cstddef>
#include <optional>
#include <vector>

#include "common/bytes.h"
#include "types/cql_type.h"

namespace sibyl::types {

// The width every value of `type` has, if fixed (AbstractType.valueLengthIfFixed):
// int 4, bigint 8, uuid 16, ..., and a vector of fixed-width elements.
[[nodiscard]] std::optional<size_t> FixedValueLength(const CqlType& type);

// The elements of a vector value. REQUIRES: the value passed Validate.
[[nodiscard]] std::vector<BytesView> SplitVector(const CqlType& vector_type, BytesView serialized);

}  // namespace sibyl::types
