#include "cluster/hints/hint_dispatcher.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace sibyl::cluster {

struct HintDispatcher::Replay {
  types::Uuid target;
  messaging::PeerAddress address;
  std::vector<HintSegment> segments;  // sealed when the replay began, oldest first
  size_t segment = 0;                 // the one being replayed
  bool loaded = false;                // `hints` holds segments[segment]'s
  std::vector<Hint> hints;
  size_t next = 0;  // the next hint of `hints` to send; those before were acknowledged
};

HintDispatcher::HintDispatcher(const ClusterServices& services, Options options)
    : services_(services),
      options_(options),
      rounds_(*services.scheduler, options.period, [this] { RunOnce(); }) {}

void HintDispatcher::Start() { rounds_.Start(); }

void HintDispatcher::Stop() { rounds_.Stop(); }

size_t HintDispatcher::replays_in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_.size();
}

void HintDispatcher::RunOnce() {
  if (stopped()) return;
  const ClusterViewPtr view = services_.views->Get();
  for (const types::Uuid& target : services_.hints->Targets()) {
    if (view->directory().nodes().count(target) == 0) {
      // It left the cluster: nobody will ever take these writes.
      services_.hints->DropAll(target);
      continue;
    }
    if (target == view->local_id() || !services_.liveness->IsAlive(target)) continue;
    {
      std::lock_guard lock(mutex_);
      if (!in_flight_.insert(target).second) continue;
    }
    StartReplay(target, view->AddressOf(target));
  }
}

void HintDispatcher::StartReplay(const types::Uuid& target, const messaging::PeerAddress& address) {
  auto replay = std::make_shared<Replay>();
  replay->target = target;
  replay->address = address;
  replay->segments = services_.hints->SealAndList(target);
  SendNext(std::move(replay));
}

void HintDispatcher::SendNext(std::shared_ptr<Replay> replay) {
  if (stopped()) {
    Finish(*replay);
    return;
  }
  while (replay->next >= replay->hints.size()) {
    if (replay->loaded) {
      // Every hint of this segment was acknowledged.
      services_.hints->Remove(replay->segments[replay->segment]);
      ++replay->segment;
    }
    if (replay->segment >= replay->segments.size()) {
      Finish(*replay);
      return;
    }
    try {
      replay->hints = HintStore::ReadSegment(replay->segments[replay->segment].path);
    } catch (const std::exception&) {
      Finish(*replay);  // an unreadable segment: a later round tries again
      return;
    }
    replay->next = 0;
    replay->loaded = true;
  }
  const Bytes& mutation = replay->hints[replay->next].mutation;
  const size_t bytes = mutation.size();
  services_.messaging->SendRequest(
      replay->address, messaging::Verb::kHint, mutation, services_.timeouts.write,
      [this, replay, bytes](messaging::Reply reply) { OnReply(replay, reply.ok(), bytes); });
}

void HintDispatcher::OnReply(std::shared_ptr<Replay> replay, bool ok, size_t bytes) {
  if (!ok) {
    // Down again, or failing: the segment stays, a later round resumes.
    Finish(*replay);
    return;
  }
  ++replay->next;
  services_.hints->NoteDelivered();
  // Paced so that a recovering replica is not flooded: the next hint waits
  // as long as this one's bytes take at the throttle, which, as in
  // Cassandra, is shared among the other members (0: unthrottled).
  messaging::Duration delay{0};
  if (services_.hinted_handoff_throttle_bytes > 0) {
    const size_t members = services_.views->Get()->directory().nodes().size();
    const double rate = static_cast<double>(services_.hinted_handoff_throttle_bytes) /
                        static_cast<double>(std::max<size_t>(1, members - 1));
    delay = std::chrono::duration_cast<messaging::Duration>(
        std::chrono::duration<double>(static_cast<double>(bytes) / rate));
  }
  services_.scheduler->RunAfter(delay, [this, replay] { SendNext(replay); });
}

void HintDispatcher::Finish(const Replay& replay) {
  std::lock_guard lock(mutex_);
  in_flight_.erase(replay.target);
}

}  // namespace sibyl::cluster
