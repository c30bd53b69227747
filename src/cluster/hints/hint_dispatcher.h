#pragma once
// Replays stored hints (hint_store.h) to their targets once they are alive
// again (Cassandra's HintsDispatchExecutor / HintsDispatcher). Every
// `period` a round looks at each target with hints:
//   - no longer a member of the cluster: its hints are dropped;
//   - believed down: left for a later round;
//   - alive: its sealed segments are replayed, oldest first, one HINT
//     request (payload: the serialized mutation) at a time, paced to
//     hinted_handoff_throttle bytes per second divided among the other
//     members (Cassandra's HintsDispatchExecutor does so). A segment is deleted once
//     every hint in it was acknowledged; a failure or timeout stops the
//     target's replay until a later round, which starts that segment again
//     (replaying a hint twice is harmless: it carries its timestamps).
//
//   HintDispatcher dispatcher(services, {.period = 10s});
//   dispatcher.Start();   // rounds every period on services.scheduler
//   ...
//   dispatcher.Stop();    // before the messaging service and scheduler stop
//
// Thread-safety: every method may be called from any thread; rounds and
// replies run on scheduler and messaging threads. At most one replay per
// target runs at a time. REQUIRES: the dispatcher is destroyed only once
// the scheduler runs no more of its tasks and its requests completed (stop
// it, then messaging, then the scheduler), as for MessagingService.

#include <chrono>
#include <memory>
#include <mutex>
#include <set>

#include "cluster/cluster_services.h"
#include "cluster/periodic_rounds.h"
#include "messaging/scheduler.h"

namespace sibyl::cluster {

class HintDispatcher {
 public:
  struct Options {
    // Cassandra dispatches every 10 seconds.
    std::chrono::milliseconds period{10000};
  };

  // REQUIRES: services.hints is not null.
  HintDispatcher(const ClusterServices& services, Options options);
  HintDispatcher(const HintDispatcher&) = delete;
  HintDispatcher& operator=(const HintDispatcher&) = delete;

  // Runs a round every period from now on.
  void Start();
  // No more rounds or hints sent; replays in flight end at their next reply.
  void Stop();
  // Runs one round now (replays started go on asynchronously).
  void RunOnce();
  // Targets being replayed to now.
  size_t replays_in_flight() const;

 private:
  struct Replay;

  void StartReplay(const types::Uuid& target, const messaging::PeerAddress& address);
  // Sends the next hint of `replay`, or finishes it.
  void SendNext(std::shared_ptr<Replay> replay);
  void OnReply(std::shared_ptr<Replay> replay, bool ok, size_t bytes);
  void Finish(const Replay& replay);
  bool stopped() const { return rounds_.stopped(); }

  const ClusterServices services_;
  const Options options_;

  mutable std::mutex mutex_;
  std::set<types::Uuid> in_flight_;  // GUARDED_BY(mutex_)
  PeriodicRounds rounds_;            // last: its rounds use everything above
};

}  // namespace sibyl::cluster
