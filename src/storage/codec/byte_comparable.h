#pragma once
// Byte-comparable encodings of CQL values, the pieces storage keys (key_codec.h)
// are made of. With them RocksDB's default
// bytewise comparator orders keys exactly as Cassandra orders the data —
// partitions by token, then by routing key bytes; rows by clustering values
// in each column's type order, reversed for DESC columns; cells by column
// name, then element path in the element type's order.
//
//   key := token(8 bytes, sign bit flipped) partition(escaped, terminated)
//          kind(1 byte) ...
//   kind: kPartitionDeletion | kRangeTombstone <seq...> | kStaticRow <row part>
//         | kRow <clustering> <row part>
//
// Every component encoding is prefix-free, so a key decodes back and
// complementing a component's bytes reverses its order (DESC).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "types/cql_type.h"

namespace sibyl::storage {

// Appends the byte-comparable form of `serialized` (a valid value of `type`):
// memcmp of two encodings orders as types::Compare(type, a, b) does.
// `descending` complements the bytes. Types that cannot be clustering
// columns (duration, non-frozen collections, counter) are not accepted
// (std::invalid_argument).
void AppendComparable(const types::CqlType& type, BytesView serialized, bool descending,
                      Bytes& out);
// Reads one value back from `in` (advancing it): the serialized form.
// Throws std::runtime_error on malformed input.
// Values that compare equal encode equally, so what comes back is the
// canonical member of its class, equal under types::Compare but not always
// the bytes written: a decimal loses trailing zeros (1.50 -> 1.5, 0.00 -> 0),
// a varint its redundant sign bytes, a boolean reads 0 or 1, a NaN reads as
// the canonical NaN, a tuple/UDT with missing trailing fields reads with
// them null. (Where the exact bytes matter, keep them beside the key.)
// The layout of each type is described at the top of byte_comparable.cc.
Bytes ReadComparable(const types::CqlType& type, bool descending, std::string_view& in);

}  // namespace sibyl::storage
