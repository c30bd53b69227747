// Byte-comparable encodings (byte_comparable.h). Each type's encoding is
// prefix-free and orders under memcmp exactly as types::Compare orders the
// serialized values, the empty value included (it sorts first everywhere).
// The per-type layouts, before a DESC column's bytes are complemented:
//
//   ascii, text, blob, inet, custom   bytes with 00 escaped as 00 FF, then 00 00
//   boolean                           00 empty | 01 false | 02 true
//   tinyint..bigint, timestamp        00 empty | 01 + big-endian with the sign bit flipped
//   date, time                        00 empty | 01 + the serialized bytes (already ordered)
//   float, double                     00 empty | 01 + IEEE bits, negatives complemented,
//                                     positives with the sign bit set; NaN canonical
//   uuid                              00 empty | 1+version, then the high long (its
//                                     timestamp fields in order for version 1), low long
//   timeuuid                          00 empty | 01 + reordered timestamp ^ sign bit,
//                                     low long with every byte's sign bit flipped
//   varint                            00 empty | signed magnitude (below)
//   decimal                           00 empty | 01 negative | 02 zero | 03 positive,
//                                     then (complemented when negative) the decimal
//                                     exponent as a signed magnitude and the digits
//                                     two per byte (1 + pair), ended by 00
//   list, set, map (frozen)           00 empty | (02 element [value])* 01
//   tuple, udt                        00 empty | one of 01 null / 02 value per field
//   vector                            00 empty | 01 + each element
//
// Signed magnitude (a number as sign, length and magnitude bytes with no
// leading zero): zero is 80; a positive of L bytes is 80+L (L <= 125) or FE
// + BE32(L), then the magnitude; a negative of L bytes is 7F-L (L <= 125) or
// 01 + ~BE32(L), then the complemented magnitude.

#include "storage/codec/byte_comparable.h"

#include <bit>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/error.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"
#include "types/vint.h"

namespace sibyl::storage {
namespace {

using types::CqlType;
using types::Kind;

constexpr uint8_t kEmpty = 0x00;
constexpr uint8_t kPresent = 0x01;
// Collections.
constexpr uint8_t kCollectionEnd = 0x01;
constexpr uint8_t kCollectionNext = 0x02;
// Tuple and UDT fields.
constexpr uint8_t kFieldNull = 0x01;
constexpr uint8_t kFieldValue = 0x02;
// Decimal signs.
constexpr uint8_t kDecimalNegative = 0x01;
constexpr uint8_t kDecimalZero = 0x02;
constexpr uint8_t kDecimalPositive = 0x03;
// Signed magnitude headers.
constexpr uint8_t kMagnitudeZero = 0x80;
constexpr uint8_t kMagnitudeLongPositive = 0xFE;
constexpr uint8_t kMagnitudeLongNegative = 0x01;
constexpr size_t kMaxShortMagnitude = 125;

// Decoding a corrupt decimal could otherwise ask for billions of zeros.
constexpr size_t kMaxDecimalDigits = 1 << 20;

[[noreturn]] void ThrowMalformed(const char* what) {
  throw std::runtime_error(std::string("Malformed byte-comparable value: ") + what);
}

[[noreturn]] void ThrowBadValue(const CqlType& type, const char* what) {
  throw std::invalid_argument("Cannot encode a " + type.ToCql() + " value as a key: " + what);
}

void ComplementFrom(Bytes& out, size_t start) {
  for (size_t i = start; i < out.size(); ++i) out[i] = static_cast<char>(~out[i]);
}

// Reads encoded bytes, complementing each one while `mask` is FF (a DESC
// column, or the tail of a negative decimal).
class EncodedBytesReader {
 public:
  EncodedBytesReader(std::string_view& in, uint8_t mask) : in_(in), mask_(mask) {}

