#include "storage/stats/estimated_histogram_offsets.h"

#include <array>
#include <cmath>

namespace sibyl::storage {

uint64_t EstimatedHistogramOffset(size_t i) {
  static const auto offsets = [] {
    std::array<uint64_t, kEstimatedHistogramOffsets> o{};
    uint64_t last = 1;
    o[0] = last;
    for (size_t n = 1; n < o.size(); ++n) {
      uint64_t next = static_cast<uint64_t>(std::llround(static_cast<double>(last) * 1.2));
      if (next == last) ++next;
      o[n] = last = next;
    }
    return o;
  }();
  return offsets[i];
}

}  // namespace sibyl::storage
