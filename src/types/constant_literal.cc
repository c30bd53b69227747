#include "types/constant_literal.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "common/error.h"
#include "types/big_number.h"
#include "types/date_time_literal.h"
#include "types/duration_literal.h"
#include "types/number_text.h"
#include "types/timestamp_literal.h"
#include "types/utf8.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::types {
namespace {

bool IsAscii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

bool IsSpecialFloat(std::string_view text) {
  return text == "NaN" || text == "-NaN" || text == "Infinity" || text == "-Infinity";
}

// Constants.Type.getPreferedTypeFor.
Kind PreferredKind(ConstantKind kind, std::string_view text) {
  switch (kind) {
    case ConstantKind::kString:
      return IsAscii(text) ? Kind::kAscii : Kind::kText;
    case ConstantKind::kInteger:
      if (ParseJavaInteger(text, INT32_MIN, INT32_MAX)) return Kind::kInt;
      if (ParseJavaLong(text)) return Kind::kBigint;
      return Kind::kVarint;
    case ConstantKind::kUuid: {
      const auto uuid = Uuid::Parse(text);
      return uuid && uuid->version() == 1 ? Kind::kTimeuuid : Kind::kUuid;
    }
    case ConstantKind::kFloat: {
      if (IsSpecialFloat(text)) return Kind::kDouble;
      // A double if the double nearest the text is numerically the text.
      const auto exact = ParseDecimal(text);
      const auto nearest = ParseJavaDouble(text);
      if (!exact || !nearest || std::isinf(*nearest)) return Kind::kDecimal;
      const auto as_double = ParseDecimal(JavaDoubleToString(*nearest));
      return as_double && CompareDecimal(*exact, *as_double) == 0 ? Kind::kDouble : Kind::kDecimal;
    }
    case ConstantKind::kBoolean:
      return Kind::kBoolean;
    case ConstantKind::kHex:
      return Kind::kTinyint;
    case ConstantKind::kDuration:
      return Kind::kDuration;
  }
  return Kind::kCustom;
}

// The native types each constant kind may weakly be assigned to.
bool WeaklyAssignable(ConstantKind kind, Kind receiver) {
  switch (kind) {
    case ConstantKind::kString:
      return receiver == Kind::kAscii || receiver == Kind::kText || receiver == Kind::kInet ||
             receiver == Kind::kDate || receiver == Kind::kTime || receiver == Kind::kTimestamp;
    case ConstantKind::kInteger:
      return receiver == Kind::kBigint || receiver == Kind::kCounter || receiver == Kind::kDate ||
             receiver == Kind::kDecimal || receiver == Kind::kDouble ||
             receiver == Kind::kDuration || receiver == Kind::kFloat || receiver == Kind::kInt ||
             receiver == Kind::kSmallint || receiver == Kind::kTime ||
             receiver == Kind::kTimestamp || receiver == Kind::kTinyint ||
             receiver == Kind::kVarint;
    case ConstantKind::kUuid:
      return receiver == Kind::kUuid || receiver == Kind::kTimeuuid;
    case ConstantKind::kFloat:
      return receiver == Kind::kDecimal || receiver == Kind::kDouble || receiver == Kind::kFloat;
    case ConstantKind::kBoolean:
      return receiver == Kind::kBoolean;
    case ConstantKind::kHex:
      return receiver == Kind::kBlob;
    case ConstantKind::kDuration:
      return receiver == Kind::kDuration;
  }
  return false;
}

[[noreturn]] void ThrowUnable(const char* what, std::string_view text) {
  ThrowInvalid(std::string("Unable to make ") + what + " from '" + std::string(text) + "'");
}

int64_t IntegerFromString(std::string_view text, int64_t min, int64_t max, const char* java_name) {
  const auto value = ParseJavaInteger(text, min, max);
  if (!value) ThrowUnable(java_name, text);
  return *value;
}

// AsciiType.fromString: the message carries Java's exception text, whose
// "Input length" is the number of UTF-16 units of the first bad character.
Bytes AsciiFromString(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) continue;
    const int units = c >= 0xF0 ? 2 : 1;  // a 4-byte UTF-8 sequence is a surrogate pair
    ThrowInvalid(
        "Invalid ASCII character in string literal: "
        "java.nio.charset.UnmappableCharacterException: Input length = " +
        std::to_string(units));
  }
  return Bytes(text);
}