  uint8_t Byte() {
    if (in_.empty()) ThrowMalformed("truncated");
    const auto b = static_cast<uint8_t>(static_cast<uint8_t>(in_[0]) ^ mask_);
    in_.remove_prefix(1);
    return b;
  }
  void Append(Bytes& out, size_t n) {
    if (in_.size() < n) ThrowMalformed("truncated");
    for (size_t i = 0; i < n; ++i)
      out.push_back(static_cast<char>(static_cast<uint8_t>(in_[i]) ^ mask_));
    in_.remove_prefix(n);
  }
  uint64_t BE64() {
    Bytes b;
    Append(b, 8);
    return LoadBE64(b.data());
  }
  uint32_t BE32() {
    Bytes b;
    Append(b, 4);
    return LoadBE32(b.data());
  }
  void FlipMask() { mask_ = static_cast<uint8_t>(~mask_); }

 private:
  std::string_view& in_;
  uint8_t mask_;
};

void Encode(const CqlType& type, BytesView v, Bytes& out);
Bytes Decode(const CqlType& type, EncodedBytesReader& in);

// ---- byte strings ----

void EncodeEscaped(BytesView v, Bytes& out) {
  for (char c : v) {
    out.push_back(c);
    if (c == '\0') out.push_back('\xFF');
  }
  out.push_back('\0');
  out.push_back('\0');
}

Bytes DecodeEscaped(EncodedBytesReader& in) {
  Bytes value;
  for (;;) {
    const uint8_t b = in.Byte();
    if (b != 0) {
      value.push_back(static_cast<char>(b));
      continue;
    }
    const uint8_t next = in.Byte();
    if (next == 0x00) return value;
    if (next != 0xFF) ThrowMalformed("bad escape in a byte string");
    value.push_back('\0');
  }
}

// ---- signed magnitudes (varint, decimal exponent) ----

void EncodeSignedMagnitude(bool negative, BytesView magnitude, Bytes& out) {
  const size_t length = magnitude.size();
  if (length == 0) {
    out.push_back(static_cast<char>(kMagnitudeZero));
    return;
  }
  if (length > std::numeric_limits<uint32_t>::max()) throw std::invalid_argument("number too long");
  if (length <= kMaxShortMagnitude) {
    out.push_back(static_cast<char>(negative ? 0x7F - length : kMagnitudeZero + length));
  } else if (negative) {
    out.push_back(static_cast<char>(kMagnitudeLongNegative));
    AppendBE32(out, ~static_cast<uint32_t>(length));
  } else {
    out.push_back(static_cast<char>(kMagnitudeLongPositive));
    AppendBE32(out, static_cast<uint32_t>(length));
  }
  const size_t magnitude_start = out.size();
  out.append(magnitude);
  if (negative) ComplementFrom(out, magnitude_start);
}

// The header byte has been read already. Returns the magnitude.
Bytes DecodeSignedMagnitude(uint8_t header, EncodedBytesReader& in, bool& negative) {
  size_t length = 0;
  negative = header < kMagnitudeZero;
  if (header == kMagnitudeZero) return {};
  if (header == kMagnitudeLongPositive) {
    length = in.BE32();
    if (length <= kMaxShortMagnitude) ThrowMalformed("non-canonical length");
  } else if (header == kMagnitudeLongNegative) {
    length = ~in.BE32();
    if (length <= kMaxShortMagnitude) ThrowMalformed("non-canonical length");
  } else if (header > kMagnitudeZero && header < kMagnitudeLongPositive) {
    length = header - kMagnitudeZero;
  } else if (header < kMagnitudeZero && header > kMagnitudeLongNegative) {
    length = 0x7F - header;
  } else {
    ThrowMalformed("bad number header");
  }
  Bytes magnitude;
  if (negative) in.FlipMask();
  in.Append(magnitude, length);
  if (negative) in.FlipMask();
  if (magnitude[0] == '\0') ThrowMalformed("leading zero in a magnitude");
  return magnitude;
}

// Splits a two's complement big-endian number into sign and minimal magnitude.
Bytes MagnitudeOf(BytesView twos, bool& negative) {
  negative = static_cast<uint8_t>(twos[0]) & 0x80;
  Bytes magnitude(twos);
  if (negative) {
    // -x = ~x + 1
    for (char& c : magnitude) c = static_cast<char>(~c);
    for (size_t i = magnitude.size(); i-- > 0;) {
      magnitude[i] = static_cast<char>(static_cast<uint8_t>(magnitude[i]) + 1);
      if (magnitude[i] != '\0') break;
    }
  }
  const size_t first = magnitude.find_first_not_of('\0');
  return first == Bytes::npos ? Bytes() : magnitude.substr(first);
}

// The minimal two's complement form of a signed magnitude.
Bytes TwosComplementOf(bool negative, BytesView magnitude) {
  if (magnitude.empty()) return Bytes(1, '\0');
  Bytes out;
  out.push_back('\0');
  out.append(magnitude);
  if (negative) {
    for (char& c : out) c = static_cast<char>(~c);
    for (size_t i = out.size(); i-- > 0;) {
      out[i] = static_cast<char>(static_cast<uint8_t>(out[i]) + 1);
      if (out[i] != '\0') break;
    }
  }
  // Drop bytes that only repeat the sign.
  size_t start = 0;
  while (out.size() - start > 1) {
    const auto first = static_cast<uint8_t>(out[start]);
    const auto next = static_cast<uint8_t>(out[start + 1]);
    if ((first == 0x00 && next < 0x80) || (first == 0xFF && next >= 0x80)) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

Bytes MagnitudeOfInt64(int64_t v) {
  const uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  Bytes out;
  AppendBE64(out, m);
  const size_t first = out.find_first_not_of('\0');
  return first == Bytes::npos ? Bytes() : out.substr(first);
}

// ---- decimal ----

using boost::multiprecision::cpp_int;

cpp_int CppIntOf(BytesView twos) {
  bool negative = false;
  const Bytes magnitude = MagnitudeOf(twos, negative);
  cpp_int value;
  if (!magnitude.empty()) {
    const auto* begin = reinterpret_cast<const uint8_t*>(magnitude.data());
    import_bits(value, begin, begin + magnitude.size(), 8, true);
  }
  return negative ? cpp_int(-value) : value;
}

void EncodeDecimal(const CqlType& type, BytesView v, Bytes& out) {
  if (v.size() < 4) ThrowBadValue(type, "a decimal needs a 4-byte scale");
  const int64_t scale = static_cast<int32_t>(LoadBE32(v.data()));
  // A scale with no unscaled bytes passes validation (as in Cassandra's
  // DecimalSerializer) and compares as zero (types::CompareDecimal): so it
  // encodes as zero.
  const cpp_int unscaled = v.size() > 4 ? CppIntOf(v.substr(4)) : cpp_int(0);
  if (unscaled.is_zero()) {
    out.push_back(static_cast<char>(kDecimalZero));
    return;
  }
  const bool negative = unscaled.sign() < 0;
  std::string digits = cpp_int(abs(unscaled)).str();
  // value = 0.<digits> * 10^exponent; equal numbers get equal digits once
  // trailing zeros are gone (1.50 == 1.5).
  const int64_t exponent = static_cast<int64_t>(digits.size()) - scale;
  digits.erase(digits.find_last_not_of('0') + 1);
  out.push_back(static_cast<char>(negative ? kDecimalNegative : kDecimalPositive));
  const size_t tail = out.size();
  const Bytes exponent_magnitude = MagnitudeOfInt64(exponent);
  EncodeSignedMagnitude(exponent < 0, exponent_magnitude, out);
  for (size_t i = 0; i < digits.size(); i += 2) {
    const int high = digits[i] - '0';
    const int low = i + 1 < digits.size() ? digits[i + 1] - '0' : 0;
    out.push_back(static_cast<char>(1 + high * 10 + low));
  }
  out.push_back('\0');
  if (negative) ComplementFrom(out, tail);
}

Bytes DecodeDecimal(uint8_t sign, EncodedBytesReader& in) {
  Bytes result;
  if (sign == kDecimalZero) {
    AppendBE32(result, 0);
    result.push_back('\0');
    return result;
  }
  if (sign != kDecimalNegative && sign != kDecimalPositive) ThrowMalformed("bad decimal sign");
  const bool negative = sign == kDecimalNegative;
  if (negative) in.FlipMask();
  bool exponent_negative = false;
  const Bytes exponent_magnitude = DecodeSignedMagnitude(in.Byte(), in, exponent_negative);
  if (exponent_magnitude.size() > 8) ThrowMalformed("decimal exponent too large");
  uint64_t exponent_abs = 0;
  for (char c : exponent_magnitude) exponent_abs = exponent_abs << 8 | static_cast<uint8_t>(c);
  if (exponent_abs > (uint64_t{1} << 62)) ThrowMalformed("decimal exponent too large");
  const int64_t exponent =
      exponent_negative ? -static_cast<int64_t>(exponent_abs) : static_cast<int64_t>(exponent_abs);
  std::string digits;
  for (;;) {
    const uint8_t b = in.Byte();
    if (b == 0) break;
    if (b > 100) ThrowMalformed("bad decimal digits");
    digits.push_back(static_cast<char>('0' + (b - 1) / 10));
    digits.push_back(static_cast<char>('0' + (b - 1) % 10));
    if (digits.size() > kMaxDecimalDigits) ThrowMalformed("decimal too long");
  }
  if (negative) in.FlipMask();
  if (!digits.empty() && digits.back() == '0') digits.pop_back();  // the pad of an odd count
  if (digits.empty() || digits[0] == '0' || digits.back() == '0')
    ThrowMalformed("non-canonical decimal digits");
  int64_t scale = static_cast<int64_t>(digits.size()) - exponent;
  if (scale > std::numeric_limits<int32_t>::max()) ThrowMalformed("decimal scale out of range");
  if (scale < std::numeric_limits<int32_t>::min()) {
    // Stripping zeros pushed the scale below an int: put some back.
    const int64_t zeros = std::numeric_limits<int32_t>::min() - scale;
    if (zeros > static_cast<int64_t>(kMaxDecimalDigits))
      ThrowMalformed("decimal scale out of range");
    digits.append(static_cast<size_t>(zeros), '0');
    scale = std::numeric_limits<int32_t>::min();
  }
  cpp_int magnitude(digits);
  Bytes magnitude_bytes;
  export_bits(magnitude, std::back_inserter(magnitude_bytes), 8, true);
  AppendBE32(result, static_cast<uint32_t>(static_cast<int32_t>(scale)));
  result.append(TwosComplementOf(negative, magnitude_bytes));
  return result;
}

// ---- uuids ----

// A version 1 UUID's high long with its timestamp fields in significance
// order (time_hi with the version on top, time_mid, time_low).
uint64_t ReorderTimestamp(uint64_t msb) {
  return (msb << 48) | ((msb << 16) & 0xFFFF00000000ULL) | (msb >> 32);
}
uint64_t RestoreTimestamp(uint64_t reordered) {
  return (reordered << 32) | ((reordered >> 16) & 0xFFFF0000ULL) | (reordered >> 48);
}
constexpr uint64_t kByteSigns = 0x8080808080808080ULL;

// ---- floating point ----

template <typename Bits>
Bits OrderedFloatBits(Bits bits) {
  constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
  return (bits & kSign) ? static_cast<Bits>(~bits) : static_cast<Bits>(bits | kSign);
}
template <typename Bits>
Bits RestoreFloatBits(Bits ordered) {
  constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
  return (ordered & kSign) ? static_cast<Bits>(ordered & ~kSign) : static_cast<Bits>(~ordered);
}

// ---- the type switch ----

void CheckWidth(const CqlType& type, BytesView v, size_t width) {
  if (v.size() != width) ThrowBadValue(type, "wrong width");
}

void EncodeCollection(const CqlType& type, BytesView v, Bytes& out) {
  const bool map = type.kind() == Kind::kMap;
  try {
    if (map) {
      for (const auto& [key, value] : types::DecodeMapEntries(v)) {
        out.push_back(static_cast<char>(kCollectionNext));
        Encode(*type.params()[0], key, out);
        Encode(*type.params()[1], value, out);
      }
    } else {
      for (BytesView element : types::DecodeListElements(v)) {
        out.push_back(static_cast<char>(kCollectionNext));
        Encode(*type.params()[0], element, out);
      }
    }
  } catch (const CqlError& e) {
    ThrowBadValue(type, e.what());
  }
  out.push_back(static_cast<char>(kCollectionEnd));
}

Bytes DecodeCollection(const CqlType& type, uint8_t first_marker, EncodedBytesReader& in) {
  const bool map = type.kind() == Kind::kMap;
  Bytes body;
  int32_t count = 0;
  for (;;) {
    const uint8_t marker = count == 0 ? first_marker : in.Byte();
    if (marker == kCollectionEnd) break;
    if (marker != kCollectionNext) ThrowMalformed("bad collection marker");
    for (int part = 0; part < (map ? 2 : 1); ++part) {
      const Bytes element = Decode(*type.params()[map ? part : 0], in);
      AppendBE32(body, static_cast<uint32_t>(element.size()));
      body.append(element);
    }
    if (count == std::numeric_limits<int32_t>::max()) ThrowMalformed("collection too long");
    ++count;
  }
  Bytes result;
  AppendBE32(result, static_cast<uint32_t>(count));
  result.append(body);
  return result;
}

void EncodeTuple(const CqlType& type, BytesView v, Bytes& out) {
  std::vector<std::optional<BytesView>> fields;
  try {
    fields = types::DecodeTupleComponents(v);
  } catch (const CqlError& e) {
    ThrowBadValue(type, e.what());
  }
  if (fields.size() > type.params().size()) ThrowBadValue(type, "more fields than the type has");
  // Missing trailing fields are nulls (what a newer type's reader sees).
  for (size_t i = 0; i < type.params().size(); ++i) {
    if (i >= fields.size() || !fields[i]) {
      out.push_back(static_cast<char>(kFieldNull));
    } else {
      out.push_back(static_cast<char>(kFieldValue));
      Encode(*type.params()[i], *fields[i], out);
    }
  }
}

Bytes DecodeTuple(const CqlType& type, uint8_t first_marker, EncodedBytesReader& in) {
  Bytes result;
  for (size_t i = 0; i < type.params().size(); ++i) {
    const uint8_t marker = i == 0 ? first_marker : in.Byte();
    if (marker == kFieldNull) {
      AppendBE32(result, 0xFFFFFFFFu);
    } else if (marker == kFieldValue) {
      const Bytes field = Decode(*type.params()[i], in);
      AppendBE32(result, static_cast<uint32_t>(field.size()));
      result.append(field);
    } else {
      ThrowMalformed("bad tuple field marker");
    }
  }
  return result;
}

void EncodeVector(const CqlType& type, BytesView v, Bytes& out) {
  const auto elements = types::SplitVector(type, v);
  if (elements.size() != static_cast<size_t>(type.vector_dimension())) {
    ThrowBadValue(type, "wrong number of vector elements");
  }
  size_t consumed = 0;
  for (BytesView element : elements)
    consumed = static_cast<size_t>(element.data() + element.size() - v.data());
  if (consumed != v.size()) ThrowBadValue(type, "trailing bytes after the vector elements");
  out.push_back(static_cast<char>(kPresent));
  for (BytesView element : elements) Encode(*type.params()[0], element, out);
}

Bytes DecodeVector(const CqlType& type, EncodedBytesReader& in) {
  const bool fixed = types::FixedValueLength(*type.params()[0]).has_value();
  Bytes result;
  for (int32_t i = 0; i < type.vector_dimension(); ++i) {
    const Bytes element = Decode(*type.params()[0], in);
    if (!fixed) types::AppendUnsignedVint(result, element.size());
    result.append(element);
  }
  return result;
}

// ---- one type's encoding of a value that is not empty ----

void EncodeComparableBoolean(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, 1);
  out.push_back(v[0] != 0 ? '\x02' : '\x01');
}

// tinyint, smallint, int, bigint, timestamp: big-endian two's complement,
// which orders under memcmp once the sign bit is flipped.
void EncodeComparableInteger(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, *types::FixedValueLength(type));
  out.push_back(static_cast<char>(kPresent));
  out.push_back(static_cast<char>(v[0] ^ 0x80));
  out.append(v.substr(1));
}

// date (unsigned days, 2^31 the epoch) and time (non-negative nanoseconds):
// their serialized bytes already order under memcmp.
void EncodeComparableDateOrTime(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, *types::FixedValueLength(type));
  out.push_back(static_cast<char>(kPresent));
  out.append(v);
}

void EncodeComparableFloat(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, 4);
  uint32_t bits = LoadBE32(v.data());
  if (std::isnan(std::bit_cast<float>(bits))) bits = 0x7FC00000u;
  out.push_back(static_cast<char>(kPresent));
  AppendBE32(out, OrderedFloatBits(bits));
}

