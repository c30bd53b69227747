#pragma once
// A clustering range (a slice or a range tombstone's bounds) turned into a
// half-open interval of encoded clusterings [lo, hi): a row is in the range
// exactly when its encoded clustering (key_codec.h) is in the interval. This
// works because encoded bounds are prefixes of the encoded keys they bound:
// an inclusive end covers every key starting with it (hi is the prefix's
// successor), an exclusive start skips them (lo is the successor).

#include <optional>

#include "common/bytes.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

struct ClusteringRange {
  Bytes lo;                 // inclusive
  std::optional<Bytes> hi;  // exclusive; nullopt: to the end of the partition
  bool empty = false;       // no clustering can be in it

  bool Contains(BytesView encoded_clustering) const {
    if (empty || encoded_clustering < BytesView(lo)) return false;
    return !hi || encoded_clustering < BytesView(*hi);
  }
  // Whether every encoded clustering in `other` is in this one.
  bool Covers(const ClusteringRange& other) const {
    if (other.empty) return true;
    if (empty || BytesView(other.lo) < BytesView(lo)) return false;
    return !hi || (other.hi && BytesView(*other.hi) <= BytesView(*hi));
  }
};

// A range tombstone as a reader applies it.
struct RangeDeletion {
  ClusteringRange range;
  DeletionTime deletion;
};

// Throws std::invalid_argument for bounds with more values than columns.
ClusteringRange EncodeClusteringRange(const TableLayout& table, const ClusteringBound& start,
                                      const ClusteringBound& end);

}  // namespace sibyl::storage
