#pragma once
// 128-bit UUIDs: parsing, formatting, random (v4), time-based (v1) and
// name-based (v3) generation.

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/bytes.h"

namespace sibyl::types {

struct Uuid {
  std::array<uint8_t, 16> bytes{};

  static Uuid Random();                   // version 4
  static Uuid NameBased(BytesView name);  // version 3 (MD5), as Java's UUID.nameUUIDFromBytes
  static std::optional<Uuid> Parse(std::string_view text);  // 8-4-4-4-12 hex, any case
  static Uuid FromBytes(BytesView b);                       // REQUIRES: b.size() == 16

  // Version 1 (time-based) from its parts: `timestamp` counts 100 ns
  // intervals since 1582-10-15 (the UUID epoch, 60 bits); `clock_seq_and_node`
  // gives the low 8 bytes, whose variant bits are forced to RFC 4122's. Making
  // successive ids unique (Cassandra's now()) is the caller's job.
  static Uuid TimeBased(int64_t timestamp, uint64_t clock_seq_and_node);
  // 100 ns intervals between the UUID epoch and the Unix epoch.
  static constexpr int64_t kUnixEpochIn100ns = 0x01B21DD213814000;

  int version() const { return bytes[6] >> 4; }
  // REQUIRES: version() == 1. The 60-bit timestamp (100 ns since the UUID epoch).
  int64_t Timestamp() const;
  // REQUIRES: version() == 1. Milliseconds since the Unix epoch, as Cassandra's
  // toTimestamp(timeuuid) computes it.
  int64_t UnixMillis() const;
  std::string ToString() const;  // lower-case 8-4-4-4-12
  BytesView View() const { return {reinterpret_cast<const char*>(bytes.data()), 16}; }
  Bytes ToBytes() const { return Bytes(View()); }
  bool operator==(const Uuid&) const = default;
  auto operator<=>(const Uuid&) const = default;  // byte order: a key for ordered maps
};

}  // namespace sibyl::types
