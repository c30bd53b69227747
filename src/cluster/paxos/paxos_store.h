#pragma once
// A replica's Paxos state, kept in system.paxos as Cassandra 4.1 keeps it:
// one row per (partition key, table), `PRIMARY KEY ((row_key), cf_id)`,
// whose cells are written at their ballot's microsecond:
//
//   in_progress_ballot          the highest ballot promised
//   proposal_ballot, proposal   the proposal accepted and not yet committed
//   proposal_version            the format of `proposal`
//   most_recent_commit_at, most_recent_commit, most_recent_commit_version
//                               the last decision committed here
//
// `proposal` and `most_recent_commit` are the ballot's 16 bytes followed by
// the update (Mutation::SerializeTo): two values written at one
// microsecond by two proposers reconcile as the larger value does, which is
// then the larger ballot's, like the ballot columns beside them. (Cassandra
// writes the update alone; the bytes are this node's own business.)
//
// Every cell a promise, an acceptance or a commit writes expires
// LegacyPaxosTtlSeconds after it is written (4.1's legacy
// paxos_state_purging): a partition's state outlives any round that could
// still need it, then compaction drops it (system.paxos has gc_grace 0), so
// the table holds the partitions LWTs touched lately, not every one ever.
//
// A promise and an acceptance are fsynced before the store returns
// (Engine::ApplyAllSynced): a replica that answered "promised" or
// "accepted" still knows it after a kill -9. A commit writes the decided
// update and the row's new state in one write (Engine::ApplyAll, one
// RocksDB write batch), durable as commitlog_sync says, so no crash leaves
// a replica that applied a decision it does not remember, or the reverse.
//
// Thread-safety: a store may be used from any thread. Callers serialize
// the read-modify-write of one partition's state (paxos_acceptor.h).

#include <cstdint>
#include <optional>
#include <vector>

#include "cluster/paxos/ballot.h"
#include "storage/data/mutation.h"
#include "storage/engine.h"
#include "types/uuid.h"

namespace sibyl::cluster::paxos {

// A proposal: the update to a partition chosen under a ballot. Its cells
// carry the ballot's timestamp (the coordinator stamps them).
struct Proposal {
  Ballot ballot;
  storage::Mutation update;
  friend bool operator==(const Proposal&, const Proposal&) = default;
};

// Gives every cell and row marker of `update` the timestamp `micros` and
// every deletion (row, range, partition, collection) `micros - 1`, as Paxos
// writes a proposal (Cassandra's PartitionUpdate.updateAllTimestamp): what
// the statement said (USING TIMESTAMP, a default timestamp) is ignored.
void StampWithBallot(storage::Mutation& update, int64_t micros);

// How long Paxos state is kept for a table with `gc_grace_seconds`: at
// least three hours, and as long as its tombstones (4.1's
// legacyPaxosTtlSec).
[[nodiscard]] int32_t LegacyPaxosTtlSeconds(int32_t gc_grace_seconds);

// When a piece of state is written, and how long it lives.
struct PaxosWriteTime {
  int32_t now_seconds = 0;
  int32_t ttl_seconds = 0;  // > 0
};

// One partition's state on one replica. Null ballots and no proposals:
// nothing promised, accepted or committed.
struct PaxosState {
  Ballot promised;
  std::optional<Proposal> accepted;
  std::optional<Proposal> committed;
};

class PaxosStore {
 public:
  // The table id of system.paxos, as every node derives it.
  static types::Uuid TableId();

  // `engine` must outlive the store, and store system.paxos
  // (schema::IsStoredTable).
  explicit PaxosStore(storage::Engine& engine) : engine_(engine) {}

  // The state of partition `key` of table `table_id`. Throws
  // std::runtime_error when the stored row cannot be read back.
  [[nodiscard]] PaxosState Load(const types::Uuid& table_id, const storage::PartitionKey& key,
                                int32_t now_seconds) const;

  // The partitions of table `table_id` in `range` that hold an accepted
  // proposal with an update and newer than their last commit: what a SERIAL
  // read of the range must finish first. In token order.
  [[nodiscard]] std::vector<storage::PartitionKey> Uncommitted(const types::Uuid& table_id,
                                                               const storage::TokenRange& range,
                                                               int32_t now_seconds) const;

  // Records the promise of `ballot`, fsynced.
  void SavePromise(const types::Uuid& table_id, const storage::PartitionKey& key,
                   const Ballot& ballot, PaxosWriteTime when);
  // Records `proposal` as accepted (and its ballot as promised), fsynced.
  void SaveAccepted(const Proposal& proposal, PaxosWriteTime when);
  // Applies `decision.update` and records it as the most recent commit, in
  // one write; `forget_accepted` also clears the accepted proposal (the
  // caller's choice: only one no newer than the decision may go). Load
  // never returns an accepted proposal no newer than the committed one.
  void SaveCommitted(const Proposal& decision, bool forget_accepted, PaxosWriteTime when);

 private:
  storage::Engine& engine_;
};

}  // namespace sibyl::cluster::paxos
