#pragma once
// What the time functions (time_functions.cc) and the floor functions
// (floor_functions.cc) read of their arguments.

#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "types/civil_date.h"
#include "types/cql_type.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {

// A null argument, or an empty value: either makes these functions return null.
inline bool NullOrEmpty(const std::optional<BytesView>& value) { return !value || value->empty(); }

// A timestamp, date or timeuuid argument as milliseconds since the Unix epoch.
inline int64_t TemporalArgumentMillis(types::Kind kind, BytesView value) {
  switch (kind) {
    case types::Kind::kTimeuuid:
      return types::Uuid::FromBytes(value).UnixMillis();
    case types::Kind::kDate:
      return int64_t{types::DecodeDate(value)} * types::kMillisPerDay;
    default:
      return types::DecodeBigint(value);  // a timestamp
  }
}

}  // namespace sibyl::query
