#include "cluster/views/view_update_dispatcher.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <utility>
#include <vector>

namespace sibyl::cluster {

struct ViewUpdateDispatcher::Delivery {
  types::Uuid target;
  messaging::PeerAddress address;
  std::mutex mutex;            // replies of one page come on any messaging thread
  size_t outstanding = 0;      // GUARDED_BY(mutex): replies of the page still to come
  std::vector<int64_t> acked;  // GUARDED_BY(mutex)
  bool failed = false;         // GUARDED_BY(mutex)
};

ViewUpdateDispatcher::ViewUpdateDispatcher(const ClusterServices& services,
                                           index::IndexingEngine& engine, Options options)
    : services_(services),
      engine_(engine),
      options_(options),
      rounds_(*services.scheduler, options.period, [this] { RunOnce(); }) {}

void ViewUpdateDispatcher::Start() { rounds_.Start(); }

void ViewUpdateDispatcher::Stop() { rounds_.Stop(); }

size_t ViewUpdateDispatcher::deliveries_in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_.size();
}

void ViewUpdateDispatcher::RunOnce() {
  if (stopped() || engine_.pending_view_updates() <= 0) return;
  const ClusterViewPtr view = services_.views->Get();
  std::vector<types::Uuid> targets;
  try {
    targets = engine_.ViewUpdateTargets();
  } catch (const std::exception& e) {
    // A round runs on the scheduler's thread: nothing may escape it.
    spdlog::error("Reading the view outbox failed: {}", e.what());
    return;
  }
  for (const types::Uuid& target : targets) {
    if (view->directory().nodes().count(target) == 0) {
      // Not while a delivery begun before it left is still running: each
      // update must be deleted once only (the engine counts deletions).
      {
        std::lock_guard lock(mutex_);
        if (!in_flight_.insert(target).second) continue;
      }
      DropAll(target);
      std::lock_guard lock(mutex_);
      in_flight_.erase(target);
      continue;
    }
    // The router never sends this node its own updates (it applies them in
    // the base write), so a target here is always another member.
    if (target == view->local_id() || !services_.liveness->IsAlive(target)) continue;
    {
      std::lock_guard lock(mutex_);
      const auto retry = retry_after_.find(target);
      if (retry != retry_after_.end()) {
        if (services_.scheduler->Now() < retry->second) continue;
        retry_after_.erase(retry);
      }
      if (!in_flight_.insert(target).second) continue;
    }
    StartDelivery(target, view->AddressOf(target));
  }
}

void ViewUpdateDispatcher::DropAll(const types::Uuid& target) {
  size_t dropped = 0;
  try {
    for (;;) {
      const std::vector<index::PendingViewUpdate> page = engine_.PendingViewUpdates(target, 1000);
      if (page.empty()) break;
      std::vector<int64_t> sequences;
      sequences.reserve(page.size());
      for (const index::PendingViewUpdate& update : page) sequences.push_back(update.sequence);
      engine_.ViewUpdatesDelivered(target, sequences);
      dropped += page.size();
    }
  } catch (const std::exception& e) {
    spdlog::error("Dropping the view updates of departed node {} failed: {}", target.ToString(),
                  e.what());
  }
  spdlog::warn(
      "Dropped {} view updates for node {}, which left the cluster: the view replicas that own "
      "their partitions now get those rows by repair",
      dropped, target.ToString());
}

void ViewUpdateDispatcher::StartDelivery(const types::Uuid& target,
                                         const messaging::PeerAddress& address) {
  auto delivery = std::make_shared<Delivery>();
  delivery->target = target;
  delivery->address = address;
  SendPage(std::move(delivery));
}

void ViewUpdateDispatcher::SendPage(std::shared_ptr<Delivery> delivery) {
  if (stopped()) {
    Finish(*delivery);
    return;
  }
  std::vector<index::PendingViewUpdate> page;
  try {
    page = engine_.PendingViewUpdates(delivery->target, options_.max_in_flight);
  } catch (const std::exception& e) {
    spdlog::error("Reading the view outbox failed: {}", e.what());
  }
  if (page.empty()) {
    Finish(*delivery);
    return;
  }
  {
    // Counted before the first send: a reply may come before the loop ends.
    std::lock_guard lock(delivery->mutex);
    delivery->outstanding = page.size();
    delivery->acked.clear();
    delivery->failed = false;
  }
  for (index::PendingViewUpdate& update : page) {
    const int64_t sequence = update.sequence;
    services_.messaging->SendRequest(delivery->address, messaging::Verb::kMutation,
                                     std::move(update.mutation), services_.timeouts.write,
                                     [this, delivery, sequence](messaging::Reply reply) {
                                       OnReply(delivery, sequence, reply.ok());
                                     });
  }
}

void ViewUpdateDispatcher::OnReply(std::shared_ptr<Delivery> delivery, int64_t sequence, bool ok) {
  std::vector<int64_t> acked;
  bool failed = false;
  {
    std::lock_guard lock(delivery->mutex);
    if (ok) {
      delivery->acked.push_back(sequence);
    } else {
      delivery->failed = true;
    }
    if (--delivery->outstanding > 0) return;
    acked = std::move(delivery->acked);
    failed = delivery->failed;
  }
  try {
    engine_.ViewUpdatesDelivered(delivery->target, acked);
  } catch (const std::exception& e) {
    // Still in the outbox: a later round sends them again.
    spdlog::error("Deleting delivered view updates failed: {}", e.what());
    failed = true;
  }
  if (failed) {
    // Down again, or failing: what was not acknowledged waits for a later round.
    Finish(*delivery, /*failed=*/true);
    return;
  }
  // On the scheduler, not on this messaging thread: reading the next page
  // is a storage read.
  services_.scheduler->RunAfter(messaging::Duration{0}, [this, delivery] { SendPage(delivery); });
}

void ViewUpdateDispatcher::Finish(const Delivery& delivery, bool failed) {
  std::lock_guard lock(mutex_);
  in_flight_.erase(delivery.target);
  if (failed) retry_after_[delivery.target] = services_.scheduler->Now() + options_.retry_delay;
}

}  // namespace sibyl::cluster
