#pragma once
// Serialized forms of CQL values as the native protocol carries them
// (native_protocol_v5.spec section 6). Collections use the v3+ layout:
// [int] count, then each element as [int] length + bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "types/cql_type.h"
#include "types/duration_literal.h"
#include "types/uuid.h"

namespace sibyl::types {

Bytes EncodeInt(int32_t v);
Bytes EncodeBigint(int64_t v);
Bytes EncodeSmallint(int16_t v);
Bytes EncodeTinyint(int8_t v);
Bytes EncodeBoolean(bool v);
Bytes EncodeDouble(double v);
Bytes EncodeFloat(float v);
Bytes EncodeVarint(int64_t v);  // minimal two's complement
inline Bytes EncodeText(std::string_view s) { return Bytes(s); }
Bytes EncodeUuid(const Uuid& u);
// Accepts dotted IPv4 or IPv6 text; returns 4 or 16 bytes. Throws CqlError(kInvalid) if malformed.
Bytes EncodeInet(std::string_view address);
Bytes EncodeTimestamp(int64_t millis_since_epoch);
// date: days since 1970-01-01, stored unsigned with the epoch at 2^31.
Bytes EncodeDate(int32_t days_since_epoch);
// time: nanoseconds since midnight.
Bytes EncodeTime(int64_t nanos_of_day);
// duration: three signed vints. REQUIRES: all three of the same sign.
Bytes EncodeDuration(int32_t months, int32_t days, int64_t nanoseconds);
Bytes EncodeList(const std::vector<Bytes>& elements);  // list and set share the layout
Bytes EncodeMap(const std::vector<std::pair<Bytes, Bytes>>& entries);
// Tuples and UDTs share the layout: each component [int] n + bytes, n = -1 for null.
Bytes EncodeTuple(const std::vector<std::optional<BytesView>>& components);

// Decodes the elements of a serialized list or set; throws CqlError(kInvalid) if malformed
// (including a null element: "Null value read when not allowed").
std::vector<BytesView> DecodeListElements(BytesView serialized);
// Decodes the entries of a serialized map; throws CqlError(kInvalid) if malformed.
std::vector<std::pair<BytesView, BytesView>> DecodeMapEntries(BytesView serialized);
// Decodes the components of a serialized tuple or UDT (nullopt = null);
// fewer components than the type declares is allowed, as in Cassandra.
// Throws CqlError(kInvalid) if malformed.
std::vector<std::optional<BytesView>> DecodeTupleComponents(BytesView serialized);

// Fixed-width decoders. REQUIRES: `v` has the type's exact width (Validate passed, not empty).
int32_t DecodeInt(BytesView v);
int64_t DecodeBigint(BytesView v);  // bigint, counter, timestamp, time
int16_t DecodeSmallint(BytesView v);
int8_t DecodeTinyint(BytesView v);
bool DecodeBoolean(BytesView v);
double DecodeDouble(BytesView v);
float DecodeFloat(BytesView v);
// The parts of a duration (three signed vints); a part the bytes lack reads as 0.
DurationValue DecodeDuration(BytesView v);
int32_t DecodeDate(BytesView v);  // days since 1970-01-01

// Validates a serialized value against its type (lengths, UTF-8, ASCII,
// nested collections). Throws CqlError(kInvalid) with Cassandra's message,
// e.g. "Expected 4 or 0 byte int (3)", "String didn't validate.".
// Empty values pass where Cassandra lets them (int, bigint, text, ...) and
// fail where it does not (smallint, tinyint, date, time, duration, vector).
// Deliberate difference: time values outside 0..86399999999999 are refused
// (Cassandra stores them and then cannot print them).
void Validate(const CqlType& type, BytesView serialized);

// Comparison in the order Cassandra sorts values of this type (used when a
// read path orders or filters). Returns <0, 0, >0. Empty values sort first.
// Meant for values that passed Validate; others still compare safely, in an
// unspecified order.
int Compare(const CqlType& type, BytesView a, BytesView b);

// The order of a DESC clustering column: Cassandra wraps the column's type
// in ReversedType, whose compare(a, b) is the base type's compare(b, a) —
// so an empty value sorts last. The schema layer records the clustering
// order beside the type (ColumnMetadata::order) rather than in CqlType.
inline int CompareReversed(const CqlType& type, BytesView a, BytesView b) {
  return Compare(type, b, a);
}

// Human-readable form as cqlsh 4.1 shows it with its default settings (used
// in error messages, the sibyl shell and tests): text bare at the top level
// and 'quoted' inside collections, tuples and UDTs (so are timestamps and
// inet addresses), blobs as 0x..., booleans as True/False, timestamps in UTC
// as "2024-01-02 03:04:05.678000+0000" (years 1..9999, else the
// milliseconds), floats with 5 significant digits, UDTs as {name: value}
// with the field names unquoted, set elements and map keys in the order
// Python sorts them. The empty value of a non-text type shows as nothing. A
// value that does not validate is shown as a blob rather than failing.
// For text that reads back as the same value, use ToCqlLiteral
// (value_to_literal.h).
std::string Format(const CqlType& type, BytesView serialized);

}  // namespace sibyl::types
