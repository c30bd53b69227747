#include "cluster/streaming/token_slices.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "common/check.h"

namespace sibyl::cluster::streaming {

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// Tokens are offsets from kMin on an unsigned line of 2^64 positions.
uint64_t Offset(int64_t token) {
  return static_cast<uint64_t>(token) - static_cast<uint64_t>(kMin);
}
int64_t TokenAt(uint64_t offset) {
  return static_cast<int64_t>(offset + static_cast<uint64_t>(kMin));
}

}  // namespace

std::vector<storage::TokenRange> SliceTokenRange(const storage::TokenRange& range, int count) {
  SIBYL_CHECK(count >= 1, "a range is cut into one slice at least");
  // A range around the ring's end is cut there first: no slice wraps.
  if (range.end != kMin && range.start >= range.end) {
    std::vector<storage::TokenRange> out = SliceTokenRange({range.start, kMin}, count);
    for (const storage::TokenRange& slice : SliceTokenRange({kMin, range.end}, count)) {
      out.push_back(slice);
    }
    return out;
  }
  // Tokens in (start, end]; the minimum token as end is the ring's end,
  // offset 2^64 - 1.
  const uint64_t start = Offset(range.start);
  const uint64_t end = range.end == kMin ? ~uint64_t{0} : Offset(range.end);
  const uint64_t width = end - start;
  const uint64_t slices = std::min<uint64_t>(static_cast<uint64_t>(count), width);
  std::vector<storage::TokenRange> out;
  out.reserve(slices);
  uint64_t from = start;
  for (uint64_t i = 1; i <= slices; ++i) {
    // The i-th cut, width * i / slices without overflow.
    const uint64_t cut = (width / slices) * i + (width % slices) * i / slices;
    storage::TokenRange slice{TokenAt(from), i == slices ? range.end : TokenAt(start + cut)};
    out.push_back(slice);
    from = start + cut;
  }
  return out;
}

}  // namespace sibyl::cluster::streaming
