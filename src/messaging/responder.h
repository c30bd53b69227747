#pragma once
// The handle a verb handler answers its request with, now or later, from any
// thread: exactly one Reply or Fail. A request whose Responder is destroyed
// unanswered (a handler that threw, or forgot) is failed with UNKNOWN, so the
// coordinator learns at once instead of at its timeout. A one-way message's
// Responder expects no answer.
//
// Move-only; a moved-from Responder expects no answer. Not thread-safe
// itself (one owner at a time), but it may be moved to and used on any
// thread. REQUIRES: the MessagingService outlives it.

#include <cstdint>

#include "common/bytes.h"
#include "messaging/failure_reason.h"
#include "messaging/peer_address.h"
#include "messaging/verb.h"

namespace sibyl::messaging {

class MessagingService;

class Responder {
 public:
  Responder(Responder&& other) noexcept;
  Responder& operator=(Responder&& other) noexcept;
  Responder(const Responder&) = delete;
  Responder& operator=(const Responder&) = delete;
  ~Responder();

  // True until the request is answered; false for one-way messages.
  bool expects_reply() const { return service_ != nullptr; }
  const PeerAddress& peer() const { return peer_; }

  // REQUIRES: expects_reply().
  void Reply(Bytes payload);
  // REQUIRES: expects_reply().
  void Fail(FailureReason reason, BytesView detail = {});

 private:
  friend class MessagingService;
  Responder(MessagingService* service, PeerAddress peer, Verb verb, uint64_t id);

  MessagingService* service_;  // null once answered, moved from, or one-way
  PeerAddress peer_;
  Verb verb_;
  uint64_t id_;
};

}  // namespace sibyl::messaging
