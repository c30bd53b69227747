#pragma once
// Sends the view updates waiting in this node's view outbox
// (index/view_outbox.h) to their view replicas, as the hint dispatcher
// (hints/hint_dispatcher.h) replays hints. Every `period` a round looks at
// each target with updates waiting:
//   - no longer a member of the cluster: its updates are dropped (logged):
//     the view replica it was paired with is gone, and the replicas that
//     now hold the view partition get its rows by streaming and repair, as
//     for base data;
//   - believed down: left for a later round;
//   - alive: its updates are sent, oldest first, up to max_in_flight at a
//     time, each as a MUTATION request (the replica write every
//     coordinator sends; the target's engine applies it, a plain write of
//     the view table). Once every reply of such a page is in, the
//     acknowledged updates are deleted from the outbox
//     (IndexingEngine::ViewUpdatesDelivered), which also lets writes held
//     back by the outbox limit go on; the next page follows, until the
//     outbox of that target is empty. A failure or timeout stops the
//     target's delivery until a round retry_delay later, which sends what
//     was not acknowledged again (sending an update twice is harmless: it carries
//     its timestamps, and updates of one page may land in any order for the
//     same reason).
// A round that finds the outbox empty reads one counter and nothing else,
// which is why the period can be short: a view replica usually trails its
// base by a fraction of a second.
//
//   ViewUpdateDispatcher dispatcher(services, engine, {});
//   dispatcher.Start();   // rounds every period on services.scheduler
//   ...
//   dispatcher.Stop();    // before the messaging service and scheduler stop
//
// Thread-safety: every method may be called from any thread; rounds run on
// the scheduler's threads and replies on messaging threads. At most one
// delivery (or drop) per target runs at a time, so an update is deleted
// once only.
// REQUIRES: the dispatcher is destroyed only once the scheduler runs no
// more of its tasks and its requests completed (stop it, then messaging,
// then the scheduler), as for MessagingService; `engine` outlives it.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "cluster/cluster_services.h"
#include "cluster/periodic_rounds.h"
#include "index/indexing_engine.h"
#include "messaging/peer_address.h"
#include "messaging/scheduler.h"

namespace sibyl::cluster {

class ViewUpdateDispatcher {
 public:
  struct Options {
    // Short: a round with nothing to send costs one atomic load.
    std::chrono::milliseconds period{100};
    // Updates of one target on the wire at once (and read from the outbox
    // per page). REQUIRES: > 0.
    size_t max_in_flight = 32;
    // After a page with a failure or timeout, the target's next delivery
    // waits this long, so that a replica refusing the updates (its schema
    // behind, its disk failing) is not sent the same page every period.
    std::chrono::milliseconds retry_delay{1000};
  };

  ViewUpdateDispatcher(const ClusterServices& services, index::IndexingEngine& engine,
                       Options options);
  ViewUpdateDispatcher(const ViewUpdateDispatcher&) = delete;
  ViewUpdateDispatcher& operator=(const ViewUpdateDispatcher&) = delete;

  // Runs a round every period from now on.
  void Start();
  // No more rounds or pages sent; deliveries in flight end at their page's
  // last reply.
  void Stop();
  // Runs one round now (deliveries started go on asynchronously).
  void RunOnce();
  // Targets being delivered to now.
  size_t deliveries_in_flight() const;

 private:
  struct Delivery;

  void StartDelivery(const types::Uuid& target, const messaging::PeerAddress& address);
  // Sends the next page of `delivery`'s target, or finishes it.
  void SendPage(std::shared_ptr<Delivery> delivery);
  void OnReply(std::shared_ptr<Delivery> delivery, int64_t sequence, bool ok);
  // Deletes every update waiting for `target`.
  void DropAll(const types::Uuid& target);
  // `failed`: the target waits retry_delay before its next delivery.
  void Finish(const Delivery& delivery, bool failed = false);
  bool stopped() const { return rounds_.stopped(); }

  const ClusterServices services_;
  index::IndexingEngine& engine_;
  const Options options_;

  mutable std::mutex mutex_;
  std::set<types::Uuid> in_flight_;  // GUARDED_BY(mutex_)
  // Targets whose last delivery failed, and when they may be tried again.
  std::map<types::Uuid, messaging::TimePoint> retry_after_;  // GUARDED_BY(mutex_)
  PeriodicRounds rounds_;  // last: its rounds use everything above
};

}  // namespace sibyl::cluster