void EncodeComparableDouble(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, 8);
  uint64_t bits = LoadBE64(v.data());
  if (std::isnan(std::bit_cast<double>(bits))) bits = 0x7FF8000000000000ULL;
  out.push_back(static_cast<char>(kPresent));
  AppendBE64(out, OrderedFloatBits(bits));
}

// uuids order by version first, then (version 1) by timestamp.
void EncodeComparableUuid(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, 16);
  const uint64_t msb = LoadBE64(v.data());
  const int version = static_cast<int>((msb >> 12) & 0xF);
  out.push_back(static_cast<char>(1 + version));
  AppendBE64(out, version == 1 ? ReorderTimestamp(msb) : msb);
  out.append(v.substr(8));
}

// timeuuids order by timestamp, then by the low long's bytes as signed.
void EncodeComparableTimeuuid(const CqlType& type, BytesView v, Bytes& out) {
  CheckWidth(type, v, 16);
  out.push_back(static_cast<char>(kPresent));
  AppendBE64(out, ReorderTimestamp(LoadBE64(v.data())) ^ (uint64_t{1} << 63));
  AppendBE64(out, LoadBE64(v.data() + 8) ^ kByteSigns);
}

void EncodeComparableVarint(BytesView v, Bytes& out) {
  bool negative = false;
  const Bytes magnitude = MagnitudeOf(v, negative);
  EncodeSignedMagnitude(negative, magnitude, out);
}

