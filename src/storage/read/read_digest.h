#pragma once
// The digest of a ReadResult: what a replica answers a digest read with
// instead of the data (Cassandra's ReadResponse.createDigestResponse). It is
// MD5, as Cassandra's, over a canonical, length-prefixed form of every
// partition key, static row, row (clustering and marker) and cell (column,
// path, value, timestamp, TTL, local expiration time): equal results give
// equal digests; any difference in a value, a timestamp, a TTL, an expiry,
// a marker or the set of rows gives another. A replica holding the same
// value at another timestamp mismatches, as in Cassandra, whose digest
// covers timestamps.
//
// Left out, because two replicas holding the same data may differ in them:
// `tombstones_scanned` (it depends on what compaction left) and `next`
// (the same command over the same rows gives the same position).
//
// The form is fixed, independent of read_command_codec.h: nodes of
// different versions must agree on the digests of equal data. Changing it
// needs a new digest version negotiated between nodes.
//
// Thread-safety: a pure function.

#include "common/bytes.h"
#include "storage/data/read_command.h"

namespace sibyl::storage {

inline constexpr size_t kReadDigestSize = 16;

// kReadDigestSize bytes. Throws std::runtime_error if OpenSSL cannot digest.
[[nodiscard]] Bytes ReadDigest(const ReadResult& result);

}  // namespace sibyl::storage