Bytes HexFromString(std::string_view hex) {
  auto bytes = HexToBytes(hex);
  if (!bytes) ThrowInvalid("cannot parse '" + std::string(hex) + "' as hex bytes");
  return std::move(*bytes);
}

Bytes UuidFromString(std::string_view text, bool time_based) {
  if (text.empty()) return {};
  const auto uuid = Uuid::Parse(text);
  if (!uuid) {
    if (time_based) ThrowInvalid("Unknown timeuuid representation: " + std::string(text));
    ThrowInvalid("Unable to make UUID from '" + std::string(text) + "'");
  }
  if (time_based && uuid->version() != 1) ThrowInvalid("TimeUUID supports only version 1 UUIDs");
  return uuid->ToBytes();
}

// The type's fromString (AbstractType.fromString), as Constants.parsedValue calls it.
Bytes FromString(ConstantKind kind, std::string_view text, const CqlType& type,
                 int64_t now_millis) {
  if (kind == ConstantKind::kHex) {
    // Constants hardcodes BytesType for HEX constants, whatever the receiver.
    return HexFromString(text.substr(2));
  }
  // Most fromString methods read an empty string as the empty value.
  const bool empty = text.empty();
  switch (type.kind()) {
    case Kind::kAscii:
      return AsciiFromString(text);
    case Kind::kText:
      if (!IsValidUtf8(text)) ThrowInvalid("String didn't validate.");
      return Bytes(text);
    case Kind::kInt:
      if (empty) return {};
      return EncodeInt(static_cast<int32_t>(IntegerFromString(text, INT32_MIN, INT32_MAX, "int")));
    case Kind::kBigint:
    case Kind::kCounter:
      if (empty) return {};
      return EncodeBigint(IntegerFromString(text, INT64_MIN, INT64_MAX, "long"));
    case Kind::kSmallint:
      if (empty) return {};
      return EncodeSmallint(static_cast<int16_t>(IntegerFromString(text, -32768, 32767, "short")));
    case Kind::kTinyint:
      if (empty) return {};
      return EncodeTinyint(static_cast<int8_t>(IntegerFromString(text, -128, 127, "byte")));
    case Kind::kVarint: {
      if (empty) return {};
      auto value = ParseVarint(text);
      if (!value) ThrowInvalid("unable to make int from '" + std::string(text) + "'");
      return std::move(*value);
    }
    case Kind::kDecimal: {
      if (empty) return {};
      auto value = ParseDecimal(text);
      if (!value) ThrowInvalid("unable to make BigDecimal from '" + std::string(text) + "'");
      return std::move(*value);
    }
    case Kind::kDouble: {
      if (empty) return {};
      const auto value = ParseJavaDouble(text);
      if (!value) ThrowUnable("double", text);
      return EncodeDouble(*value);
    }
    case Kind::kFloat: {
      if (empty) return {};
      const auto value = ParseJavaFloat(text);
      if (!value) ThrowUnable("float", text);
      return EncodeFloat(*value);
    }
    case Kind::kBoolean: {
      const auto lower = [&](std::string_view word) {
        if (text.size() != word.size()) return false;
        for (size_t i = 0; i < word.size(); ++i) {
          if (std::tolower(static_cast<unsigned char>(text[i])) != word[i]) return false;
        }
        return true;
      };
      if (empty || lower("false")) return EncodeBoolean(false);
      if (lower("true")) return EncodeBoolean(true);
      ThrowUnable("boolean", text);
    }
    case Kind::kUuid:
      return UuidFromString(text, false);
    case Kind::kTimeuuid:
      return UuidFromString(text, true);
    case Kind::kInet: {
      auto address = ParseInetLiteral(text);
      if (!address) ThrowInvalid("Unable to make inet address from '" + std::string(text) + "'");
      return std::move(*address);
    }
    case Kind::kTimestamp:
      if (empty) return {};
      return EncodeTimestamp(ParseTimestampLiteral(text, now_millis));
    case Kind::kDate:
      return EncodeDate(ParseDateLiteral(text));
    case Kind::kTime:
      return EncodeTime(ParseTimeLiteral(text));
    case Kind::kDuration: {
      if (empty) return {};
      const DurationValue d = ParseDurationLiteral(text);
      return EncodeDuration(d.months, d.days, d.nanoseconds);
    }
    case Kind::kBlob:
    case Kind::kVector:
    case Kind::kCustom:
      // BytesType, VectorType and custom types read hex without the 0x.
      return HexFromString(text);
    case Kind::kTuple:
      ThrowInvalid(std::string(ConstantKindName(kind)) + " constants for type " + type.ToCql() +
                   " (Cassandra's TupleType.fromString form) are not supported by Sibyl");
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kUdt:
      break;  // never assignable
  }
  ThrowInvalid("Unsupported constant for type " + type.ToCql());
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// IPAddressUtil.textToNumericFormatV4: one to four dot-separated decimal
// parts, the last filling the remaining bytes (127.1 is 127.0.0.1).
std::optional<Bytes> ParseIpv4(std::string_view text) {
  if (text.empty() || text.size() > 15) return std::nullopt;
  unsigned char bytes[4] = {0, 0, 0, 0};
  int64_t value = 0;
  int index = 0;
  bool new_octet = true;
  for (char c : text) {
    if (c == '.') {
      if (new_octet || value > 0xff || index == 3) return std::nullopt;
      bytes[index++] = static_cast<unsigned char>(value);
      value = 0;
      new_octet = true;
    } else if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      new_octet = false;
    } else {
      return std::nullopt;
    }
  }
  if (new_octet || value >= (int64_t{1} << ((4 - index) * 8))) return std::nullopt;
  for (int i = 3; i >= index; --i) {
    bytes[i] = static_cast<unsigned char>(value & 0xff);
    value >>= 8;
  }
  return Bytes(reinterpret_cast<const char*>(bytes), 4);
}

}  // namespace

