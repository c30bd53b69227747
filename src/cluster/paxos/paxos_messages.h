#pragma once
// The payloads of the Paxos verbs (messaging/verb.h), and the encoding of a
// proposal that system.paxos stores too (paxos_store.h):
//
//   proposal          ballot (16 bytes: its timeuuid) + the update
//                     (Mutation::SerializeTo)
//   PAXOS_PREPARE     request: a proposal whose update is empty, naming the
//                     table and partition; reply: flags (1: promised,
//                     2: an accepted proposal follows, 4: a commit follows),
//                     the refusing ballot (16 bytes, zeros when promised),
//                     then each proposal present as a vint length and its
//                     bytes, the accepted one first
//   PAXOS_PROPOSE     request: the proposal; reply: 1 byte (accepted), the
//                     refusing ballot (16 bytes)
//   PAXOS_COMMIT      request: the decision (a proposal); reply: empty
//
// Decoders throw std::runtime_error on malformed bytes (the handlers fail
// the request with it).
//
// Pure functions: safe from any thread.

#include "cluster/paxos/paxos_acceptor.h"
#include "cluster/paxos/paxos_store.h"
#include "common/bytes.h"

namespace sibyl::cluster::paxos {

void EncodeProposal(const Proposal& proposal, Bytes& out);
[[nodiscard]] Bytes EncodeProposal(const Proposal& proposal);
// REQUIRES of the bytes: a non-null ballot, then one whole update.
[[nodiscard]] Proposal DecodeProposal(BytesView bytes);

// A ballot as 16 bytes; the null ballot as zeros.
void EncodeBallot(const Ballot& ballot, Bytes& out);
[[nodiscard]] Ballot DecodeBallot(BytesView bytes);

[[nodiscard]] Bytes EncodePrepareResponse(const PrepareResponse& response);
[[nodiscard]] PrepareResponse DecodePrepareResponse(BytesView bytes);
[[nodiscard]] Bytes EncodeProposeResponse(const ProposeResponse& response);
[[nodiscard]] ProposeResponse DecodeProposeResponse(BytesView bytes);

}  // namespace sibyl::cluster::paxos
