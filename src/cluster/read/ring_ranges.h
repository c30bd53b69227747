#pragma once
// A scan's token range split along the ring (Cassandra's
// StorageProxy.RangeIterator over getRestrictedRanges): the pieces of the
// range that fall in each ring range, in token order, each with the index
// of the ring token closing it (ReplicaPlacement::ReplicasAt's argument).
//
// Pure function: safe from any thread.

#include <cstddef>
#include <vector>

#include "dht/token_range.h"
#include "locator/token_ring.h"

namespace sibyl::cluster {

struct RingPiece {
  dht::TokenRange range;  // never truly wraps
  size_t ring_index;
};

// Empty for an empty ring.
[[nodiscard]] std::vector<RingPiece> SplitAlongRing(const locator::TokenRing& ring,
                                                    const dht::TokenRange& range);

}  // namespace sibyl::cluster
