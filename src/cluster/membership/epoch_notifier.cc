#include "cluster/membership/epoch_notifier.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>

namespace sibyl::cluster {
namespace {

Bytes EncodeEpoch(uint64_t epoch) {
  Bytes out;
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(epoch >> shift));
  return out;
}

std::optional<uint64_t> DecodeEpoch(BytesView data) {
  if (data.size() < 8) return std::nullopt;
  uint64_t epoch = 0;
  for (char c : data.substr(0, 8)) epoch = (epoch << 8) | static_cast<uint8_t>(c);
  return epoch;
}

// How often a wait looks again for members that died while it waited.
constexpr std::chrono::milliseconds kLivenessRecheck{100};

// The answers of one NotifyAndWait, shared with the reply callbacks, which
// may run after it returned.
struct Answers {
  std::mutex mutex;
  std::condition_variable changed;
  std::set<types::Uuid> waiting;  // GUARDED_BY(mutex)
};

}  // namespace

void EpochNotifier::RegisterHandler() {
  messaging_.RegisterHandler(
      messaging::Verb::kEpochNotify,
      [this](const messaging::Message& message, messaging::Responder responder) {
        const std::optional<uint64_t> epoch = DecodeEpoch(message.payload);
        if (!epoch || message.payload.size() != 8) {
          responder.Fail(messaging::FailureReason::kUnknown);
          return;
        }
        auto shared = std::make_shared<messaging::Responder>(std::move(responder));
        // Answers with the epoch reached, whether or not the catch-up got there.
        gate_.WhenCaughtUp(*epoch, [this, shared](bool) {
          Bytes reply = EncodeEpoch(gate_.LocalEpoch());
          reply += schema_version_().View();
          shared->Reply(std::move(reply));
        });
      });
}

std::vector<types::Uuid> EpochNotifier::NotifyAndWait(uint64_t epoch,
                                                      std::chrono::milliseconds timeout) {
  const ClusterViewPtr view = views_.Get();
  if (!view) return {};
  auto answers = std::make_shared<Answers>();
  std::vector<std::pair<types::Uuid, messaging::PeerAddress>> targets;
  for (const auto& [id, record] : view->directory().nodes()) {
    if (id == view->local_id() || !liveness_.IsAlive(id)) continue;
    answers->waiting.insert(id);
    targets.emplace_back(id, view->AddressOf(id));
  }
  for (const auto& [id, address] : targets) {
    messaging_.SendRequest(address, messaging::Verb::kEpochNotify, EncodeEpoch(epoch), timeout,
                           [this, answers, id = id, epoch](messaging::Reply reply) {
                             const std::optional<uint64_t> reached = DecodeEpoch(reply.payload);
                             if (!reply.ok() || !reached || *reached < epoch) return;
                             if (reply.payload.size() == 24 && on_ack_) {
                               on_ack_(id, *reached,
                                       types::Uuid::FromBytes(BytesView(reply.payload).substr(8)));
                             }
                             std::lock_guard lock(answers->mutex);
                             answers->waiting.erase(id);
                             answers->changed.notify_all();
                           });
  }
  // A member that dies meanwhile will never answer: once the failure
  // detector convicts it, it is no longer waited for (as Cassandra's
  // schema agreement counts only live members).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock lock(answers->mutex);
  while (!answers->waiting.empty()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    answers->changed.wait_for(
        lock, std::min<std::chrono::steady_clock::duration>(deadline - now, kLivenessRecheck));
    std::erase_if(answers->waiting, [&](const types::Uuid& id) { return !liveness_.IsAlive(id); });
  }
  return {answers->waiting.begin(), answers->waiting.end()};
}

}  // namespace sibyl::cluster
