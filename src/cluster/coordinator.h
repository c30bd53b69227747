#pragma once
// The coordinator: every write and read of a stored table goes through it.
// On a single node (no JoinCluster) every replica is the local engine and
// requests are applied or read there directly, on the caller's thread. On a
// node of a cluster, writes and reads go to the replicas of their partitions
// at the requested consistency level (write/write_coordinator.h,
// read/read_coordinator.h); the blocking Mutate and Read wait for them,
// which is why a cluster node runs statements on worker threads
// (docs/dev/cluster.md).

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cluster/cluster_services.h"
#include "cluster/coordinator_types.h"
#include "cluster/membership/disk_usage_states.h"
#include "cluster/read/read_coordinator.h"
#include "cluster/write/write_coordinator.h"
#include "common/clock.h"
#include "storage/data/mutation.h"
#include "storage/data/read_command.h"
#include "storage/engine.h"
#include "storage/partition_locks.h"

namespace sibyl::cluster {

class Coordinator {
 public:
  // Both must outlive the coordinator.
  Coordinator(storage::Engine& engine, Clock& clock) : engine_(engine), clock_(clock) {}

  // Makes this the coordinator of a cluster member: from now on writes and
  // reads go to the replicas `services` designate. REQUIRES: called once,
  // before any request; `services` outlives the coordinator.
  void JoinCluster(const ClusterServices& services);
  bool in_cluster() const { return writes_ != nullptr; }
  // The cluster paths, for their asynchronous use. REQUIRES: in_cluster().
  WriteCoordinator& writes() { return *writes_; }
  ReadCoordinator& reads() { return *reads_; }

  // Applies the mutations at `options.consistency`: all of them atomically
  // for a logged batch (WriteType::kBatch), else each partition's on its own
  // (a single node applies any batch as one write).
  void Mutate(const std::vector<storage::Mutation>& mutations, const WriteOptions& options);
  [[nodiscard]] storage::ReadResult Read(const storage::ReadCommand& command,
                                         uint16_t consistency = kConsistencyOne) const;
  // On a cluster: on every node (WriteCoordinator::Truncate's errors).
  void Truncate(const types::Uuid& table_id);

  // A lightweight transaction's read-check-write on one partition: under
  // that partition's LWT lock (partition_locks.h), reads `command`, hands the
  // result to `decide`, and applies the mutations it returns (atomically;
  // none: nothing is written, e.g. a condition did not hold). Returns what
  // was read. Every LWT on the partition is thus linearizable; plain writes
  // (Mutate) do not take the lock, as they skip Paxos in Cassandra.
  // `decide` runs under the lock: it must only compute (it may call Read,
  // which takes no lock), and take its write timestamp there, so that the
  // timestamps of successive LWTs on a partition increase in their order.
  // If it throws, nothing is written and the exception propagates.
  // On a cluster this is right only where this node is the partition's one
  // replica; elsewhere it throws CqlError(kInvalid) (Paxos is not there yet).
  // REQUIRES: command names exactly one partition (command.partitions), and
  // every mutation returned is on that partition of command.table_id.
  using CasDecision =
      std::function<std::vector<storage::Mutation>(const storage::ReadResult& current)>;
  [[nodiscard]] storage::ReadResult ReadThenMutate(const storage::ReadCommand& command,
                                                   const CasDecision& decide);

  // The members' disk usage states (replica_disk_usage). REQUIRES: set
  // before any request, if at all; outlives the coordinator.
  void SetDiskUsageStates(DiskUsageStates* states) { disk_usage_states_ = states; }
  DiskUsageStates* disk_usage_states() const { return disk_usage_states_; }
  // Whether a write may have a STUFFED or FULL replica: one atomic load.
  bool AnyReplicaStuffedOrFull() const {
    return disk_usage_states_ != nullptr && disk_usage_states_->AnyStuffedOrFull();
  }
  // Calls `visit` with the disk usage state of each replica of partition
  // `token` of table `table_id` that is STUFFED or FULL: on a single node,
  // this node; on a cluster, each natural replica, up or down.
  void VisitStuffedOrFullReplicas(
      const types::Uuid& table_id, int64_t token,
      const std::function<void(guardrails::DiskUsageState)>& visit) const;

  storage::Engine& engine() { return engine_; }
  Clock& clock() { return clock_; }

 private:
  storage::Engine& engine_;
  Clock& clock_;
  storage::PartitionLocks lwt_locks_;
  DiskUsageStates* disk_usage_states_ = nullptr;
  const ClusterViewHolder* views_ = nullptr;  // set by JoinCluster
  std::unique_ptr<WriteCoordinator> writes_;  // set by JoinCluster
  std::unique_ptr<ReadCoordinator> reads_;
};

}  // namespace sibyl::cluster
