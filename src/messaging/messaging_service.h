#pragma once
// Request/response between nodes on top of a Transport and a Scheduler.
//
//   service.RegisterHandler(Verb::kRead, [](const Message& m, Responder r) {
//     r.Reply(Execute(m.payload));          // now, or later from any thread
//   });
//   service.Start();
//   service.SendRequest(replica, Verb::kRead, payload, 2s, [](Reply reply) { ... });
//
// A coordinator sends to several replicas and counts replies in its
// callbacks; no thread waits. Every message carries the local epoch (from
// the EpochGate) and host id. Requests of an epoch-checked verb
// (verb.h) from a sender ahead of us are held until the gate reports that we
// caught up, then handled (EPOCH_CATCH_UP_FAILED if we cannot); from a sender
// behind us they are refused with STALE_EPOCH, the reply carrying our epoch.
//
// Thread-safety: RegisterHandler before Start, on one thread. Everything
// else is thread-safe. Handlers and reply callbacks run on the thread that
// delivered the message or fired the timer (a transport or scheduler
// thread), without any lock of the service held; they must not block.
//
// Invariant: each request's callback runs exactly once — its entry leaves
// `pending_` under the mutex exactly once, by a reply, its timeout, the loss
// of its peer, or Stop; a duplicated or late reply finds no entry and is
// counted, not delivered.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "messaging/epoch_gate.h"
#include "messaging/message.h"
#include "messaging/reply.h"
#include "messaging/responder.h"
#include "messaging/scheduler.h"
#include "messaging/transport.h"
#include "types/uuid.h"

namespace sibyl::messaging {

struct MessagingOptions {
  // This node's host id, sent in every message. Default: the nil UUID.
  types::Uuid host_id;
  // Requests held at once for an epoch catch-up; beyond, they are refused
  // with OVERLOADED. Default: 4096.
  size_t max_held_requests = 4096;
};

// What the service saw, beyond the transport's per-peer traffic.
struct ServiceCounters {
  uint64_t requests_sent = 0;
  uint64_t replies_delivered = 0;  // success and failure replies passed to callbacks
  uint64_t timeouts = 0;
  uint64_t unreachable = 0;        // requests completed as kUnreachable
  uint64_t unmatched_replies = 0;  // duplicated, late (after the timeout) or misrouted
  uint64_t requests_held = 0;      // from senders ahead of us, held for a catch-up
  uint64_t stale_epoch_refusals = 0;
  uint64_t catch_up_failures = 0;
  uint64_t overloaded_refusals = 0;
  uint64_t unknown_verbs = 0;
  uint64_t stale_one_way_dropped = 0;  // one-way messages from senders behind us
};

class MessagingService final : private MessageSink {
 public:
  using Handler = std::function<void(const Message& message, Responder responder)>;

  // REQUIRES: the transport, scheduler and gate outlive the service; the
  // transport is not started. Timers and the gate's callbacks point at the
  // service: destroy it only once the scheduler runs no more tasks (stop
  // the service, then the scheduler) and the gate has called back.
  MessagingService(Transport& transport, Scheduler& scheduler, EpochGate& gate,
                   MessagingOptions options);
  MessagingService(const MessagingService&) = delete;
  MessagingService& operator=(const MessagingService&) = delete;
  ~MessagingService() override;  // Stop()

  // REQUIRES: before Start(); one handler per verb.
  void RegisterHandler(Verb verb, Handler handler);
  // Starts the transport.
  void Start();
  // Stops the transport, then completes every pending request as
  // kUnreachable, on this thread. Held requests are dropped when the gate
  // releases them. Requests sent later complete as kUnreachable through the
  // scheduler. REQUIRES: the scheduler is still running while requests may
  // be sent.
  void Stop();

  // Sends a request; `callback` gets its Reply exactly once. Returns the
  // request's id. A `timeout` <= 0 times out at once.
  uint64_t SendRequest(const PeerAddress& to, Verb verb, Bytes payload, Duration timeout,
                       ReplyCallback callback);
  void SendOneWay(const PeerAddress& to, Verb verb, Bytes payload);

  PeerAddress local_address() const { return transport_.local_address(); }
  std::map<PeerAddress, PeerCounters> PeerTraffic() const { return transport_.Counters(); }
  ServiceCounters counters() const;

 private:
  friend class Responder;
  struct Pending {
    PeerAddress to;
    ReplyCallback callback;
    TimerHandle timer;
  };
  struct AtomicCounters;

  // MessageSink.
  void OnMessage(const PeerAddress& from, Message message) override;
  void OnPeerLost(const PeerAddress& peer) override;

  void HandleReply(const PeerAddress& from, Message message);
  void HandleInbound(const PeerAddress& from, Message message);
  void HoldUntilCaughtUp(const PeerAddress& from, Message message, const Handler& handler);
  void Dispatch(const PeerAddress& from, const Message& message, const Handler& handler);
  void Refuse(const PeerAddress& from, const Message& message, FailureReason reason);
  void OnTimeout(uint64_t id);
  // Removes the request's entry; nullopt if it has completed already.
  std::optional<Pending> Take(uint64_t id);
  void SendReply(const PeerAddress& to, Verb verb, uint64_t id, MessageKind kind, Bytes payload);
  Message Envelope(Verb verb, MessageKind kind, uint64_t id, Bytes payload) const;

  Transport& transport_;
  Scheduler& scheduler_;
  EpochGate& gate_;
  const MessagingOptions options_;
  // Written before Start only, then read without a lock.
  std::unordered_map<uint16_t, Handler> handlers_;

  std::atomic<uint64_t> next_id_{1};
  std::atomic<size_t> held_{0};
  std::atomic<bool> started_{false};
  std::atomic<bool> stopped_{false};
  std::unique_ptr<AtomicCounters> counters_;

  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Pending> pending_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::messaging
