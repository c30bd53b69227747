#include "messaging/responder.h"

#include <utility>

#include "common/check.h"
#include "messaging/message.h"
#include "messaging/messaging_service.h"

namespace sibyl::messaging {

Responder::Responder(MessagingService* service, PeerAddress peer, Verb verb, uint64_t id)
    : service_(service), peer_(std::move(peer)), verb_(verb), id_(id) {}

Responder::Responder(Responder&& other) noexcept
    : service_(std::exchange(other.service_, nullptr)),
      peer_(std::move(other.peer_)),
      verb_(other.verb_),
      id_(other.id_) {}

Responder& Responder::operator=(Responder&& other) noexcept {
  if (this != &other) {
    if (service_ != nullptr) Fail(FailureReason::kUnknown);
    service_ = std::exchange(other.service_, nullptr);
    peer_ = std::move(other.peer_);
    verb_ = other.verb_;
    id_ = other.id_;
  }
  return *this;
}

Responder::~Responder() {
  if (service_ != nullptr) Fail(FailureReason::kUnknown);
}

void Responder::Reply(Bytes payload) {
  SIBYL_CHECK(service_ != nullptr, "a request answered twice, or a one-way message answered");
  std::exchange(service_, nullptr)
      ->SendReply(peer_, verb_, id_, MessageKind::kResponse, std::move(payload));
}

void Responder::Fail(FailureReason reason, BytesView detail) {
  SIBYL_CHECK(service_ != nullptr, "a request answered twice, or a one-way message answered");
  std::exchange(service_, nullptr)
      ->SendReply(peer_, verb_, id_, MessageKind::kFailure, EncodeFailurePayload(reason, detail));
}

}  // namespace sibyl::messaging
