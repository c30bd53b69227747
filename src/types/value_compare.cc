// Compare: the order Cassandra's AbstractType.compare gives values of each
// type (Cassandra 4.1; vectors from 5.0). Clustering order and range reads
// depend on it, so every rule below is Cassandra's, quirks included.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "types/big_number.h"
#include "types/serialized_cursor.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"

namespace sibyl::types {
namespace {

template <typename T>
int Sign3(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

int CompareBytes(BytesView a, BytesView b) {
  const size_t common = std::min(a.size(), b.size());
  const int c = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
  if (c != 0) return c < 0 ? -1 : 1;
  return Sign3(a.size(), b.size());
}

int64_t LoadSigned(BytesView v) {
  switch (v.size()) {
    case 1:
      return static_cast<int8_t>(v[0]);
    case 2:
      return static_cast<int16_t>(LoadBE16(v.data()));
    case 4:
      return static_cast<int32_t>(LoadBE32(v.data()));
    default:
      return static_cast<int64_t>(LoadBE64(v.data()));
  }
}

// Java's Double.compare / Float.compare: -0.0 < 0.0, NaN above +Infinity and
// equal to itself.
template <typename Float>
int CompareFloating(Float x, Float y) {
  if (x < y) return -1;
  if (x > y) return 1;
  const bool x_nan = std::isnan(x);
  const bool y_nan = std::isnan(y);
  if (x_nan || y_nan) return Sign3(x_nan, y_nan);
  return Sign3(std::signbit(y), std::signbit(x));
}

// A time UUID's most significant long with its timestamp fields in order
// (time_hi, time_mid, time_low); the version nibble ends up on top.
int64_t ReorderTimestamp(uint64_t msb) {
  return static_cast<int64_t>((msb << 48) | ((msb << 16) & 0xFFFF00000000ULL) | (msb >> 32));
}

// UUIDType.compareCustom: by version, then v1 by timestamp, others as
// unsigned msb; then the low long unsigned.
int CompareUuid(BytesView a, BytesView b) {
  const uint64_t msb_a = LoadBE64(a.data());
  const uint64_t msb_b = LoadBE64(b.data());
  const int version_a = static_cast<int>((msb_a >> 12) & 0xf);
  const int version_b = static_cast<int>((msb_b >> 12) & 0xf);
  if (version_a != version_b) return Sign3(version_a, version_b);
  const int c = version_a == 1 ? Sign3(ReorderTimestamp(msb_a), ReorderTimestamp(msb_b))
                               : Sign3(msb_a, msb_b);
  if (c != 0) return c;
  return Sign3(LoadBE64(a.data() + 8), LoadBE64(b.data() + 8));
}

// TimeUUIDType.compareCustom: by timestamp, then the low 8 bytes compared as
// *signed* bytes (a compatibility quirk Cassandra keeps).
int CompareTimeuuid(BytesView a, BytesView b) {
  const int c = Sign3(ReorderTimestamp(LoadBE64(a.data())), ReorderTimestamp(LoadBE64(b.data())));
  if (c != 0) return c;
  constexpr uint64_t kFlipLowerSigns = 0x0080808080808080ULL;
  return Sign3(static_cast<int64_t>(LoadBE64(a.data() + 8) ^ kFlipLowerSigns),
               static_cast<int64_t>(LoadBE64(b.data() + 8) ^ kFlipLowerSigns));
}

// Lists and sets element by element, maps key then value per entry; a prefix
// sorts first.
int CompareCollections(const CqlType& type, BytesView a, BytesView b) {
  SerializedCursor ca(a), cb(b);
  const int32_t count_a = ca.ReadInt32().value_or(0);
  const int32_t count_b = cb.ReadInt32().value_or(0);
  const bool map = type.kind() == Kind::kMap;
  const int32_t common = std::min(count_a, count_b);
  for (int32_t i = 0; i < common; ++i) {
    for (int part = 0; part < (map ? 2 : 1); ++part) {
      const auto ea = ca.ReadElement();
      const auto eb = cb.ReadElement();
      const int c = Compare(*type.params()[map ? part : 0], ea.bytes, eb.bytes);
      if (c != 0) return c;
    }
  }
  return Sign3(count_a, count_b);
}

// True if any component left in `cursor` holds a non-empty value.
bool HasNonEmptyRemaining(SerializedCursor& cursor) {
  while (!cursor.at_end()) {
    const auto element = cursor.ReadElement();
    if (element.status == SerializedCursor::Status::kTruncated) return false;
    if (element.status == SerializedCursor::Status::kValue && !element.bytes.empty()) return true;
  }
  return false;
}

// TupleType.compareCustom (user types too): component by component, null
// before any value; trailing nulls and empties equal absent components.
int CompareTuples(const CqlType& type, BytesView a, BytesView b) {
  SerializedCursor ca(a), cb(b);
  for (size_t i = 0; i < type.params().size() && !ca.at_end() && !cb.at_end(); ++i) {
    const auto ea = ca.ReadElement();
    const auto eb = cb.ReadElement();
    const bool a_null = ea.status != SerializedCursor::Status::kValue;
    const bool b_null = eb.status != SerializedCursor::Status::kValue;
    if (a_null || b_null) {
      if (a_null && b_null) continue;
      return a_null ? -1 : 1;
    }
    const int c = Compare(*type.params()[i], ea.bytes, eb.bytes);
    if (c != 0) return c;
  }
  if (HasNonEmptyRemaining(ca)) return 1;
  if (HasNonEmptyRemaining(cb)) return -1;
  return 0;
}

int CompareVectors(const CqlType& type, BytesView a, BytesView b) {
  const auto elements_a = SplitVector(type, a);
  const auto elements_b = SplitVector(type, b);
  for (size_t i = 0; i < elements_a.size() && i < elements_b.size(); ++i) {
    const int c = Compare(*type.params()[0], elements_a[i], elements_b[i]);
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace

int Compare(const CqlType& type, BytesView a, BytesView b) {
  // Every type sorts the empty value first.
  if (a.empty() || b.empty()) return Sign3(!a.empty(), !b.empty());
  // Values of the wrong width never pass Validate; should one arrive anyway
  // (a corrupt store), order it bytewise instead of reading past it.
  if (type.is_native()) {
    const auto width = FixedValueLength(type);
    if (width ? (a.size() != *width || b.size() != *width)
              : (type.kind() == Kind::kDecimal && (a.size() < 4 || b.size() < 4))) {
      return CompareBytes(a, b);
    }
  }
  switch (type.kind()) {
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
    case Kind::kSmallint:
    case Kind::kTinyint:
      return Sign3(LoadSigned(a), LoadSigned(b));
    case Kind::kBoolean:
      // False is 0, anything else true.
      return Sign3(a[0] != 0, b[0] != 0);
    case Kind::kDouble:
      return CompareFloating(DecodeDouble(a), DecodeDouble(b));
    case Kind::kFloat:
      return CompareFloating(DecodeFloat(a), DecodeFloat(b));
    case Kind::kUuid:
      return CompareUuid(a, b);
    case Kind::kTimeuuid:
      return CompareTimeuuid(a, b);
    case Kind::kVarint:
      return CompareVarint(a, b);
    case Kind::kDecimal:
      return CompareDecimal(a, b);
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return CompareCollections(type, a, b);
    case Kind::kTuple:
    case Kind::kUdt:
      return CompareTuples(type, a, b);
    case Kind::kVector:
      return CompareVectors(type, a, b);
    case Kind::kAscii:
    case Kind::kText:
    case Kind::kBlob:
    case Kind::kInet:  // byte order: an IPv6 address starting 00.. sorts before 1.2.3.4
    case Kind::kDate:  // stored unsigned with the epoch at 2^31, so byte order is date order
    case Kind::kTime:
    case Kind::kDuration:
    case Kind::kCustom:
      return CompareBytes(a, b);
  }
  return CompareBytes(a, b);
}

}  // namespace sibyl::types
