#pragma once
// The write path of a coordinator in a cluster (Cassandra's
// StorageProxy.mutate / mutateAtomically / AbstractWriteResponseHandler):
// for each mutation, the replicas of its partition from the view; Unavailable
// before anything is sent when too few are alive for the consistency level;
// the mutation sent to every live replica (applied directly when the
// replica is this node); a callback once enough acknowledged, or a
// WriteTimeout (received, block_for, write type) after write_request_timeout;
// hints for replicas that are down or did not answer. A logged batch over
// several partitions is first stored on up to two other nodes
// (BATCH_STORE, batchlog/), then written at the consistency level with
// write type BATCH, then removed (BATCH_REMOVE) once every replica applied
// it; if the coordinator dies in between, a batchlog node replays it.
// A counter update goes to one leader replica per partition (this node
// when it is one, else COUNTER_MUTATION to a live replica, preferably of
// this datacenter), which turns its deltas into its own shards under a
// per-partition lock (counter_leader.h) and writes those to every replica
// at the level, as any write: a shard counts once however often it
// arrives, so counter writes are hinted, retried and read-repaired.
//
// The replica side (MUTATION, HINT, BATCH_STORE, BATCH_REMOVE, TRUNCATE
// handlers) is registered by RegisterReplicaHandlers; the constructor
// registers this coordinator's COUNTER_MUTATION handler.
//
// Thread-safety: Mutate may be called from any thread; callbacks run on
// messaging or scheduler threads, or on the caller's before Mutate returns
// (Unavailable, or a level this node's own write satisfies), exactly once,
// and must not block. Replica handlers apply on the messaging thread that
// delivered the request (an engine Apply is short).

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "cluster/cluster_services.h"
#include "cluster/coordinator_types.h"
#include "cluster/write/write_response_handler.h"
#include "common/clock.h"
#include "storage/data/mutation.h"
#include "storage/engine.h"
#include "storage/partition_locks.h"

namespace sibyl::cluster {

class WriteCoordinator {
 public:
  // `error` is null on success, else the CqlError (Unavailable,
  // WriteTimeout, ...) the client gets.
  using Callback = std::function<void(std::exception_ptr error)>;

  // All must outlive the coordinator. Replies and timers of its requests
  // point at it: destroy it only once messaging was stopped and the
  // scheduler runs no more of its tasks.
  // REQUIRES: before services.messaging->Start() (it registers a handler).
  WriteCoordinator(const ClusterServices& services, storage::Engine& engine, Clock& clock);

  void Mutate(std::vector<storage::Mutation> mutations, const WriteOptions& options, Callback done);

  // TRUNCATE on every member of the cluster (Cassandra's truncateBlocking):
  // every node must be alive, and answer within the truncate timeout.
  // Errors are CqlError(kTruncateError) "Error during truncate: " followed by
  // "Cannot achieve consistency level ALL", "Truncate timed out - received
  // only N responses" or "Truncate failed on replica /ip:port".
  void Truncate(const types::Uuid& table_id, Callback done);

  // This node's part of a Paxos commit: commits, then reports whether it did.
  using LocalCommit = std::function<void(std::function<void(bool ok)> committed)>;
  // Commits a Paxos decision (Cassandra's commitPaxos): PAXOS_COMMIT with
  // `decision` (paxos_messages.h) to every live replica of `update`'s
  // partition, `local` for this node when it is one, `update` hinted to
  // the dead replicas and the silent ones when `allow_hints`; counted at
  // `consistency` as a SIMPLE write (Unavailable and WriteTimeout as
  // Mutate's). ANY sends and is done at once, without waiting.
  void CommitPaxos(const storage::Mutation& update, Bytes decision, uint16_t consistency,
                   bool allow_hints, LocalCommit local, Callback done);

  // The replica side of writes, for this node's messaging service.
  // REQUIRES: before messaging.Start().
  static void RegisterReplicaHandlers(messaging::MessagingService& messaging,
                                      storage::Engine& engine);

 private:
  struct PartitionWrite;

  // The replicas of the mutation's partition, which of them are alive, and
  // how acknowledgements are counted. Throws Unavailable.
  PartitionWrite Plan(const ClusterView& view, const storage::Mutation& mutation,
                      const WriteOptions& options) const;
  // Sends the write to the plan's live replicas, applies it here when this
  // node is one, and hints the dead ones. `on_replica_ack` (may be empty)
  // runs once per replica that applied it.
  void Execute(const ClusterView& view, const PartitionWrite& plan,
               const storage::Mutation& mutation, WriteResponseHandler::Done done,
               std::function<void()> on_replica_ack = {});
  // Writes every partition, each at the consistency level; `on_replica_ack`
  // as for Execute.
  void ExecuteAll(const ClusterView& view, const std::vector<PartitionWrite>& plans,
                  const std::vector<storage::Mutation>& mutations, Callback done,
                  std::function<void()> on_replica_ack = {});
  // A logged batch: batchlog, mutations, removal.
  void MutateAtomically(ClusterViewPtr view, std::vector<PartitionWrite> plans,
                        std::vector<storage::Mutation> mutations, const WriteOptions& options,
                        Callback done);
  // Stores the batch on `endpoints`; `done` once they all did, or with the
  // BATCH_LOG WriteTimeout.
  void StoreBatch(const ClusterView& view, const std::vector<types::Uuid>& endpoints,
                  const StoredBatch& batch, WriteResponseHandler::Done done);
  void RemoveBatch(const ClusterView& view, const std::vector<types::Uuid>& endpoints,
                   const types::Uuid& id);
  // Counter updates: each partition's deltas to its leader.
  void MutateCounters(const ClusterView& view, const std::vector<PartitionWrite>& plans,
                      const std::vector<storage::Mutation>& mutations, const WriteOptions& options,
                      Callback done);
  // The replica to lead the update; nullopt when none is alive.
  static std::optional<types::Uuid> CounterLeader(const ClusterView& view,
                                                  const PartitionWrite& plan);
  // This node as the leader: deltas to shards, written at the level.
  void LeadCounterUpdate(const storage::Mutation& deltas, const WriteOptions& options,
                         WriteResponseHandler::Done done);
  void ForwardCounterUpdate(const ClusterView& view, const types::Uuid& leader,
                            const storage::Mutation& deltas, const WriteOptions& options,
                            WriteResponseHandler::Done done);
  void OnCounterMutation(const messaging::Message& message, messaging::Responder responder);
  // Appends a hint for `target` if hinted handoff is on; true if it did.
  bool Hint(const types::Uuid& target, BytesView mutation);
  messaging::Duration TimeoutOf(WriteType type) const;

  ClusterServices services_;
  storage::Engine& engine_;
  Clock& clock_;
  // Serializes the read-and-write of counter shards per partition.
  storage::PartitionLocks counter_locks_;
};

}  // namespace sibyl::cluster
