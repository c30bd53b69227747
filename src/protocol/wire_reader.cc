#include "protocol/wire_reader.h"

#include <string>

#include "common/hex.h"
#include "types/utf8.h"

namespace sibyl::protocol {

void WireReader::Truncated(std::string_view what) const {
  ThrowProtocol("Not enough bytes to read " + std::string(what));
}

BytesView WireReader::Take(size_t n, std::string_view what) {
  if (n > remaining()) Truncated(what);
  BytesView v = body_.substr(pos_, n);
  pos_ += n;
  return v;
}

uint8_t WireReader::ReadByte(std::string_view what) {
  return static_cast<uint8_t>(Take(1, what)[0]);
}

uint16_t WireReader::ReadShort(std::string_view what) { return LoadBE16(Take(2, what).data()); }

int32_t WireReader::ReadInt(std::string_view what) {
  return static_cast<int32_t>(LoadBE32(Take(4, what).data()));
}

int64_t WireReader::ReadLong(std::string_view what) {
  return static_cast<int64_t>(LoadBE64(Take(8, what).data()));
}

// The messages are Cassandra's (CBUtil).
namespace {

// CBUtil.readString's check: Java's strict decoder, and its message, which
// quotes the bytes from the first malformed sequence to the end.
std::string_view RequireUtf8(std::string_view text) {
  if (const auto malformed = types::FindMalformedUtf8(text)) {
    ThrowProtocol("Cannot decode string as UTF8: '" + ToHex(text.substr(malformed->offset)) +
                  "'; java.nio.charset.MalformedInputException: Input length = " +
                  std::to_string(malformed->length));
  }
  return text;
}

}  // namespace

std::string_view WireReader::ReadString() {
  constexpr std::string_view kWhat = "an UTF8 serialized string preceded by its 2 bytes length";
  const uint16_t n = ReadShort(kWhat);
  return RequireUtf8(Take(n, kWhat));
}

std::string_view WireReader::ReadLongString() {
  constexpr std::string_view kWhat = "an UTF8 serialized string preceded by its 4 bytes length";
  const int32_t n = ReadInt(kWhat);
  if (n < 0) Truncated(kWhat);  // as CBUtil: the bounds check fails
  return RequireUtf8(Take(static_cast<size_t>(n), kWhat));
}

BytesView WireReader::ReadShortBytes() {
  constexpr std::string_view kWhat = "a byte array preceded by its 2 bytes length";
  const uint16_t n = ReadShort(kWhat);
  return Take(n, kWhat);
}

std::optional<BytesView> WireReader::ReadBytes(std::string_view what) {
  const int32_t n = ReadInt(what);
  if (n < 0) return std::nullopt;
  return Take(static_cast<size_t>(n), what);
}

Value WireReader::ReadValue(int version) {
  constexpr std::string_view kWhat = "a value preceded by its 4 bytes length";
  const int32_t n = ReadInt(kWhat);
  if (n >= 0) return Value::Of(Take(static_cast<size_t>(n), kWhat));
  if (version < 4 || n == -1) return Value::Null();
  if (n == -2) return Value::Unset();
  ThrowProtocol("Invalid ByteBuf length " + std::to_string(n));
}

uint16_t WireReader::ReadConsistency() {
  const uint16_t code = ReadShort("a consistency level");
  if (code > 0x000B) {  // NODE_LOCAL (11) is the last code Cassandra 4.1 knows
    ThrowProtocol("Unknown code " + std::to_string(code) + " for a consistency level");
  }
  return code;
}

}  // namespace sibyl::protocol
