#pragma once
// Serialized values of sets, maps and vectors built from their elements'
// serialized values, in the form Cassandra stores and sends them: a set's
// elements sorted by the element type's order without duplicates, a map's
// entries sorted by key with the last of equal keys kept, a vector's
// elements concatenated (fixed-width element types) or each prefixed by its
// unsigned vint length. Lists, tuples and UDTs need no more than
// EncodeList / EncodeTuple (value_codec.h).

#include <utility>
#include <vector>

#include "common/bytes.h"
#include "types/cql_type.h"

namespace sibyl::types {

// REQUIRES: every element is a valid value of `element_type`.
[[nodiscard]] Bytes BuildSetValue(const CqlType& element_type, std::vector<Bytes> elements);

// REQUIRES: every key is a valid value of `key_type`.
[[nodiscard]] Bytes BuildMapValue(const CqlType& key_type,
                                  std::vector<std::pair<Bytes, Bytes>> entries);

// REQUIRES: vector_type is a vector, elements.size() equals its dimension and
// every element is a valid, non-empty value of its element type.
[[nodiscard]] Bytes BuildVectorValue(const CqlType& vector_type,
                                     const std::vector<Bytes>& elements);

}  // namespace sibyl::types