void Encode(const CqlType& type, BytesView v, Bytes& out) {
  switch (type.kind()) {
    case Kind::kAscii:
    case Kind::kText:
    case Kind::kBlob:
    case Kind::kInet:
    case Kind::kCustom:
    // Never a key column, but an element of a set or a map key may hold one
    // (set<tuple<int, duration>>, which Cassandra allows): byte order, as
    // Cassandra's DurationType and types::Compare order it.
    case Kind::kDuration:
      EncodeEscaped(v, out);
      return;
    case Kind::kCounter:
      ThrowBadValue(type, "the type cannot be part of a primary key");
    default:
      break;
  }
  if (v.empty()) {
    out.push_back(static_cast<char>(kEmpty));
    return;
  }
  switch (type.kind()) {
    case Kind::kBoolean:
      EncodeComparableBoolean(type, v, out);
      return;
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kTimestamp:
      EncodeComparableInteger(type, v, out);
      return;
    case Kind::kDate:
    case Kind::kTime:
      EncodeComparableDateOrTime(type, v, out);
      return;
    case Kind::kFloat:
      EncodeComparableFloat(type, v, out);
      return;
    case Kind::kDouble:
      EncodeComparableDouble(type, v, out);
      return;
    case Kind::kUuid:
      EncodeComparableUuid(type, v, out);
      return;
    case Kind::kTimeuuid:
      EncodeComparableTimeuuid(type, v, out);
      return;
    case Kind::kVarint:
      EncodeComparableVarint(v, out);
      return;
    case Kind::kDecimal:
      EncodeDecimal(type, v, out);
      return;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      EncodeCollection(type, v, out);
      return;
    case Kind::kTuple:
    case Kind::kUdt:
      EncodeTuple(type, v, out);
      return;
    case Kind::kVector:
      EncodeVector(type, v, out);
      return;
    default:
      ThrowBadValue(type, "unsupported type");
  }
}

