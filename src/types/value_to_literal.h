#pragma once
// Serialized values written back as CQL literals that convert to the same
// value (ConvertLiteral, literal.h): what DESCRIBE prints for values in
// schema (aggregate INITCOND, column mask arguments) and what tests use to
// round-trip values. The forms follow Cassandra's toCQLLiteral where that
// reads back, and otherwise the nearest form that does:
//
//   text, ascii       'it''s'                  blob       0xcafe
//   int ... varint    -42                      boolean    true
//   decimal           1.50, 1E+3               float      1.5, 1.0E10, NaN, -Infinity
//   uuid, timeuuid    550e8400-e29b-...        inet       '127.0.0.1', '::1'
//   timestamp         '2024-01-02T03:04:05.678Z' (years before 1: the milliseconds)
//   date              '2024-01-02', '+10000-01-01', '-0001-12-31'
//   time              '03:04:05.000000006'     duration   1h30m, -1mo, 0s
//   list, vector      [1, 2]                   set        {1, 2}
//   map               {'a': 1}                 tuple      (1, null, 'x')
//   user type         {street: 'Main', "Zip": null}   (every field, names quoted as needed)
//
// Empty values (zero bytes) of types where they are not a natural value are
// written as the blob conversion function Cassandra offers for them, e.g.
// blobasint(0x): valid CQL, but a function call rather than a literal.

#include <string>

#include "common/bytes.h"
#include "types/cql_type.h"

namespace sibyl::types {

// REQUIRES: the value is not null. Throws CqlError(kInvalid) if it does not
// validate as `type`, or is the empty value of a tuple (which no CQL text
// produces).
[[nodiscard]] std::string ToCqlLiteral(const CqlType& type, BytesView value);

}  // namespace sibyl::types