const char* ConstantKindName(ConstantKind kind) {
  switch (kind) {
    case ConstantKind::kString:
      return "STRING";
    case ConstantKind::kInteger:
      return "INTEGER";
    case ConstantKind::kFloat:
      return "FLOAT";
    case ConstantKind::kBoolean:
      return "BOOLEAN";
    case ConstantKind::kUuid:
      return "UUID";
    case ConstantKind::kHex:
      return "HEX";
    case ConstantKind::kDuration:
      return "DURATION";
  }
  return "UNKNOWN";
}

AssignmentResult TestConstantAssignment(ConstantKind kind, std::string_view text,
                                        const CqlType& receiver) {
  if (receiver.is_collection() || receiver.kind() == Kind::kUdt) {
    return AssignmentResult::kNotAssignable;
  }
  // Custom types, tuples and vectors skip type validation in Cassandra.
  if (!receiver.is_native()) return AssignmentResult::kWeaklyAssignable;
  if (receiver.kind() == PreferredKind(kind, text)) return AssignmentResult::kExactMatch;
  return WeaklyAssignable(kind, receiver.kind()) ? AssignmentResult::kWeaklyAssignable
                                                 : AssignmentResult::kNotAssignable;
}

Bytes ConvertConstant(ConstantKind kind, std::string_view text, std::string_view receiver,
                      const CqlType& type, int64_t now_millis) {
  if (TestConstantAssignment(kind, text, type) == AssignmentResult::kNotAssignable) {
    ThrowInvalid("Invalid " + std::string(ConstantKindName(kind)) + " constant (" +
                 std::string(text) + ") for \"" + std::string(receiver) + "\" of type " +
                 type.ToCql());
  }
  Bytes value = FromString(kind, text, type, now_millis);
  Validate(type, value);
  return value;
}

std::optional<Bytes> ParseInetLiteral(std::string_view text) {
  if (text.empty()) return Bytes();
  if (auto v4 = ParseIpv4(text)) return v4;
  std::string_view host = text;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (const size_t scope = host.find('%'); scope != std::string_view::npos) {
    if (scope + 1 == host.size()) return std::nullopt;
    host = host.substr(0, scope);
  }
  if (host.find(':') == std::string_view::npos) return std::nullopt;  // a host name: no DNS here
  const std::string address(host);
  unsigned char buffer[16];
  if (inet_pton(AF_INET6, address.c_str(), buffer) != 1) return std::nullopt;
  // Java answers an IPv4-mapped address (::ffff:a.b.c.d) with an Inet4Address.
  static constexpr unsigned char kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::equal(kMappedPrefix, kMappedPrefix + 12, buffer)) {
    return Bytes(reinterpret_cast<const char*>(buffer + 12), 4);
  }
  return Bytes(reinterpret_cast<const char*>(buffer), 16);
}

std::optional<Bytes> HexToBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  Bytes out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigit(hex[i]);
    const int low = HexDigit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out.push_back(static_cast<char>(high << 4 | low));
  }
  return out;
}

}  // namespace sibyl::types
