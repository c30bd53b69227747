#include "cluster/paxos/paxos_acceptor.h"

#include <algorithm>
#include <stdexcept>

#include "common/check.h"
#include "storage/codec/read_command_codec.h"

namespace sibyl::cluster::paxos {

namespace {

// The ballot a request must exceed: the highest promised or committed.
Ballot Highest(const PaxosState& state) {
  Ballot highest = state.promised;
  if (state.committed) highest = std::max(highest, state.committed->ballot);
  return highest;
}

}  // namespace

PrepareResponse PaxosAcceptor::Prepare(const types::Uuid& table_id,
                                       const storage::PartitionKey& key, const Ballot& ballot,
                                       std::span<const storage::ReadCommand> reads) {
  SIBYL_CHECK(!ballot.is_null(), "a prepare needs a ballot");
  for (const storage::ReadCommand& read : reads) {
    if (read.table_id != table_id || read.partitions.size() != 1 || read.partitions[0] != key) {
      throw std::invalid_argument("A Paxos prepare may only read its own partition");
    }
  }
  const auto lock = locks_.Lock(table_id, key);
  PaxosState state = store_.Load(table_id, key, clock_.NowSeconds());
  PrepareResponse response;
  const Ballot highest = Highest(state);
  if (ballot > highest) {
    store_.SavePromise(table_id, key, ballot, WriteTime(table_id));
    response.promised = true;
    // A read that fails (too many tombstones, say) still promises, with no
    // reads: the coordinator then reads as v1 does, and reports the
    // failure as a read reports it.
    try {
      response.reads.reserve(reads.size());
      for (const storage::ReadCommand& read : reads) {
        storage::SerializeReadResult(engine_.Read(read), response.reads.emplace_back());
      }
    } catch (const std::exception&) {
      response.reads.clear();
    }
  } else {
    response.refused_by = highest;
  }
  response.accepted = std::move(state.accepted);
  response.committed = std::move(state.committed);
  return response;
}

ProposeResponse PaxosAcceptor::Propose(const Proposal& proposal) {
  const storage::Mutation& update = proposal.update;
  const auto lock = locks_.Lock(update.table_id, update.partition);
  const PaxosState state = store_.Load(update.table_id, update.partition, clock_.NowSeconds());
  // The promised ballot itself may propose; a later one may too (it was
  // promised elsewhere, and nothing higher was promised here).
  const bool below_commit = state.committed && proposal.ballot <= state.committed->ballot;
  if (proposal.ballot < state.promised || below_commit) {
    return {.accepted = false, .refused_by = Highest(state)};
  }
  store_.SaveAccepted(proposal, WriteTime(update.table_id));
  return {.accepted = true, .refused_by = {}};
}

void PaxosAcceptor::Commit(const Proposal& decision) {
  const storage::Mutation& update = decision.update;
  const auto lock = locks_.Lock(update.table_id, update.partition);
  const PaxosWriteTime when = WriteTime(update.table_id);
  const PaxosState state = store_.Load(update.table_id, update.partition, when.now_seconds);
  const bool forget_accepted = !state.accepted || state.accepted->ballot <= decision.ballot;
  store_.SaveCommitted(decision, forget_accepted, when);
}

}  // namespace sibyl::cluster::paxos
