#pragma once
// The batchlog on the nodes that keep other coordinators' logged batches
// (Cassandra's BatchlogManager): BATCH_STORE writes a batch to the
// BatchStore before its coordinator sends the mutations, BATCH_REMOVE
// deletes it once they were all applied. A batch still here twice the
// write timeout after its creation lost its coordinator on the way: a
// round replays it — every mutation to its replicas at ANY, so dead
// replicas get hints — and deletes it once the replay succeeded.
//
//   BatchlogManager::RegisterReplicaHandlers(messaging, store);  // before Start
//   BatchlogManager manager(services, store, writes, clock, {});
//   manager.Start();  // a round every period
//   manager.Stop();   // before messaging and the scheduler stop
//
// Thread-safety: every method may be called from any thread; rounds run on
// the scheduler's threads, replays complete on messaging threads. A batch
// is replayed by one round at a time. REQUIRES: destroyed only once the
// scheduler runs no more of its tasks and its writes completed.

#include <chrono>
#include <mutex>
#include <set>

#include "cluster/batchlog/batch_store.h"
#include "cluster/cluster_services.h"
#include "cluster/periodic_rounds.h"
#include "cluster/write/write_coordinator.h"
#include "common/clock.h"
#include "messaging/messaging_service.h"

namespace sibyl::cluster {

class BatchlogManager {
 public:
  struct Options {
    // Cassandra looks for batches to replay every 10 seconds.
    std::chrono::milliseconds period{10000};
  };

  BatchlogManager(const ClusterServices& services, BatchStore& store, WriteCoordinator& writes,
                  Clock& clock, Options options);
  BatchlogManager(const BatchlogManager&) = delete;
  BatchlogManager& operator=(const BatchlogManager&) = delete;

  // BATCH_STORE and BATCH_REMOVE, answered from `store`.
  // REQUIRES: before messaging.Start(); `store` outlives the service.
  static void RegisterReplicaHandlers(messaging::MessagingService& messaging, BatchStore& store);

  void Start();
  void Stop();
  // Replays now every batch old enough (replays complete asynchronously).
  void RunOnce();
  size_t replays_in_flight() const;

 private:
  void Replay(const StoredBatch& batch);
  bool stopped() const { return rounds_.stopped(); }

  const ClusterServices services_;
  BatchStore& store_;
  WriteCoordinator& writes_;
  Clock& clock_;
  const Options options_;

  mutable std::mutex mutex_;
  std::set<types::Uuid> in_flight_;  // GUARDED_BY(mutex_)
  PeriodicRounds rounds_;            // last: its rounds use everything above
};

}  // namespace sibyl::cluster
