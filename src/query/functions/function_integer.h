#pragma once
// The integer types of the function library (tinyint, smallint, int, bigint,
// counter) read into and written from an int64_t, as Java's Number.longValue
// and the narrowing casts do. Internal to the function library.

#include <cstdint>

#include "common/bytes.h"
#include "types/cql_type.h"
#include "types/value_codec.h"

namespace sibyl::query::function_internal {

// REQUIRES: `v` is a valid value of `kind` (tinyint ... bigint, counter).
[[nodiscard]] inline int64_t ReadInteger(types::Kind kind, BytesView v) {
  switch (kind) {
    case types::Kind::kTinyint:
      return types::DecodeTinyint(v);
    case types::Kind::kSmallint:
      return types::DecodeSmallint(v);
    case types::Kind::kInt:
      return types::DecodeInt(v);
    default:
      return types::DecodeBigint(v);  // bigint, counter
  }
}

// `value` narrowed to `kind` (wrapping, as Java's casts).
[[nodiscard]] inline Bytes WriteInteger(types::Kind kind, int64_t value) {
  switch (kind) {
    case types::Kind::kTinyint:
      return types::EncodeTinyint(static_cast<int8_t>(value));
    case types::Kind::kSmallint:
      return types::EncodeSmallint(static_cast<int16_t>(value));
    case types::Kind::kInt:
      return types::EncodeInt(static_cast<int32_t>(value));
    default:
      return types::EncodeBigint(value);
  }
}

}  // namespace sibyl::query::function_internal
