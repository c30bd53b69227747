#include "dht/token.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "common/check.h"

namespace sibyl::dht {
namespace {

uint64_t RotateLeft(uint64_t v, int n) { return (v << n) | (v >> (64 - n)); }

uint64_t FinalMix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

uint64_t LoadLittleEndian64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

// A tail byte as Cassandra reads it: `(long) key.get(i)`, i.e. sign-extended.
// Reference MurmurHash3 uses the unsigned byte; the two differ for bytes
// >= 0x80, and Cassandra's variant is what every token on disk was made with.
uint64_t TailByte(const unsigned char* p, int i) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<signed char>(p[i])));
}

// The first half of Cassandra's MurmurHash.hash3_x64_128(key, 0, len, seed 0).
uint64_t Murmur3High64(const unsigned char* data, size_t length) {
  constexpr uint64_t c1 = 0x87c37b91114253d5ULL;
  constexpr uint64_t c2 = 0x4cf5ad432745937fULL;
  uint64_t h1 = 0;
  uint64_t h2 = 0;
  const size_t blocks = length / 16;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = LoadLittleEndian64(data + i * 16);
    uint64_t k2 = LoadLittleEndian64(data + i * 16 + 8);
    k1 *= c1;
    k1 = RotateLeft(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = RotateLeft(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = RotateLeft(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = RotateLeft(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const unsigned char* tail = data + blocks * 16;
  const size_t rest = length & 15;
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  // Bytes 8..14 of the tail feed k2, bytes 0..7 feed k1 (the fall-through
  // switch of the reference code, written as loops).
  for (size_t i = rest; i > 8; --i) k2 ^= TailByte(tail, static_cast<int>(i - 1)) << (8 * (i - 9));
  if (rest > 8) {
    k2 *= c2;
    k2 = RotateLeft(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  for (size_t i = std::min<size_t>(rest, 8); i > 0; --i) {
    k1 ^= TailByte(tail, static_cast<int>(i - 1)) << (8 * (i - 1));
  }
  if (rest > 0) {
    k1 *= c1;
    k1 = RotateLeft(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= length;
  h2 ^= length;
  h1 += h2;
  h2 += h1;
  h1 = FinalMix(h1);
  h2 = FinalMix(h2);
  h1 += h2;
  return h1;
}

}  // namespace

Token Murmur3Token(BytesView routing_key) {
  if (routing_key.empty()) return kMinimumToken;
  const auto hash = static_cast<int64_t>(Murmur3High64(
      reinterpret_cast<const unsigned char*>(routing_key.data()), routing_key.size()));
  // Long.MIN_VALUE is reserved for the ring's minimum token.
  return hash == INT64_MIN ? INT64_MAX : hash;
}

Bytes CompositeRoutingKey(const std::vector<BytesView>& components) {
  size_t size = 0;
  for (const auto& component : components) size += component.size() + 3;
  Bytes key;
  key.reserve(size);
  for (const auto& component : components) {
    SIBYL_CHECK(component.size() <= 0xFFFF);
    AppendBE16(key, static_cast<uint16_t>(component.size()));
    key.append(component);
    key.push_back('\0');
  }
  return key;
}

std::vector<BytesView> SplitCompositeRoutingKey(BytesView key, size_t count) {
  std::vector<BytesView> components(count);
  size_t at = 0;
  for (size_t i = 0; i < count && at + 2 <= key.size(); ++i) {
    const size_t length = (static_cast<size_t>(static_cast<uint8_t>(key[at])) << 8) |
                          static_cast<uint8_t>(key[at + 1]);
    at += 2;
    if (at + length > key.size()) break;
    components[i] = key.substr(at, length);
    at += length + 1;  // the end-of-component byte
  }
  return components;
}

std::vector<Token> RandomTokens(int count, std::mt19937_64& rng) {
  SIBYL_CHECK(count >= 0);
  std::set<Token> tokens;
  while (static_cast<int>(tokens.size()) < count) {
    const auto token = static_cast<Token>(rng());
    if (token != kMinimumToken) tokens.insert(token);
  }
  return {tokens.begin(), tokens.end()};
}

}  // namespace sibyl::dht
