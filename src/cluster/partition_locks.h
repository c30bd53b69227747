#pragma once
// Striped mutexes that serialize lightweight transactions (IF ...) per
// partition: the read-check-write of one LWT excludes every other LWT on the
// same partition, which makes them linearizable on one node, as Paxos makes
// them in Cassandra. Plain writes never take these locks (in Cassandra they
// do not go through Paxos either), so an LWT and a plain write to the same
// cells race exactly as they do there.
//
// Two partitions may share a stripe; that only costs concurrency, never
// correctness, because a transaction locks exactly one partition.

#include <cstddef>
#include <memory>
#include <mutex>

#include "storage/mutation.h"
#include "types/uuid.h"

namespace sibyl::cluster {

class PartitionLocks {
 public:
  // Default: 4096 stripes, so unrelated partitions rarely wait on each other.
  explicit PartitionLocks(size_t stripes = 4096);
  PartitionLocks(const PartitionLocks&) = delete;
  PartitionLocks& operator=(const PartitionLocks&) = delete;

  // Locks the stripe of (table, partition) until the returned lock goes.
  // REQUIRES: the caller holds no other lock of this object (one partition
  // per transaction), so stripes cannot deadlock.
  [[nodiscard]] std::unique_lock<std::mutex> Lock(const types::Uuid& table_id,
                                                  const storage::PartitionKey& partition);

  // Which stripe (table, partition) maps to (exposed for tests).
  [[nodiscard]] size_t StripeOf(const types::Uuid& table_id,
                                const storage::PartitionKey& partition) const;

 private:
  size_t count_;
  std::unique_ptr<std::mutex[]> stripes_;
};

}  // namespace sibyl::cluster
