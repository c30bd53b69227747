// Encoders and decoders for serialized CQL values. Validate, Compare and
// Format live in value_validate.cc, value_compare.cc and value_format.cc.

#include "types/value_codec.h"

#include <arpa/inet.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "common/check.h"
#include "common/error.h"
#include "types/big_number.h"
#include "types/serialized_cursor.h"
#include "types/vint.h"

namespace sibyl::types {
namespace {

// Element lengths are [int]s: anything larger cannot be framed.
void AppendElement(Bytes& out, BytesView element) {
  if (element.size() > static_cast<size_t>(INT32_MAX)) {
    ThrowInvalid("Collection element of " + std::to_string(element.size()) + " bytes is too large");
  }
  AppendBE32(out, static_cast<uint32_t>(element.size()));
  out.append(element);
}

BytesView ReadNonNull(SerializedCursor& cursor, const char* collection) {
  const auto element = cursor.ReadElement();
  switch (element.status) {
    case SerializedCursor::Status::kValue:
      return element.bytes;
    case SerializedCursor::Status::kNull:
      ThrowInvalid("Null value read when not allowed");
    case SerializedCursor::Status::kTruncated:
      break;
  }
  ThrowInvalid(std::string("Not enough bytes to read a ") + collection);
}

int32_t ReadCount(SerializedCursor& cursor, const char* collection) {
  const auto count = cursor.ReadInt32();
  if (!count || *count < 0) ThrowInvalid(std::string("Not enough bytes to read a ") + collection);
  return *count;
}

}  // namespace

Bytes EncodeInt(int32_t v) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(v));
  return out;
}

Bytes EncodeBigint(int64_t v) {
  Bytes out;
  AppendBE64(out, static_cast<uint64_t>(v));
  return out;
}

Bytes EncodeSmallint(int16_t v) {
  Bytes out;
  AppendBE16(out, static_cast<uint16_t>(v));
  return out;
}

Bytes EncodeTinyint(int8_t v) { return Bytes(1, static_cast<char>(v)); }

Bytes EncodeBoolean(bool v) { return Bytes(1, v ? '\x01' : '\x00'); }

Bytes EncodeDouble(double v) { return EncodeBigint(std::bit_cast<int64_t>(v)); }

Bytes EncodeFloat(float v) { return EncodeInt(std::bit_cast<int32_t>(v)); }

Bytes EncodeVarint(int64_t v) { return EncodeVarintFromInt64(v); }

Bytes EncodeUuid(const Uuid& u) { return u.ToBytes(); }

Bytes EncodeInet(std::string_view address) {
  const std::string text(address);  // inet_pton needs a terminated string
  unsigned char buffer[16];
  if (inet_pton(AF_INET, text.c_str(), buffer) == 1) {
    return Bytes(reinterpret_cast<const char*>(buffer), 4);
  }
  if (inet_pton(AF_INET6, text.c_str(), buffer) == 1) {
    return Bytes(reinterpret_cast<const char*>(buffer), 16);
  }
  ThrowInvalid("Unable to make inet address from '" + text + "'");
}

Bytes EncodeTimestamp(int64_t millis_since_epoch) { return EncodeBigint(millis_since_epoch); }

Bytes EncodeDate(int32_t days_since_epoch) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(days_since_epoch) ^ 0x80000000u);
  return out;
}

Bytes EncodeTime(int64_t nanos_of_day) { return EncodeBigint(nanos_of_day); }

Bytes EncodeDuration(int32_t months, int32_t days, int64_t nanoseconds) {
  Bytes out;
  AppendSignedVint(out, months);
  AppendSignedVint(out, days);
  AppendSignedVint(out, nanoseconds);
  return out;
}

Bytes EncodeList(const std::vector<Bytes>& elements) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(elements.size()));
  for (const auto& element : elements) AppendElement(out, element);
  return out;
}

Bytes EncodeMap(const std::vector<std::pair<Bytes, Bytes>>& entries) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(entries.size()));
  for (const auto& [key, value] : entries) {
    AppendElement(out, key);
    AppendElement(out, value);
  }
  return out;
}

