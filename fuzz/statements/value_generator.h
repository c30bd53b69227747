#pragma once
// Random values of any CQL type, serialized as the protocol carries them,
// drawn from small domains so that random writes keep landing on the same
// partitions, rows and cells (collisions are where reconciliation, deletion
// and TTL bugs live). Values that are equal but spelled differently
// (decimal 1.5 and 1.50, varint 1 and 0x0001, sets in another order) come
// up on purpose.

#include "common/bytes.h"
#include "fuzz/statements/choices.h"
#include "types/cql_type.h"

namespace sibyl::fuzz {

// A valid value of `type` (never null; possibly the empty value where the
// type has one, e.g. '' for text). Bound-value spellings (non-minimal
// varints, unsorted sets) only when `for_binding`: a literal is always
// rendered from the value, and literals spell values canonically.
[[nodiscard]] Bytes RandomValue(const types::CqlType& type, Choices& choices, bool for_binding,
                                int depth = 0);

// A value that is NOT valid for most types: random bytes of a random length.
[[nodiscard]] Bytes GarbageValue(Choices& choices);

}  // namespace sibyl::fuzz
