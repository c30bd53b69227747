#pragma once
// The bucket bounds of Cassandra's EstimatedHistogram (newOffsets): 1, 2,
// 3, ... each the one before times 1.2, rounded, and at least one more. Two
// histograms on these bounds add up bucket by bucket, and a percentile read
// off them is within 20%: nodetool's tablehistograms reads its figures this
// way. The engine's latencies (table_latency.h) and the large-data ledger's
// partition measures (ledger/measure_histogram.h) both bucket on them.

#include <cstddef>
#include <cstdint>

namespace sibyl::storage {

// How many bounds EstimatedHistogramOffset knows: the last is ~7.6e11.
inline constexpr size_t kEstimatedHistogramOffsets = 150;

// The i-th bound. REQUIRES: i < kEstimatedHistogramOffsets.
uint64_t EstimatedHistogramOffset(size_t i);

}  // namespace sibyl::storage