Bytes EncodeTuple(const std::vector<std::optional<BytesView>>& components) {
  Bytes out;
  for (const auto& component : components) {
    if (component) {
      AppendElement(out, *component);
    } else {
      AppendBE32(out, static_cast<uint32_t>(-1));
    }
  }
  return out;
}

std::vector<BytesView> DecodeListElements(BytesView serialized) {
  SerializedCursor cursor(serialized);
  const int32_t count = ReadCount(cursor, "list");
  std::vector<BytesView> elements;
  // A corrupt count must not reserve gigabytes: each element takes >= 4 bytes.
  elements.reserve(std::min<size_t>(static_cast<size_t>(count), cursor.remaining() / 4));
  for (int32_t i = 0; i < count; ++i) elements.push_back(ReadNonNull(cursor, "list"));
  if (!cursor.at_end()) ThrowInvalid("Unexpected extraneous bytes after list value");
  return elements;
}

std::vector<std::pair<BytesView, BytesView>> DecodeMapEntries(BytesView serialized) {
  SerializedCursor cursor(serialized);
  const int32_t count = ReadCount(cursor, "map");
  std::vector<std::pair<BytesView, BytesView>> entries;
  entries.reserve(std::min<size_t>(static_cast<size_t>(count), cursor.remaining() / 8));
  for (int32_t i = 0; i < count; ++i) {
    BytesView key = ReadNonNull(cursor, "map");
    BytesView value = ReadNonNull(cursor, "map");
    entries.emplace_back(key, value);
  }
  if (!cursor.at_end()) ThrowInvalid("Unexpected extraneous bytes after map value");
  return entries;
}

std::vector<std::optional<BytesView>> DecodeTupleComponents(BytesView serialized) {
  SerializedCursor cursor(serialized);
  std::vector<std::optional<BytesView>> components;
  while (!cursor.at_end()) {
    const auto element = cursor.ReadElement();
    switch (element.status) {
      case SerializedCursor::Status::kValue:
        components.emplace_back(element.bytes);
        break;
      case SerializedCursor::Status::kNull:
        components.emplace_back(std::nullopt);
        break;
      case SerializedCursor::Status::kTruncated:
        ThrowInvalid("Not enough bytes to read " + std::to_string(components.size()) +
                     "th component");
    }
  }
  return components;
}

int32_t DecodeInt(BytesView v) {
  SIBYL_CHECK(v.size() == 4);
  return static_cast<int32_t>(LoadBE32(v.data()));
}

int64_t DecodeBigint(BytesView v) {
  SIBYL_CHECK(v.size() == 8);
  return static_cast<int64_t>(LoadBE64(v.data()));
}

int16_t DecodeSmallint(BytesView v) {
  SIBYL_CHECK(v.size() == 2);
  return static_cast<int16_t>(LoadBE16(v.data()));
}

int8_t DecodeTinyint(BytesView v) {
  SIBYL_CHECK(v.size() == 1);
  return static_cast<int8_t>(v[0]);
}

bool DecodeBoolean(BytesView v) {
  SIBYL_CHECK(v.size() == 1);
  return v[0] != 0;
}

double DecodeDouble(BytesView v) { return std::bit_cast<double>(DecodeBigint(v)); }

float DecodeFloat(BytesView v) { return std::bit_cast<float>(DecodeInt(v)); }

DurationValue DecodeDuration(BytesView v) {
  int64_t parts[3] = {0, 0, 0};
  for (int64_t& part : parts) {
    const auto decoded = ReadSignedVint(v);
    if (!decoded) break;
    part = static_cast<int64_t>(decoded->value);
    v.remove_prefix(decoded->size);
  }
  return {static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]), parts[2]};
}

int32_t DecodeDate(BytesView v) {
  SIBYL_CHECK(v.size() == 4);
  return static_cast<int32_t>(LoadBE32(v.data()) ^ 0x80000000u);
}

}  // namespace sibyl::types
