#pragma once
// What this node knows of each member's disk usage (guardrails/disk_usage.h):
// its own state from its disk usage monitor, every other member's from the
// member's last heartbeat (Cassandra's DiskUsageBroadcaster, which learns
// them from gossip). A coordinator consults it before a write
// (replica_disk_usage): the common case, no member STUFFED or FULL, costs
// one atomic load (AnyStuffedOrFull).
//
// A member that went DOWN keeps its last state, as in Cassandra; a member
// that left the cluster is forgotten.
//
// Thread-safety: every method may be called from any thread.

#include <atomic>
#include <map>
#include <mutex>

#include "guardrails/disk_usage.h"
#include "types/uuid.h"

namespace sibyl::cluster {

class DiskUsageStates {
 public:
  using State = guardrails::DiskUsageState;

  void SetLocal(State state);
  State local() const { return local_.load(std::memory_order_relaxed); }
  // `node`'s state as its heartbeat said.
  void SetPeer(const types::Uuid& node, State state);
  void ForgetPeer(const types::Uuid& node);
  // NOT_AVAILABLE for a member not heard from.
  State PeerState(const types::Uuid& node) const;

  // Whether this node or any member it heard from is STUFFED or FULL.
  bool AnyStuffedOrFull() const { return any_stuffed_or_full_.load(std::memory_order_relaxed); }

 private:
  // REQUIRES: mutex_ held.
  void RecomputeLocked();

  std::atomic<State> local_{State::kNotAvailable};
  std::atomic<bool> any_stuffed_or_full_{false};
  mutable std::mutex mutex_;
  std::map<types::Uuid, State> peers_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::cluster
