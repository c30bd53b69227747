#include "cluster/read/ring_ranges.h"

#include <algorithm>

namespace sibyl::cluster {

std::vector<RingPiece> SplitAlongRing(const locator::TokenRing& ring,
                                      const dht::TokenRange& range) {
  std::vector<RingPiece> pieces;
  for (size_t i = 0; i < ring.size(); ++i) {
    for (const dht::TokenRange& piece : ring.RangeAt(i).Intersection(range)) {
      pieces.push_back({piece, i});
    }
  }
  // No piece truly wraps, so a piece's left end orders it: (kMinimumToken, t]
  // starts the ring and (t, kMinimumToken] ends it.
  std::sort(pieces.begin(), pieces.end(),
            [](const RingPiece& a, const RingPiece& b) { return a.range.left() < b.range.left(); });
  return pieces;
}

}  // namespace sibyl::cluster
