#pragma once
// Serialized forms of CQL values as the native protocol carries them
// (native_protocol_v5.spec section 6). Collections use the v3+ layout:
// [int] count, then each element as [int] length + bytes.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "types/cql_type.h"
#include "types/uuid.h"

namespace sibyl::types {

Bytes EncodeInt(int32_t v);
Bytes EncodeBigint(int64_t v);
Bytes EncodeBoolean(bool v);
Bytes EncodeDouble(double v);
inline Bytes EncodeText(std::string_view s) { return Bytes(s); }
Bytes EncodeUuid(const Uuid& u);
// Accepts dotted IPv4 or IPv6 text; returns 4 or 16 bytes. Throws CqlError(kInvalid) if malformed.
Bytes EncodeInet(std::string_view address);
Bytes EncodeTimestamp(int64_t millis_since_epoch);
Bytes EncodeList(const std::vector<Bytes>& elements);  // list and set share the layout
Bytes EncodeMap(const std::vector<std::pair<Bytes, Bytes>>& entries);

// Decodes the elements of a serialized list or set; throws CqlError(kInvalid) if malformed.
std::vector<BytesView> DecodeListElements(BytesView serialized);

// Validates a serialized value against its type (lengths, UTF-8, ASCII,
// nested collections). Throws CqlError(kInvalid) with Cassandra's message.
void Validate(const CqlType& type, BytesView serialized);

// Comparison in the order Cassandra sorts values of this type (used when a
// read path orders or filters). Returns <0, 0, >0.
int Compare(const CqlType& type, BytesView a, BytesView b);

// Human-readable form as cqlsh shows it (used in error messages).
std::string Format(const CqlType& type, BytesView serialized);

}  // namespace sibyl::types
