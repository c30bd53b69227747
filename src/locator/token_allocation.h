#pragma once
// The tokens of a node joining the ring (cassandra.yaml's num_tokens), chosen
// so that primary ownership stays balanced. A greedy scheme, simpler than
// Cassandra's ReplicationAwareTokenAllocator and blind to replication:
//
//   - on an empty ring, the first node's tokens are evenly spaced (2^64 /
//     num_tokens apart) from an offset drawn from the seed;
//   - otherwise each node should end with 1/(n+1) of the ring. Token by
//     token, the new node takes its remaining share divided by its remaining
//     tokens from the currently most loaded node, cutting the piece off the
//     front of that node's largest range: the new token t inside
//     (previous, T] gives the new node (previous, t] and leaves (t, T].
//
// With 16 tokens per node, nodes joining one at a time keep every node within
// 1.25x of its fair share of the ring (tested up to 6 nodes). Replication is
// not considered: effective ownership under SimpleStrategy RF 3 spreads
// wider (the test reports the measured bound).
//
// Deterministic: the same ring, count and seed give the same tokens. The seed
// also jitters each piece's size by under 2%, so that two nodes computing
// their tokens from one ring snapshot with different seeds do not collide.
// Never returns kMinimumToken or a token already in the ring; the result is
// sorted and distinct.

#include <cstdint>
#include <vector>

#include "dht/token.h"
#include "locator/token_ring.h"

namespace sibyl::locator {

// REQUIRES: 1 <= num_tokens <= 65536 (cassandra.yaml allows up to 1536).
std::vector<dht::Token> AllocateTokens(const TokenRing& ring, int num_tokens, uint64_t seed);

}  // namespace sibyl::locator
