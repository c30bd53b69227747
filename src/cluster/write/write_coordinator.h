#pragma once
// The write path of a coordinator in a cluster (Cassandra's
// StorageProxy.mutate / mutateAtomically / AbstractWriteResponseHandler):
// for each mutation, the replicas of its partition from the view; Unavailable
// before anything is sent when too few are alive for the consistency level;
// the mutation sent to every live replica (applied directly when the
// replica is this node); a callback once enough acknowledged, or a
// WriteTimeout (received, block_for, write type) after write_request_timeout;
// hints for replicas that are down or did not answer. Logged batches go
// through a batch log on other nodes; counters through a replica that
// applies the increment and replicates the result.
//
// The replica side (MUTATION, HINT, BATCH_STORE, BATCH_REMOVE,
// COUNTER_MUTATION, TRUNCATE handlers) is registered by
// RegisterReplicaHandlers.
//
// Thread-safety: Mutate may be called from any thread; callbacks run on
// messaging or scheduler threads and must not block.

#include <exception>
#include <functional>
#include <vector>

#include "cluster/cluster_services.h"
#include "cluster/coordinator_types.h"
#include "common/clock.h"
#include "storage/engine.h"
#include "storage/mutation.h"

namespace sibyl::cluster {

class WriteCoordinator {
 public:
  // `error` is null on success, else the CqlError (Unavailable,
  // WriteTimeout, ...) the client gets.
  using Callback = std::function<void(std::exception_ptr error)>;

  // All must outlive the coordinator.
  WriteCoordinator(const ClusterServices& services, storage::Engine& engine, Clock& clock);

  void Mutate(std::vector<storage::Mutation> mutations, const WriteOptions& options, Callback done);

  // The replica side of writes, for this node's messaging service.
  // REQUIRES: before messaging.Start().
  static void RegisterReplicaHandlers(messaging::MessagingService& messaging,
                                      storage::Engine& engine);

 private:
  ClusterServices services_;
  storage::Engine& engine_;
  Clock& clock_;
};

}  // namespace sibyl::cluster
