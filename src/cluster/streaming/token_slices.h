#pragma once
// A token range cut into consecutive slices of (nearly) equal token width:
// the unit a stream copies, acknowledges and resumes at. Partition keys hash
// uniformly over the ring (Murmur3), so equal widths hold about equal data,
// and a slice's data is read into memory whole.
//
// Pure function: safe from any thread.

#include <vector>

#include "storage/data/read_command.h"

namespace sibyl::cluster::streaming {

// `range` (start, end], as storage::TokenRange means it (the minimum token
// as start: from the ring's beginning; as end: to its end; start >= end
// otherwise wraps around the ring's end), as `count` slices in ring order
// whose union is `range`. REQUIRES: count >= 1. Fewer slices when the range
// holds fewer tokens than `count`.
[[nodiscard]] std::vector<storage::TokenRange> SliceTokenRange(const storage::TokenRange& range,
                                                               int count);

}  // namespace sibyl::cluster::streaming
