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
#include "cluster/paxos/ballot.h"
#include "cluster/paxos/paxos_acceptor.h"
#include "cluster/paxos/paxos_coordinator.h"
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
  // reads go to the replicas `services` designate, and lightweight
  // transactions run Paxos with ballots from `ballots`; registers the Paxos
  // verbs' handlers. REQUIRES: called once, before any request and before
  // services.messaging->Start(); `services` and `ballots` outlive the
  // coordinator.
  void JoinCluster(const ClusterServices& services, paxos::BallotGenerator& ballots);
  bool in_cluster() const { return writes_ != nullptr; }
  // The cluster paths, for their asynchronous use. REQUIRES: in_cluster().
  WriteCoordinator& writes() { return *writes_; }
  ReadCoordinator& reads() { return *reads_; }
  paxos::PaxosCoordinator& paxos() { return *paxos_; }
  // Null on a single node (no Paxos there).
  const paxos::PaxosMetrics* paxos_metrics() const { return paxos_ ? &paxos_->metrics() : nullptr; }

  // Applies the mutations at `options.consistency`: all of them atomically
  // for a logged batch (WriteType::kBatch), else each partition's on its own
  // (a single node applies any batch as one write).
  void Mutate(const std::vector<storage::Mutation>& mutations, const WriteOptions& options);
  // SERIAL and LOCAL_SERIAL read one partition through Paxos on a cluster
  // (more: InvalidRequest "SERIAL/LOCAL_SERIAL consistency may only be
  // requested for one partition at a time").
  [[nodiscard]] storage::ReadResult Read(const storage::ReadCommand& command,
                                         uint16_t consistency = kConsistencyOne) const;
  // On a cluster: on every node (WriteCoordinator::Truncate's errors).
  void Truncate(const types::Uuid& table_id);

  // A lightweight transaction's read-check-write on one partition: runs
  // `reads` (each of that partition), hands their results and the write
  // timestamp to `decide`, and writes the mutations it returns (all on that
  // partition; none: nothing is written, e.g. a condition did not hold).
  // Returns what the reads returned to the decision that counted. Every
  // lightweight transaction on the partition is linearizable:
  //   - on one node, under that partition's LWT lock (partition_locks.h),
  //     reading the local engine and writing once, atomically;
  //   - on a cluster, by Paxos among the partition's replicas at
  //     options.serial_consistency, the decision's writes committed at
  //     options.commit_consistency (paxos/paxos_coordinator.h, which lists
  //     the errors).
  // Plain writes (Mutate) take no part, as they skip Paxos in Cassandra.
  // `decide` must only compute (it may call Read); the timestamp it gets is
  // above every earlier transaction's on the partition. It may run more
  // than once on a cluster (a lost round is retried); if it throws,
  // nothing is written and the exception propagates.
  // REQUIRES: `reads` is not empty and names one partition, of one table.
  using CasDecision = std::function<std::vector<storage::Mutation>(
      const std::vector<storage::ReadResult>& reads, int64_t timestamp)>;
  struct CasOptions {
    uint16_t serial_consistency = kConsistencySerial;
    uint16_t commit_consistency = 0x0004;  // QUORUM
  };
  [[nodiscard]] std::vector<storage::ReadResult> ReadThenMutate(
      const std::vector<storage::ReadCommand>& reads, const CasDecision& decide,
      const CasOptions& options);

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
  std::unique_ptr<paxos::PaxosAcceptor> acceptor_;  // set by JoinCluster
  std::unique_ptr<paxos::PaxosCoordinator> paxos_;
};

}  // namespace sibyl::cluster
