#include "types/uuid.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstring>
#include <stdexcept>

#include "common/check.h"
#include "common/hex.h"

namespace sibyl::types {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Sets the version nibble and the RFC 4122 variant bits (10xx).
void StampVersion(Uuid& uuid, int version) {
  uuid.bytes[6] = static_cast<uint8_t>((uuid.bytes[6] & 0x0f) | (version << 4));
  uuid.bytes[8] = static_cast<uint8_t>((uuid.bytes[8] & 0x3f) | 0x80);
}

}  // namespace

Uuid Uuid::Random() {
  Uuid uuid;
  // OpenSSL's CSPRNG: host ids and random ids must not collide across nodes,
  // which a per-process PRNG seeded from the clock cannot promise.
  if (RAND_bytes(uuid.bytes.data(), static_cast<int>(uuid.bytes.size())) != 1) {
    throw std::runtime_error("Cannot generate a random UUID: the system random generator failed");
  }
  StampVersion(uuid, 4);
  return uuid;
}

Uuid Uuid::NameBased(BytesView name) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_size = 0;
  if (EVP_Digest(name.data(), name.size(), digest, &digest_size, EVP_md5(), nullptr) != 1 ||
      digest_size != 16) {
    throw std::runtime_error("Cannot compute a name-based UUID: MD5 is unavailable");
  }
  Uuid uuid;
  std::memcpy(uuid.bytes.data(), digest, 16);
  StampVersion(uuid, 3);
  return uuid;
}

std::optional<Uuid> Uuid::Parse(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  Uuid uuid;
  size_t out = 0;
  for (size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    const int high = HexValue(text[i]);
    const int low = HexValue(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    uuid.bytes[out++] = static_cast<uint8_t>(high << 4 | low);
    i += 2;
  }
  return uuid;
}

Uuid Uuid::FromBytes(BytesView b) {
  SIBYL_CHECK(b.size() == 16);
  Uuid uuid;
  std::memcpy(uuid.bytes.data(), b.data(), 16);
  return uuid;
}

Uuid Uuid::TimeBased(int64_t timestamp, uint64_t clock_seq_and_node) {
  const auto ts = static_cast<uint64_t>(timestamp);
  Uuid uuid;
  // time_low (32 bits), time_mid (16), time_hi (12) after the version nibble.
  const uint64_t msb = (ts << 32) | ((ts >> 16) & 0xFFFF0000ULL) | ((ts >> 48) & 0x0FFFULL);
  for (int i = 0; i < 8; ++i) {
    uuid.bytes[i] = static_cast<uint8_t>(msb >> (56 - 8 * i));
    uuid.bytes[8 + i] = static_cast<uint8_t>(clock_seq_and_node >> (56 - 8 * i));
  }
  StampVersion(uuid, 1);
  return uuid;
}

int64_t Uuid::Timestamp() const {
  SIBYL_CHECK(version() == 1);
  const uint64_t time_low =
      uint64_t{bytes[0]} << 24 | uint64_t{bytes[1]} << 16 | uint64_t{bytes[2]} << 8 | bytes[3];
  const uint64_t time_mid = uint64_t{bytes[4]} << 8 | bytes[5];
  const uint64_t time_hi = uint64_t{bytes[6] & 0x0fu} << 8 | bytes[7];
  return static_cast<int64_t>(time_hi << 48 | time_mid << 32 | time_low);
}

int64_t Uuid::UnixMillis() const {
  // Cassandra: timestamp / 10000 + START_EPOCH, where START_EPOCH is the
  // Gregorian reform day in Unix milliseconds.
  return Timestamp() / 10000 - kUnixEpochIn100ns / 10000;
}

std::string Uuid::ToString() const {
  std::string out;
  out.reserve(36);
  const BytesView all = View();
  // 8-4-4-4-12
  for (auto [begin, end] : {std::pair{0, 4}, {4, 6}, {6, 8}, {8, 10}, {10, 16}}) {
    if (begin != 0) out.push_back('-');
    AppendHex(out, all.substr(begin, end - begin));
  }
  return out;
}

}  // namespace sibyl::types
