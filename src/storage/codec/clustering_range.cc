#include "storage/codec/clustering_range.h"

#include "storage/codec/key_codec.h"

namespace sibyl::storage {

ClusteringRange EncodeClusteringRange(const TableLayout& table, const ClusteringBound& start,
                                      const ClusteringBound& end) {
  ClusteringRange range;
  if (!start.prefix.empty()) {
    AppendClustering(table, start.prefix, range.lo);
    if (!start.inclusive) {
      range.lo = PrefixSuccessor(range.lo);
      if (range.lo.empty()) range.empty = true;
    }
  }
  if (!end.prefix.empty()) {
    Bytes encoded;
    AppendClustering(table, end.prefix, encoded);
    if (end.inclusive) {
      encoded = PrefixSuccessor(encoded);
      if (!encoded.empty()) range.hi = std::move(encoded);
    } else {
      range.hi = std::move(encoded);
    }
  }
  if (range.hi && BytesView(*range.hi) <= BytesView(range.lo)) range.empty = true;
  return range;
}

}  // namespace sibyl::storage
