#pragma once
// 128-bit UUIDs: parsing, formatting, random (v4), time-based (v1) and
// name-based (v3) generation.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/bytes.h"

namespace sibyl::types {

struct Uuid {
  std::array<uint8_t, 16> bytes{};

  static Uuid Random();                           // version 4
  static Uuid NameBased(BytesView name);          // version 3 (MD5), as Java's UUID.nameUUIDFromBytes
  static std::optional<Uuid> Parse(std::string_view text);  // 8-4-4-4-12 hex, any case
  static Uuid FromBytes(BytesView b);             // REQUIRES: b.size() == 16

  int version() const { return bytes[6] >> 4; }
  std::string ToString() const;                    // lower-case 8-4-4-4-12
  BytesView View() const { return {reinterpret_cast<const char*>(bytes.data()), 16}; }
  Bytes ToBytes() const { return Bytes(View()); }
  bool operator==(const Uuid&) const = default;
};

}  // namespace sibyl::types
