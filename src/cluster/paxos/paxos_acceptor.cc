#include "cluster/paxos/paxos_acceptor.h"

#include <algorithm>

#include "common/check.h"

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
                                       const storage::PartitionKey& key, const Ballot& ballot) {
  SIBYL_CHECK(!ballot.is_null(), "a prepare needs a ballot");
  const auto lock = locks_.Lock(table_id, key);
  PaxosState state = store_.Load(table_id, key, clock_.NowSeconds());
  PrepareResponse response;
  const Ballot highest = Highest(state);
  if (ballot > highest) {
    store_.SavePromise(table_id, key, ballot, WriteTime(table_id));
    response.promised = true;
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
