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
//   PAXOS2_PREPARE    request: a vint length and a proposal as PAXOS_PREPARE's,
//                     then a vint count of reads, each a vint length and a
//                     storage::SerializeReadCommand; reply: PAXOS_PREPARE's
//                     with flag 8 when reads follow, then a vint count and
//                     each read's result as a vint length and the bytes
//   PAXOS_UNCOMMITTED request: a table id (16 bytes), then a token range's
//                     start and end (8 bytes each, big-endian); reply: the
//                     partitions there with an unfinished proposal
//                     (PaxosStore::Uncommitted), each its token (8 bytes)
//                     and its key (a vint length and the bytes)
//
// Decoders throw std::runtime_error on malformed bytes (the handlers fail
// the request with it).
//
// Pure functions: safe from any thread.

#include <vector>

#include "cluster/paxos/paxos_acceptor.h"
#include "cluster/paxos/paxos_store.h"
#include "common/bytes.h"
#include "storage/data/read_command.h"

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

// PAXOS2_PREPARE's request: a prepare that reads when it promises.
struct PrepareAndReadRequest {
  Proposal prepare;  // the ballot, with an empty update naming the partition
  std::vector<storage::ReadCommand> reads;
};
[[nodiscard]] Bytes EncodePrepareAndReadRequest(const Proposal& prepare,
                                                const std::vector<storage::ReadCommand>& reads);
[[nodiscard]] PrepareAndReadRequest DecodePrepareAndReadRequest(BytesView bytes);

struct UncommittedRequest {
  types::Uuid table_id;
  storage::TokenRange range;
  friend bool operator==(const UncommittedRequest& a, const UncommittedRequest& b) {
    return a.table_id == b.table_id && a.range.start == b.range.start && a.range.end == b.range.end;
  }
};
[[nodiscard]] Bytes EncodeUncommittedRequest(const UncommittedRequest& request);
[[nodiscard]] UncommittedRequest DecodeUncommittedRequest(BytesView bytes);
[[nodiscard]] Bytes EncodeUncommittedResponse(const std::vector<storage::PartitionKey>& keys);
[[nodiscard]] std::vector<storage::PartitionKey> DecodeUncommittedResponse(BytesView bytes);

}  // namespace sibyl::cluster::paxos
