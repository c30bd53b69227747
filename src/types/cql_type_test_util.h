#pragma once
// Helpers of the types tests.

#include "types/cql_type.h"

namespace sibyl::types::testing {

// The native type of `kind`: N(Kind::kInt) reads as the type it names.
inline TypePtr N(Kind kind) { return CqlType::Native(kind); }

}  // namespace sibyl::types::testing