Bytes Decode(const CqlType& type, EncodedBytesReader& in) {
  switch (type.kind()) {
    case Kind::kAscii:
    case Kind::kText:
    case Kind::kBlob:
    case Kind::kInet:
    case Kind::kCustom:
    case Kind::kDuration:
      return DecodeEscaped(in);
    default:
      break;
  }
  const uint8_t header = in.Byte();
  if (header == kEmpty) return {};
  Bytes result;
  switch (type.kind()) {
    case Kind::kBoolean:
      if (header > 2) ThrowMalformed("bad boolean");
      return Bytes(1, header == 2 ? '\x01' : '\x00');
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kTimestamp:
      if (header != kPresent) ThrowMalformed("bad header");
      in.Append(result, *types::FixedValueLength(type));
      result[0] = static_cast<char>(result[0] ^ 0x80);
      return result;
    case Kind::kDate:
    case Kind::kTime:
      if (header != kPresent) ThrowMalformed("bad header");
      in.Append(result, *types::FixedValueLength(type));
      return result;
    case Kind::kFloat:
      if (header != kPresent) ThrowMalformed("bad header");
      AppendBE32(result, RestoreFloatBits(in.BE32()));
      return result;
    case Kind::kDouble:
      if (header != kPresent) ThrowMalformed("bad header");
      AppendBE64(result, RestoreFloatBits(in.BE64()));
      return result;
    case Kind::kUuid: {
      if (header > 16) ThrowMalformed("bad uuid version");
      const int version = header - 1;
      const uint64_t high = in.BE64();
      const uint64_t msb = version == 1 ? RestoreTimestamp(high) : high;
      if (static_cast<int>((msb >> 12) & 0xF) != version) ThrowMalformed("uuid version mismatch");
      AppendBE64(result, msb);
      in.Append(result, 8);
      return result;
    }
    case Kind::kTimeuuid:
      if (header != kPresent) ThrowMalformed("bad header");
      AppendBE64(result, RestoreTimestamp(in.BE64() ^ (uint64_t{1} << 63)));
      AppendBE64(result, in.BE64() ^ kByteSigns);
      return result;
    case Kind::kVarint: {
      bool negative = false;
      const Bytes magnitude = DecodeSignedMagnitude(header, in, negative);
      return TwosComplementOf(negative, magnitude);
    }
    case Kind::kDecimal:
      return DecodeDecimal(header, in);
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return DecodeCollection(type, header, in);
    case Kind::kTuple:
    case Kind::kUdt:
      return DecodeTuple(type, header, in);
    case Kind::kVector:
      if (header != kPresent) ThrowMalformed("bad header");
      return DecodeVector(type, in);
    default:
      ThrowMalformed("unsupported type");
  }
}

}  // namespace

void AppendComparable(const types::CqlType& type, BytesView serialized, bool descending,
                      Bytes& out) {
  if ((type.is_collection() || type.kind() == Kind::kUdt) && !type.frozen()) {
    ThrowBadValue(type, "a non-frozen collection or user type cannot be part of a key");
  }
  const size_t start = out.size();
  Encode(type, serialized, out);
  if (descending) ComplementFrom(out, start);
}

Bytes ReadComparable(const types::CqlType& type, bool descending, std::string_view& in) {
  EncodedBytesReader reader(in, descending ? 0xFF : 0x00);
  return Decode(type, reader);
}

}  // namespace sibyl::storage
