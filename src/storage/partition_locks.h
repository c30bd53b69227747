#pragma once
// Striped mutexes that serialize read-modify-writes per partition:
//  * lightweight transactions (IF ...): the read-check-write of one LWT
//    excludes every other LWT on the same partition, which makes them
//    linearizable on one node, as Paxos makes them in Cassandra. Plain
//    writes never take the coordinator's LWT locks (in Cassandra they do not
//    go through Paxos either), so an LWT and a plain write race as there;
//  * counter leaders (cluster/write/counter_leader.h);
//  * writes to tables with indexes (index/indexing_engine.h), which read the
//    rows they change, and may change several partitions at once (LockAll).
//
// Two partitions may share a stripe; that only costs concurrency, never
// correctness: one holder locks one stripe (Lock), or several in ascending
// order (LockAll), so stripes cannot deadlock.

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "storage/data/mutation.h"
#include "types/uuid.h"

namespace sibyl::storage {

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

  // Locks the stripes of every (table, partition) given, each once, in
  // ascending order, until the returned locks go.
  // REQUIRES: the caller holds no other lock of this object.
  [[nodiscard]] std::vector<std::unique_lock<std::mutex>> LockAll(
      const std::vector<std::pair<const types::Uuid*, const storage::PartitionKey*>>& partitions);

  // Locks every stripe, in ascending order (TRUNCATE of an indexed table).
  // REQUIRES: the caller holds no other lock of this object.
  [[nodiscard]] std::vector<std::unique_lock<std::mutex>> LockEverything();

  // Which stripe (table, partition) maps to (exposed for tests).
  [[nodiscard]] size_t StripeOf(const types::Uuid& table_id,
                                const storage::PartitionKey& partition) const;

 private:
  size_t count_;
  std::unique_ptr<std::mutex[]> stripes_;
};

}  // namespace sibyl::storage
