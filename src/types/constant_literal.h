#pragma once
// CQL constants ('text', 42, 1.5, true, 0xcafe, 1h30m, a UUID) converted to
// the serialized value of the type that receives them, with Cassandra 4.1's
// rules (cql3/Constants.java): which constant kinds each type accepts, and
// each type's fromString with its messages.

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/bytes.h"
#include "types/cql_type.h"

namespace sibyl::types {

// The constant kinds of Cassandra's grammar (Constants.Type).
enum class ConstantKind : uint8_t {
  kString,    // 'text' / $$text$$: the unescaped contents
  kInteger,   // -?digits
  kFloat,     // 1.5, -2e10, NaN, Infinity, -Infinity
  kBoolean,   // true / false, any case
  kUuid,      // 8-4-4-4-12 hex
  kHex,       // 0x..., the text including the 0x
  kDuration,  // 1h30m, P1D, P4W, P0001-02-03T04:05:06, optionally with '-'
};

// "STRING", "INTEGER", "FLOAT", "BOOLEAN", "UUID", "HEX", "DURATION".
[[nodiscard]] const char* ConstantKindName(ConstantKind kind);

// AssignmentTestable.TestResult: how well a term fits a receiver type. Used
// to pick between function overloads; only kNotAssignable is an error.
enum class AssignmentResult : uint8_t { kExactMatch, kWeaklyAssignable, kNotAssignable };

// Constants.Literal.testAssignment. An exact match is the constant's
// preferred type (an INTEGER that fits in 32 bits prefers int, a STRING of
// ASCII characters ascii, a version 1 UUID timeuuid, a HEX constant —
// Cassandra's quirk — tinyint).
[[nodiscard]] AssignmentResult TestConstantAssignment(ConstantKind kind, std::string_view text,
                                                      const CqlType& receiver);

// The serialized value of `text` as a value of `type`. `receiver` names the
// receiver in messages (a column name, or value(l), key(m), t[0], u.f for
// elements). `now_millis` is what 'now' means for a timestamp.
// Throws CqlError(kInvalid) with Cassandra's messages, e.g.
//   Invalid STRING constant (foo) for "k" of type int
//   Unable to make int from '99999999999'
//   Invalid ASCII character in string literal: java.nio.charset.UnmappableCharacterException: Input
//   length = 1 TimeUUID supports only version 1 UUIDs cannot parse '123' as hex bytes
// Deliberate differences: the result is validated against the type (a HEX
// constant for a tinyint must be one byte; Cassandra stores any bytes);
// inet text must be an address (Cassandra resolves host names through DNS);
// text that is not valid UTF-8 is refused ("String didn't validate.");
// constants for tuple columns (Cassandra's TupleType.fromString "a:b" form)
// are refused as not supported.
[[nodiscard]] Bytes ConvertConstant(ConstantKind kind, std::string_view text,
                                    std::string_view receiver, const CqlType& type,
                                    int64_t now_millis);

// Java's InetAddress.getByName for address literals: dotted IPv4 including
// the short forms (127.1), IPv6 with or without brackets and a %scope, and
// IPv4-mapped IPv6 as 4 bytes. Empty text is the empty value. nullopt when
// the text is not an address.
[[nodiscard]] std::optional<Bytes> ParseInetLiteral(std::string_view text);

// Cassandra's Hex.hexToBytes (even length, hex digits in any case).
[[nodiscard]] std::optional<Bytes> HexToBytes(std::string_view hex);

}  // namespace sibyl::types
