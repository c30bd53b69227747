#include "messaging/messaging_service.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

#include "common/check.h"

namespace sibyl::messaging {

struct MessagingService::AtomicCounters {
  std::atomic<uint64_t> requests_sent{0};
  std::atomic<uint64_t> replies_delivered{0};
  std::atomic<uint64_t> timeouts{0};
  std::atomic<uint64_t> unreachable{0};
  std::atomic<uint64_t> unmatched_replies{0};
  std::atomic<uint64_t> requests_held{0};
  std::atomic<uint64_t> stale_epoch_refusals{0};
  std::atomic<uint64_t> catch_up_failures{0};
  std::atomic<uint64_t> overloaded_refusals{0};
  std::atomic<uint64_t> unknown_verbs{0};
  std::atomic<uint64_t> stale_one_way_dropped{0};
};

namespace {

void Bump(std::atomic<uint64_t>& counter) { counter.fetch_add(1, std::memory_order_relaxed); }

std::string VerbText(Verb verb) {
  const auto name = VerbName(verb);
  return name ? std::string(*name) : "verb " + std::to_string(static_cast<uint16_t>(verb));
}

Reply WithStatus(Reply::Status status) {
  Reply reply;
  reply.status = status;
  return reply;
}
Reply Unreachable() { return WithStatus(Reply::Status::kUnreachable); }

}  // namespace

MessagingService::MessagingService(Transport& transport, Scheduler& scheduler, EpochGate& gate,
                                   MessagingOptions options)
    : transport_(transport),
      scheduler_(scheduler),
      gate_(gate),
      options_(std::move(options)),
      counters_(std::make_unique<AtomicCounters>()) {}

MessagingService::~MessagingService() { Stop(); }

void MessagingService::RegisterHandler(Verb verb, Handler handler) {
  SIBYL_CHECK(!started_.load(), "handlers are registered before the service starts");
  const bool added = handlers_.emplace(static_cast<uint16_t>(verb), std::move(handler)).second;
  SIBYL_CHECK(added, "a second handler for " + VerbText(verb));
}

void MessagingService::Start() {
  SIBYL_CHECK(!started_.exchange(true), "the messaging service is started once");
  transport_.Start(*this);
}

void MessagingService::Stop() {
  if (!started_.load() || stopped_.exchange(true)) return;
  transport_.Stop();
  std::unordered_map<uint64_t, Pending> pending;
  {
    std::lock_guard lock(mutex_);
    pending.swap(pending_);
  }
  for (auto& [id, entry] : pending) {
    scheduler_.Cancel(entry.timer);
    Bump(counters_->unreachable);
    entry.callback(Unreachable());
  }
}

Message MessagingService::Envelope(Verb verb, MessageKind kind, uint64_t id, Bytes payload) const {
  return Message{.verb = verb,
                 .kind = kind,
                 .id = id,
                 .epoch = gate_.LocalEpoch(),
                 .sender = options_.host_id,
                 .payload = std::move(payload)};
}

uint64_t MessagingService::SendRequest(const PeerAddress& to, Verb verb, Bytes payload,
                                       Duration timeout, ReplyCallback callback) {
  const uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
  if (stopped_.load() || !started_.load()) {
    Bump(counters_->unreachable);
    scheduler_.Post([callback = std::move(callback)] { callback(Unreachable()); });
    return id;
  }
  Bump(counters_->requests_sent);
  // The entry exists before its timer, so the timer always finds a
  // completed request or its own.
  {
    std::lock_guard lock(mutex_);
    pending_.emplace(id, Pending{to, std::move(callback), TimerHandle{}});
  }
  const TimerHandle timer = scheduler_.RunAfter(timeout, [this, id] { OnTimeout(id); });
  bool completed = false;
  {
    std::lock_guard lock(mutex_);
    const auto it = pending_.find(id);
    if (it != pending_.end()) {
      it->second.timer = timer;
    } else {
      completed = true;
    }
  }
  if (completed) scheduler_.Cancel(timer);
  transport_.Send(to, Envelope(verb, MessageKind::kRequest, id, std::move(payload)));
  return id;
}

void MessagingService::SendOneWay(const PeerAddress& to, Verb verb, Bytes payload) {
  if (stopped_.load() || !started_.load()) return;
  const uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
  transport_.Send(to, Envelope(verb, MessageKind::kOneWay, id, std::move(payload)));
}

void MessagingService::SendReply(const PeerAddress& to, Verb verb, uint64_t id, MessageKind kind,
                                 Bytes payload) {
  if (stopped_.load()) return;
  transport_.Send(to, Envelope(verb, kind, id, std::move(payload)));
}

std::optional<MessagingService::Pending> MessagingService::Take(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto node = pending_.extract(id);
  if (node.empty()) return std::nullopt;
  return std::move(node.mapped());
}

void MessagingService::OnTimeout(uint64_t id) {
  auto entry = Take(id);
  if (!entry) return;
  Bump(counters_->timeouts);
  entry->callback(WithStatus(Reply::Status::kTimeout));
}

void MessagingService::OnMessage(const PeerAddress& from, Message message) {
  if (message.is_reply()) {
    HandleReply(from, std::move(message));
  } else {
    HandleInbound(from, std::move(message));
  }
}

void MessagingService::HandleReply(const PeerAddress& from, Message message) {
  std::optional<Pending> entry;
  {
    std::lock_guard lock(mutex_);
    const auto it = pending_.find(message.id);
    // A reply is only accepted from the peer the request went to: ids are
    // ours, so another peer's reply with a matching id is misrouted.
    if (it != pending_.end() && it->second.to == from) {
      entry = std::move(it->second);
      pending_.erase(it);
    }
  }
  if (!entry) {
    Bump(counters_->unmatched_replies);
    return;
  }
  scheduler_.Cancel(entry->timer);
  Reply reply;
  reply.epoch = message.epoch;
  if (message.kind == MessageKind::kResponse) {
    reply.status = Reply::Status::kSuccess;
    reply.payload = std::move(message.payload);
  } else {
    auto failure = DecodeFailurePayload(std::move(message.payload));
    reply.status = Reply::Status::kFailure;
    reply.reason = failure.reason;
    reply.payload = std::move(failure.detail);
  }
  Bump(counters_->replies_delivered);
  entry->callback(std::move(reply));
}

void MessagingService::OnPeerLost(const PeerAddress& peer) {
  std::vector<Pending> lost;
  {
    std::lock_guard lock(mutex_);
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.to == peer) {
        lost.push_back(std::move(it->second));
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& entry : lost) {
    scheduler_.Cancel(entry.timer);
    Bump(counters_->unreachable);
    entry.callback(Unreachable());
  }
}

void MessagingService::HandleInbound(const PeerAddress& from, Message message) {
  const auto handler = handlers_.find(static_cast<uint16_t>(message.verb));
  if (handler == handlers_.end()) {
    Bump(counters_->unknown_verbs);
    if (message.kind == MessageKind::kRequest) Refuse(from, message, FailureReason::kUnknownVerb);
    return;
  }
  if (IsEpochChecked(message.verb)) {
    const uint64_t local = gate_.LocalEpoch();
    if (message.epoch < local) {
      if (message.kind == MessageKind::kRequest) {
        Bump(counters_->stale_epoch_refusals);
        Refuse(from, message, FailureReason::kStaleEpoch);
      } else {
        Bump(counters_->stale_one_way_dropped);
      }
      return;
    }
    if (message.epoch > local) {
      HoldUntilCaughtUp(from, std::move(message), handler->second);
      return;
    }
  }
  Dispatch(from, message, handler->second);
}

void MessagingService::HoldUntilCaughtUp(const PeerAddress& from, Message message,
                                         const Handler& handler) {
  if (held_.fetch_add(1) >= options_.max_held_requests) {
    held_.fetch_sub(1);
    Bump(counters_->overloaded_refusals);
    if (message.kind == MessageKind::kRequest) Refuse(from, message, FailureReason::kOverloaded);
    return;
  }
  Bump(counters_->requests_held);
  const uint64_t epoch = message.epoch;
  // `handler` lives in handlers_, which outlives the service's requests.
  gate_.WhenCaughtUp(epoch, [this, from, message = std::move(message), &handler](bool caught_up) {
    held_.fetch_sub(1);
    if (stopped_.load()) return;
    if (caught_up) {
      Dispatch(from, message, handler);
      return;
    }
    Bump(counters_->catch_up_failures);
    if (message.kind == MessageKind::kRequest) {
      Refuse(from, message, FailureReason::kEpochCatchUpFailed);
    }
  });
}

void MessagingService::Dispatch(const PeerAddress& from, const Message& message,
                                const Handler& handler) {
  const bool request = message.kind == MessageKind::kRequest;
  try {
    handler(message, Responder(request ? this : nullptr, from, message.verb, message.id));
  } catch (const std::exception& e) {
    // The Responder, destroyed by now, failed the request with UNKNOWN.
    spdlog::error("The {} handler failed on a message from {}: {}", VerbText(message.verb),
                  from.ToString(), e.what());
  }
}

void MessagingService::Refuse(const PeerAddress& from, const Message& message,
                              FailureReason reason) {
  SendReply(from, message.verb, message.id, MessageKind::kFailure,
            EncodeFailurePayload(reason, {}));
}

ServiceCounters MessagingService::counters() const {
  const AtomicCounters& c = *counters_;
  return ServiceCounters{
      .requests_sent = c.requests_sent.load(),
      .replies_delivered = c.replies_delivered.load(),
      .timeouts = c.timeouts.load(),
      .unreachable = c.unreachable.load(),
      .unmatched_replies = c.unmatched_replies.load(),
      .requests_held = c.requests_held.load(),
      .stale_epoch_refusals = c.stale_epoch_refusals.load(),
      .catch_up_failures = c.catch_up_failures.load(),
      .overloaded_refusals = c.overloaded_refusals.load(),
      .unknown_verbs = c.unknown_verbs.load(),
      .stale_one_way_dropped = c.stale_one_way_dropped.load(),
  };
}

}  // namespace sibyl::messaging
