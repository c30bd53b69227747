#include "cluster/membership/disk_usage_states.h"

#include <algorithm>

namespace sibyl::cluster {

void DiskUsageStates::SetLocal(State state) {
  std::lock_guard lock(mutex_);
  local_.store(state, std::memory_order_relaxed);
  RecomputeLocked();
}

void DiskUsageStates::SetPeer(const types::Uuid& node, State state) {
  std::lock_guard lock(mutex_);
  auto [it, added] = peers_.try_emplace(node, state);
  if (!added) {
    // Heartbeats come every second; most say nothing new.
    if (it->second == state) return;
    it->second = state;
  }
  RecomputeLocked();
}

void DiskUsageStates::ForgetPeer(const types::Uuid& node) {
  std::lock_guard lock(mutex_);
  if (peers_.erase(node) != 0) RecomputeLocked();
}

DiskUsageStates::State DiskUsageStates::PeerState(const types::Uuid& node) const {
  std::lock_guard lock(mutex_);
  const auto it = peers_.find(node);
  return it == peers_.end() ? State::kNotAvailable : it->second;
}

void DiskUsageStates::RecomputeLocked() {
  const bool any = guardrails::IsStuffedOrFull(local()) ||
                   std::any_of(peers_.begin(), peers_.end(), [](const auto& peer) {
                     return guardrails::IsStuffedOrFull(peer.second);
                   });
  any_stuffed_or_full_.store(any, std::memory_order_relaxed);
}

}  // namespace sibyl::cluster
