#pragma once
// Tokens of the Murmur3Partitioner, bit-exact with Cassandra's: the first 64
// bits of MurmurHash3_x64_128 (seed 0) of the partition key's routing key,
// with Cassandra's quirk that tail bytes are sign-extended, and
// Long.MIN_VALUE mapped to Long.MAX_VALUE (MIN_VALUE is the ring's minimum
// token, never a key's token).

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"

namespace sibyl::dht {

using Token = int64_t;
constexpr Token kMinimumToken = INT64_MIN;

// Token of a routing key; the empty key maps to kMinimumToken.
Token Murmur3Token(BytesView routing_key);

// The routing key of a composite partition key: for each component
// [uint16 big-endian length][bytes][0x00]. A one-column key's routing key is
// the serialized value itself.
Bytes CompositeRoutingKey(const std::vector<BytesView>& components);
// The `count` components of a composite routing key, viewing `key`. A
// malformed key (never built by CompositeRoutingKey) gives empty components
// for what cannot be read.
std::vector<BytesView> SplitCompositeRoutingKey(BytesView key, size_t count);

// `count` distinct random tokens, sorted, none equal to kMinimumToken.
std::vector<Token> RandomTokens(int count, std::mt19937_64& rng);

}  // namespace sibyl::dht
