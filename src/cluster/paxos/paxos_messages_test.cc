// The Paxos verbs' payloads: every reply round-trips, and malformed bytes
// (truncated, unknown flags, bytes left over, a null or non-time ballot) are
// refused with an exception rather than read as something else.

#include "cluster/paxos/paxos_messages.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "cluster/paxos/paxos_verb_handlers.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::cluster::paxos {
namespace {

storage::Mutation UpdateOf(int32_t k, int64_t timestamp) {
  storage::Mutation m;
  m.table_id = types::Uuid::NameBased("paxos messages test");
  m.partition = {k, types::EncodeInt(k)};
  storage::RowWrite& row = m.rows.emplace_back();
  storage::CellWrite& cell = row.cells.emplace_back();
  cell.column = "v";
  cell.cell.timestamp = timestamp;
  cell.cell.value = types::EncodeInt(k * 10);
  return m;
}

TEST(PaxosMessagesTest, RepliesRoundTrip) {
  const Ballot low = Ballot::Make(1'700'000'000'000'001, 5);
  const Ballot high = Ballot::Make(1'700'000'000'000'002, 7);
  std::vector<PrepareResponse> prepares = {
      {.promised = true, .refused_by = {}, .accepted = std::nullopt, .committed = std::nullopt},
      {.promised = false, .refused_by = high, .accepted = std::nullopt, .committed = std::nullopt},
      {.promised = true,
       .refused_by = {},
       .accepted = Proposal{high, UpdateOf(1, high.micros())},
       .committed = Proposal{low, UpdateOf(2, low.micros())}},
  };
  PrepareResponse with_reads = prepares[2];
  with_reads.reads = {Bytes("first read"), Bytes()};
  prepares.push_back(with_reads);
  for (const PrepareResponse& response : prepares) {
    EXPECT_EQ(DecodePrepareResponse(EncodePrepareResponse(response)), response);
  }
  for (const ProposeResponse& response : {ProposeResponse{.accepted = true, .refused_by = {}},
                                          ProposeResponse{.accepted = false, .refused_by = low}}) {
    EXPECT_EQ(DecodeProposeResponse(EncodeProposeResponse(response)), response);
  }
  const Proposal proposal{high, UpdateOf(3, high.micros())};
  EXPECT_EQ(DecodeProposal(EncodeProposal(proposal)), proposal);
}

TEST(PaxosMessagesTest, PrepareAndReadRequestsRoundTripAndRefuseMalformedBytes) {
  const Ballot ballot = Ballot::Make(1'700'000'000'000'001, 5);
  storage::Mutation empty = UpdateOf(4, ballot.micros());
  empty.rows.clear();
  const Proposal prepare{ballot, empty};
  storage::ReadCommand read;
  read.table_id = empty.table_id;
  read.partitions = {empty.partition};
  read.now_seconds = 1'700'000'000;
  for (const std::vector<storage::ReadCommand>& reads :
       {std::vector<storage::ReadCommand>{}, std::vector<storage::ReadCommand>{read, read}}) {
    const Bytes bytes = EncodePrepareAndReadRequest(prepare, reads);
    const PrepareAndReadRequest decoded = DecodePrepareAndReadRequest(bytes);
    EXPECT_EQ(decoded.prepare, prepare);
    ASSERT_EQ(decoded.reads.size(), reads.size());
    for (const storage::ReadCommand& r : decoded.reads) {
      EXPECT_EQ(r.table_id, read.table_id);
      EXPECT_EQ(r.partitions, read.partitions);
    }
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      EXPECT_THROW((void)DecodePrepareAndReadRequest(BytesView(bytes).substr(0, cut)),
                   std::runtime_error)
          << cut;
    }
    EXPECT_THROW((void)DecodePrepareAndReadRequest(bytes + "x"), std::runtime_error);
  }
  // A count of reads no bytes could hold.
  Bytes huge = EncodePrepareAndReadRequest(prepare, {});
  huge.back() = '\x7f';
  EXPECT_THROW((void)DecodePrepareAndReadRequest(huge), std::runtime_error);
  // A reply flagging reads must carry some, each whole.
  Bytes reply = EncodePrepareResponse({.promised = true, .reads = {Bytes("r")}});
  EXPECT_EQ(DecodePrepareResponse(reply).reads, std::vector<Bytes>{Bytes("r")});
  for (size_t cut = 1; cut < reply.size(); ++cut) {
    EXPECT_THROW((void)DecodePrepareResponse(BytesView(reply).substr(0, cut)), std::runtime_error)
        << cut;
  }
  Bytes no_reads = EncodePrepareResponse({.promised = true});
  no_reads[0] = static_cast<char>(no_reads[0] | 8);
  no_reads.push_back('\0');
  EXPECT_THROW((void)DecodePrepareResponse(no_reads), std::runtime_error);
}

TEST(PaxosMessagesTest, MalformedBytesAreRefused) {
  const Ballot ballot = Ballot::Make(1'700'000'000'000'001, 5);
  const Bytes proposal = EncodeProposal(Proposal{ballot, UpdateOf(1, ballot.micros())});
  EXPECT_THROW((void)DecodeProposal(BytesView(proposal).substr(0, 10)), std::runtime_error);
  EXPECT_THROW((void)DecodeProposal(BytesView(proposal).substr(0, proposal.size() - 1)),
               std::runtime_error);
  EXPECT_THROW((void)DecodeProposal(Bytes(16, '\0') + proposal.substr(16)), std::runtime_error);
  Bytes random_uuid = types::Uuid::Random().ToBytes() + proposal.substr(16);
  EXPECT_THROW((void)DecodeProposal(random_uuid), std::runtime_error);

  Bytes prepare = EncodePrepareResponse({.promised = true,
                                         .refused_by = {},
                                         .accepted = Proposal{ballot, UpdateOf(1, 1)},
                                         .committed = std::nullopt});
  EXPECT_THROW((void)DecodePrepareResponse(BytesView(prepare).substr(0, prepare.size() - 1)),
               std::runtime_error);
  EXPECT_THROW((void)DecodePrepareResponse(prepare + "x"), std::runtime_error);
  Bytes flags = prepare;
  flags[0] = '\x08';
  EXPECT_THROW((void)DecodePrepareResponse(flags), std::runtime_error);
  EXPECT_THROW((void)DecodePrepareResponse(""), std::runtime_error);
  EXPECT_THROW((void)DecodeProposeResponse(Bytes(17, '\2')), std::runtime_error);
  EXPECT_THROW((void)DecodeProposeResponse(Bytes(3, '\0')), std::runtime_error);
}

TEST(PaxosMessagesTest, UncommittedRequestsAndRepliesRoundTrip) {
  const UncommittedRequest request{types::Uuid::NameBased("ks.t"), {-5, 1'234'567'890'123}};
  EXPECT_EQ(DecodeUncommittedRequest(EncodeUncommittedRequest(request)), request);
  const std::vector<storage::PartitionKey> keys = {{-7, Bytes("\0\0\0\1", 4)}, {9, Bytes("k")}};
  EXPECT_EQ(DecodeUncommittedResponse(EncodeUncommittedResponse(keys)), keys);
  EXPECT_EQ(DecodeUncommittedResponse(""), std::vector<storage::PartitionKey>{});
  const Bytes encoded = EncodeUncommittedRequest(request);
  EXPECT_THROW((void)DecodeUncommittedRequest(BytesView(encoded).substr(0, 20)),
               std::runtime_error);
  EXPECT_THROW((void)DecodeUncommittedRequest(encoded + "x"), std::runtime_error);
  const Bytes reply = EncodeUncommittedResponse(keys);
  EXPECT_THROW((void)DecodeUncommittedResponse(BytesView(reply).substr(0, reply.size() - 1)),
               std::runtime_error);
  EXPECT_THROW((void)DecodeUncommittedResponse(Bytes(8, '\0') + "\xff"), std::runtime_error);
}

TEST(PaxosMessagesTest, AReplicaRefusesAMalformedRequest) {
  storage::ReferenceEngine engine;
  ManualClock clock;
  PaxosAcceptor acceptor(engine, clock, [](const types::Uuid&) { return 3 * 3600; });
  for (const messaging::Verb verb :
       {messaging::Verb::kPaxosPrepare, messaging::Verb::kPaxosPropose,
        messaging::Verb::kPaxosCommit, messaging::Verb::kPaxosUncommitted,
        messaging::Verb::kPaxosPrepareAndRead}) {
    EXPECT_THROW((void)AnswerPaxosRequest(acceptor, verb, "garbage"), std::runtime_error);
  }
  EXPECT_THROW((void)AnswerPaxosRequest(acceptor, messaging::Verb::kRead, "garbage"),
               std::runtime_error);
}

}  // namespace
}  // namespace sibyl::cluster::paxos
