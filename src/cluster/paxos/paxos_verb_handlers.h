#pragma once
// The replica side of the Paxos verbs (PAXOS_PREPARE, PAXOS_PROPOSE,
// PAXOS_COMMIT, and Sibyl's PAXOS_UNCOMMITTED; payloads: paxos_messages.h)
// over this node's acceptor. Each
// request runs through `blocking`, since a promise and an acceptance wait
// for an fsync. A malformed request, or one the acceptor fails (an unknown
// table, a disk error), is failed with UNKNOWN and its reason as detail.

#include "cluster/cluster_services.h"
#include "cluster/paxos/paxos_acceptor.h"
#include "messaging/messaging_service.h"

namespace sibyl::cluster::paxos {

// REQUIRES: before messaging.Start(); `acceptor` outlives the service.
void RegisterPaxosHandlers(messaging::MessagingService& messaging, PaxosAcceptor& acceptor,
                           BlockingRunner blocking);

// The reply a replica gives to a request of `verb` (one of the four),
// computed on the calling thread: what the handlers send, and what a
// coordinator that is itself a replica uses directly. Throws
// std::runtime_error on a malformed payload, or what the acceptor throws.
[[nodiscard]] Bytes AnswerPaxosRequest(PaxosAcceptor& acceptor, messaging::Verb verb,
                                       BytesView payload);

}  // namespace sibyl::cluster::paxos
