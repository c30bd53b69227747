#include "cluster/paxos/paxos_store.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cluster/paxos/paxos_messages.h"
#include "dht/token.h"
#include "schema/table_builder.h"
#include "types/value_codec.h"

namespace sibyl::cluster::paxos {

namespace {

// The format of `proposal` and `most_recent_commit` (paxos_store.h).
constexpr int32_t kPaxosValueVersion = 1;

// system.paxos's partition for a partition of a user table: its row_key is
// that partition's key.
storage::PartitionKey PaxosPartition(const storage::PartitionKey& key) {
  return {dht::Murmur3Token(key.key), key.key};
}

Bytes BallotValue(const Ballot& ballot) { return ballot.ToUuid().ToBytes(); }

// Live until `when.ttl_seconds` from now.
storage::CellWrite LiveCell(const char* column, const Ballot& ballot, Bytes value,
                            const PaxosWriteTime& when) {
  storage::Cell cell;
  cell.kind = storage::Cell::Kind::kExpiring;
  cell.timestamp = ballot.micros();
  cell.ttl = when.ttl_seconds;
  cell.local_deletion_time = static_cast<int32_t>(std::min<int64_t>(
      int64_t{when.now_seconds} + when.ttl_seconds, storage::kNoDeletionTime - 1));
  cell.value = std::move(value);
  return {column, std::nullopt, std::move(cell)};
}

// Deleted just below `ballot`'s microsecond: a tombstone wins a tie with a
// live cell, and a proposal accepted later at that very microsecond (with a
// larger ballot) must survive it.
storage::CellWrite DeletedBelow(const char* column, const Ballot& ballot, int32_t now_seconds) {
  storage::Cell cell;
  cell.kind = storage::Cell::Kind::kTombstone;
  cell.timestamp = ballot.micros() - 1;
  cell.local_deletion_time = now_seconds;
  return {column, std::nullopt, std::move(cell)};
}

// The row of system.paxos for (table_id, key), with `cells`.
storage::Mutation PaxosRow(const types::Uuid& table_id, const storage::PartitionKey& key,
                           std::vector<storage::CellWrite> cells) {
  storage::Mutation mutation;
  mutation.table_id = PaxosStore::TableId();
  mutation.partition = PaxosPartition(key);
  storage::RowWrite& row = mutation.rows.emplace_back();
  row.clustering = {table_id.ToBytes()};
  row.cells = std::move(cells);
  return mutation;
}

const Bytes* FindValue(const storage::ReadRow& row, std::string_view column) {
  for (const storage::ReadCell& cell : row.cells) {
    if (cell.column == column) return &cell.value;
  }
  return nullptr;
}

Ballot ParseBallot(const Bytes& value, std::string_view column) {
  std::optional<Ballot> ballot;
  if (value.size() == 16) ballot = Ballot::FromUuid(types::Uuid::FromBytes(value));
  if (!ballot) throw std::runtime_error("system.paxos holds no ballot in " + std::string(column));
  return *ballot;
}

std::optional<Proposal> ParseProposal(const storage::ReadRow& row, std::string_view column) {
  const Bytes* value = FindValue(row, column);
  if (value == nullptr) return std::nullopt;
  try {
    return DecodeProposal(*value);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("system.paxos holds no proposal in " + std::string(column) + ": " +
                             e.what());
  }
}

}  // namespace

void StampWithBallot(storage::Mutation& update, int64_t micros) {
  if (!update.partition_deletion.is_live())
    update.partition_deletion.marked_for_delete_at = micros - 1;
  for (auto& range : update.range_tombstones) range.deletion.marked_for_delete_at = micros - 1;
  for (auto& row : update.rows) {
    if (!row.marker.is_empty()) row.marker.timestamp = micros;
    if (!row.deletion.is_live()) row.deletion.marked_for_delete_at = micros - 1;
    for (auto& deletion : row.collection_deletions) {
      deletion.deletion.marked_for_delete_at = micros - 1;
    }
    for (auto& cell : row.cells) cell.cell.timestamp = micros;
  }
}

int32_t LegacyPaxosTtlSeconds(int32_t gc_grace_seconds) {
  constexpr int32_t kThreeHours = 3 * 3600;
  return std::max(kThreeHours, gc_grace_seconds);
}

types::Uuid PaxosStore::TableId() { return schema::SystemTableId("system", "paxos"); }

std::vector<storage::PartitionKey> PaxosStore::Uncommitted(const types::Uuid& table_id,
                                                           const storage::TokenRange& range,
                                                           int32_t now_seconds) const {
  storage::ReadCommand command;
  command.table_id = TableId();
  command.range = range;  // system.paxos's tokens are the user partitions'
  command.slices = {storage::ClusteringSlice::Point({table_id.ToBytes()})};
  command.columns = std::vector<std::string>{"proposal", "most_recent_commit_at"};
  command.now_seconds = now_seconds;
  std::vector<storage::PartitionKey> keys;
  for (const storage::ReadPartition& partition : engine_.Read(command).partitions) {
    for (const storage::ReadRow& row : partition.rows) {
      std::optional<Proposal> accepted = ParseProposal(row, "proposal");
      if (!accepted || accepted->update.empty()) continue;
      if (const Bytes* committed = FindValue(row, "most_recent_commit_at")) {
        if (accepted->ballot <= ParseBallot(*committed, "most_recent_commit_at")) continue;
      }
      keys.push_back(std::move(accepted->update.partition));
    }
  }
  return keys;
}

PaxosState PaxosStore::Load(const types::Uuid& table_id, const storage::PartitionKey& key,
                            int32_t now_seconds) const {
  storage::ReadCommand command;
  command.table_id = TableId();
  command.partitions = {PaxosPartition(key)};
  command.slices = {storage::ClusteringSlice::Point({table_id.ToBytes()})};
  command.now_seconds = now_seconds;
  const storage::ReadResult result = engine_.Read(command);
  PaxosState state;
  if (result.partitions.empty() || result.partitions.front().rows.empty()) return state;
  const storage::ReadRow& row = result.partitions.front().rows.front();
  if (const Bytes* promised = FindValue(row, "in_progress_ballot")) {
    state.promised = ParseBallot(*promised, "in_progress_ballot");
  }
  state.accepted = ParseProposal(row, "proposal");
  state.committed = ParseProposal(row, "most_recent_commit");
  // A proposal of the commit's microsecond outlives the commit's deletion
  // of it (DeletedBelow); one no newer than the commit is decided.
  if (state.accepted && state.committed && state.accepted->ballot <= state.committed->ballot) {
    state.accepted.reset();
  }
  return state;
}

void PaxosStore::SavePromise(const types::Uuid& table_id, const storage::PartitionKey& key,
                             const Ballot& ballot, PaxosWriteTime when) {
  const storage::Mutation row =
      PaxosRow(table_id, key, {LiveCell("in_progress_ballot", ballot, BallotValue(ballot), when)});
  engine_.ApplyAllSynced({&row});
}

void PaxosStore::SaveAccepted(const Proposal& proposal, PaxosWriteTime when) {
  const Ballot& ballot = proposal.ballot;
  const storage::Mutation row =
      PaxosRow(proposal.update.table_id, proposal.update.partition,
               {LiveCell("in_progress_ballot", ballot, BallotValue(ballot), when),
                LiveCell("proposal", ballot, EncodeProposal(proposal), when),
                LiveCell("proposal_ballot", ballot, BallotValue(ballot), when),
                LiveCell("proposal_version", ballot, types::EncodeInt(kPaxosValueVersion), when)});
  engine_.ApplyAllSynced({&row});
}

void PaxosStore::SaveCommitted(const Proposal& decision, bool forget_accepted,
                               PaxosWriteTime when) {
  const Ballot& ballot = decision.ballot;
  std::vector<storage::CellWrite> cells = {
      LiveCell("most_recent_commit", ballot, EncodeProposal(decision), when),
      LiveCell("most_recent_commit_at", ballot, BallotValue(ballot), when),
      LiveCell("most_recent_commit_version", ballot, types::EncodeInt(kPaxosValueVersion), when)};
  if (forget_accepted) {
    cells.push_back(DeletedBelow("proposal", ballot, when.now_seconds));
    cells.push_back(DeletedBelow("proposal_ballot", ballot, when.now_seconds));
    cells.push_back(DeletedBelow("proposal_version", ballot, when.now_seconds));
  }
  const storage::Mutation row =
      PaxosRow(decision.update.table_id, decision.update.partition, std::move(cells));
  std::vector<const storage::Mutation*> write = {&row};
  if (!decision.update.empty()) write.push_back(&decision.update);
  engine_.ApplyAll(write);
}

}  // namespace sibyl::cluster::paxos
