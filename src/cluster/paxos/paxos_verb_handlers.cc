#include "cluster/paxos/paxos_verb_handlers.h"

#include <memory>
#include <stdexcept>
#include <utility>

#include "cluster/paxos/paxos_messages.h"

namespace sibyl::cluster::paxos {

using messaging::Verb;

Bytes AnswerPaxosRequest(PaxosAcceptor& acceptor, Verb verb, BytesView payload) {
  if (verb == Verb::kPaxosUncommitted) {
    const UncommittedRequest request = DecodeUncommittedRequest(payload);
    return EncodeUncommittedResponse(acceptor.Uncommitted(request.table_id, request.range));
  }
  if (verb == Verb::kPaxosPrepareAndRead) {
    const PrepareAndReadRequest request = DecodePrepareAndReadRequest(payload);
    return EncodePrepareResponse(acceptor.Prepare(request.prepare.update.table_id,
                                                  request.prepare.update.partition,
                                                  request.prepare.ballot, request.reads));
  }
  Proposal request = DecodeProposal(payload);
  switch (verb) {
    case Verb::kPaxosPrepare:
      return EncodePrepareResponse(
          acceptor.Prepare(request.update.table_id, request.update.partition, request.ballot));
    case Verb::kPaxosPropose:
      return EncodeProposeResponse(acceptor.Propose(request));
    case Verb::kPaxosCommit:
      acceptor.Commit(request);
      return {};
    default:
      throw std::runtime_error("not a Paxos verb");
  }
}

void RegisterPaxosHandlers(messaging::MessagingService& messaging, PaxosAcceptor& acceptor,
                           BlockingRunner blocking) {
  for (const Verb verb : {Verb::kPaxosPrepare, Verb::kPaxosPropose, Verb::kPaxosCommit,
                          Verb::kPaxosUncommitted, Verb::kPaxosPrepareAndRead}) {
    messaging.RegisterHandler(verb, [&acceptor, blocking, verb](const messaging::Message& message,
                                                                messaging::Responder responder) {
      // A std::function must be copyable; the responder is not.
      auto shared = std::make_shared<messaging::Responder>(std::move(responder));
      auto work = [&acceptor, verb, payload = message.payload, shared] {
        if (!shared->expects_reply()) return;
        Bytes reply;
        try {
          reply = AnswerPaxosRequest(acceptor, verb, payload);
        } catch (const std::exception& e) {
          shared->Fail(messaging::FailureReason::kUnknown, e.what());
          return;
        }
        shared->Reply(std::move(reply));
      };
      if (blocking) {
        blocking(std::move(work));
      } else {
        work();
      }
    });
  }
}

}  // namespace sibyl::cluster::paxos
