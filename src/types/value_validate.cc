// Validate: Cassandra's TypeSerializer.validate for every CQL type, with the
// messages its MarshalExceptions carry (Cassandra 4.1; vectors from 5.0).

#include <string>

#include "common/error.h"
#include "common/hex.h"
#include "types/civil_date.h"
#include "types/serialized_cursor.h"
#include "types/utf8.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"
#include "types/vint.h"

namespace sibyl::types {
namespace {

std::string Size(BytesView v) { return std::to_string(v.size()); }

// "Expected 4 or 0 byte int (3)": the value may be `width` bytes or empty.
void CheckWidthOrEmpty(BytesView v, size_t width, const char* expectation) {
  if (v.size() != width && !v.empty())
    ThrowInvalid(std::string(expectation) + " (" + Size(v) + ")");
}

void CheckExactWidth(BytesView v, size_t width, const char* expectation) {
  if (v.size() != width) ThrowInvalid(std::string(expectation) + " (" + Size(v) + ")");
}

void ValidateAscii(BytesView v) {
  for (char c : v) {
    // Java bytes are signed: the message shows e.g. -61 for 0xC3.
    if (static_cast<signed char>(c) < 0) {
      ThrowInvalid("Invalid byte for ascii: " + std::to_string(static_cast<signed char>(c)));
    }
  }
}

void ValidateDuration(BytesView v) {
  if (v.size() < 3) {
    ThrowInvalid("Expected at least 3 bytes for a duration (" + Size(v) + ")");
  }
  size_t offset = 0;
  int64_t parts[3];
  for (int64_t& part : parts) {
    const auto decoded = ReadSignedVint(v.substr(offset));
    if (!decoded) ThrowInvalid("Not enough bytes to read a duration");
    part = static_cast<int64_t>(decoded->value);
    offset += decoded->size;
  }
  const auto fits_int = [](int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; };
  if (!fits_int(parts[0])) {
    ThrowInvalid("The duration months must be a 32 bits integer but was: " +
                 std::to_string(parts[0]));
  }
  if (!fits_int(parts[1])) {
    ThrowInvalid("The duration days must be a 32 bits integer but was: " +
                 std::to_string(parts[1]));
  }
  const bool all_non_negative = parts[0] >= 0 && parts[1] >= 0 && parts[2] >= 0;
  const bool all_non_positive = parts[0] <= 0 && parts[1] <= 0 && parts[2] <= 0;
  if (!all_non_negative && !all_non_positive) {
    ThrowInvalid("The duration months, days and nanoseconds must be all of the same sign (" +
                 std::to_string(parts[0]) + ", " + std::to_string(parts[1]) + ", " +
                 std::to_string(parts[2]) + ")");
  }
}

// ListSerializer / SetSerializer / MapSerializer.validate (v3+ layout).
void ValidateCollection(const CqlType& type, BytesView v) {
  if (v.empty()) return;  // Cassandra 4.1: "Empty values are still valid."
  const char* name = type.kind() == Kind::kList  ? "list"
                     : type.kind() == Kind::kSet ? "set"
                                                 : "map";
  const std::string truncated = std::string("Not enough bytes to read a ") + name;
  SerializedCursor cursor(v);
  const auto count = cursor.ReadInt32();
  if (!count || *count < 0) ThrowInvalid(truncated);
  const int per_entry = type.kind() == Kind::kMap ? 2 : 1;
  for (int32_t i = 0; i < *count; ++i) {
    for (int j = 0; j < per_entry; ++j) {
      const auto element = cursor.ReadElement();
      if (element.status == SerializedCursor::Status::kTruncated) ThrowInvalid(truncated);
      if (element.status == SerializedCursor::Status::kNull) {
        ThrowInvalid("Null value read when not allowed");
      }
      Validate(*type.params()[per_entry == 2 ? j : 0], element.bytes);
    }
  }
  if (!cursor.at_end()) {
    ThrowInvalid(std::string("Unexpected extraneous bytes after ") + name + " value");
  }
}

// TupleSerializer / UserTypeSerializer.validate: fewer components than
// declared are allowed (fields added later), more are not.
void ValidateTupleOrUdt(const CqlType& type, BytesView v) {
  const bool udt = type.kind() == Kind::kUdt;
  SerializedCursor cursor(v);
  // UserTypeSerializer counts only the fields it validated; the message index
  // follows it.
  int udt_index = 0;
  for (size_t i = 0; i < type.params().size(); ++i) {
    if (cursor.at_end()) return;
    const std::string which = udt ? std::to_string(udt_index) + "th field " + type.field_names()[i]
                                  : std::to_string(i) + "th component";
    if (cursor.remaining() < 4) ThrowInvalid("Not enough bytes to read size of " + which);
    const auto element = cursor.ReadElement();
    if (element.status == SerializedCursor::Status::kNull) continue;
    if (element.status == SerializedCursor::Status::kTruncated) {
      ThrowInvalid("Not enough bytes to read " + which);
    }
    Validate(*type.params()[i], element.bytes);
    ++udt_index;
  }
  if (!cursor.at_end()) {
    ThrowInvalid(udt ? "Invalid remaining data after end of UDT value"
                     : "Invalid remaining data after end of tuple value");
  }
}

// VectorType's serializers (Cassandra 5.0).
void ValidateVector(const CqlType& type, BytesView v) {
  if (v.empty()) ThrowInvalid("Invalid empty vector value");
  const CqlType& element_type = *type.params()[0];
  const auto dimension = static_cast<size_t>(type.vector_dimension());
  const auto truncated = [&] { ThrowInvalid("Not enough bytes to read a " + type.ToCql()); };
  size_t offset = 0;
  if (const auto width = FixedValueLength(element_type)) {
    if (v.size() < *width * dimension) truncated();
    for (size_t i = 0; i < dimension; ++i, offset += *width) {
      Validate(element_type, v.substr(offset, *width));
    }
  } else {
    for (size_t i = 0; i < dimension; ++i) {
      if (offset >= v.size()) truncated();
      const auto length = ReadUnsignedVint(v.substr(offset));
      if (!length) truncated();
      offset += length->size;
      if (length->value > v.size() - offset) truncated();
      Validate(element_type, v.substr(offset, static_cast<size_t>(length->value)));
      offset += static_cast<size_t>(length->value);
    }
  }
  if (offset < v.size()) {
    ThrowInvalid("Unexpected " + std::to_string(v.size() - offset) + " extraneous bytes after " +
                 type.ToCql() + " value");
  }
}

}  // namespace

void Validate(const CqlType& type, BytesView v) {
  switch (type.kind()) {
    case Kind::kInt:
      CheckWidthOrEmpty(v, 4, "Expected 4 or 0 byte int");
      return;
    case Kind::kBigint:
    case Kind::kCounter:
      CheckWidthOrEmpty(v, 8, "Expected 8 or 0 byte long");
      return;
    case Kind::kTimestamp:
      CheckWidthOrEmpty(v, 8, "Expected 8 or 0 byte long for date");
      return;
    case Kind::kSmallint:
      CheckExactWidth(v, 2, "Expected 2 bytes for a smallint");
      return;
    case Kind::kTinyint:
      CheckExactWidth(v, 1, "Expected 1 byte for a tinyint");
      return;
    case Kind::kBoolean:
      CheckWidthOrEmpty(v, 1, "Expected 1 or 0 byte value");
      return;
    case Kind::kDouble:
      CheckWidthOrEmpty(v, 8, "Expected 8 or 0 byte value for a double");
      return;
    case Kind::kFloat:
      CheckWidthOrEmpty(v, 4, "Expected 4 or 0 byte value for a float");
      return;
    case Kind::kUuid:
      CheckWidthOrEmpty(v, 16, "UUID should be 16 or 0 bytes");
      return;
    case Kind::kTimeuuid:
      CheckWidthOrEmpty(v, 16, "UUID should be 16 or 0 bytes");
      if (!v.empty() && (static_cast<uint8_t>(v[6]) & 0xf0) != 0x10) {
        ThrowInvalid("Invalid version for TimeUUID type.");
      }
      return;
    case Kind::kDate:
      CheckExactWidth(v, 4, "Expected 4 byte long for date");
      return;
    case Kind::kTime: {
      CheckExactWidth(v, 8, "Expected 8 byte long for time");
      const auto nanos = static_cast<int64_t>(LoadBE64(v.data()));
      if (nanos < 0 || nanos >= kNanosPerDay) {
        ThrowInvalid("Time value out of range: " + std::to_string(nanos) +
                     " is not between 0 and 86399999999999 nanoseconds");
      }
      return;
    }
    case Kind::kInet:
      if (!v.empty() && v.size() != 4 && v.size() != 16) {
        ThrowInvalid("Expected 4 or 16 byte inetaddress; got " + ToHex(v));
      }
      return;
    case Kind::kAscii:
      ValidateAscii(v);
      return;
    case Kind::kText:
      if (!IsValidUtf8(v)) ThrowInvalid("String didn't validate.");
      return;
    case Kind::kDecimal:
      if (!v.empty() && v.size() < 4) {
        ThrowInvalid("Expected 0 or at least 4 bytes (" + Size(v) + ")");
      }
      return;
    case Kind::kDuration:
      ValidateDuration(v);
      return;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      ValidateCollection(type, v);
      return;
    case Kind::kTuple:
    case Kind::kUdt:
      ValidateTupleOrUdt(type, v);
      return;
    case Kind::kVector:
      ValidateVector(type, v);
      return;
    case Kind::kBlob:
    case Kind::kVarint:
    case Kind::kCustom:
      return;  // any bytes
  }
}

}  // namespace sibyl::types
