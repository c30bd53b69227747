#pragma once
// The replica side of Paxos for lightweight transactions (Cassandra's
// PaxosState.prepare / propose / commit), per partition of a table, over
// the state in system.paxos (paxos_store.h):
//
//   Prepare(b)  promises b when b is above every ballot promised and the
//               last committed one; answers with the proposal accepted and
//               not committed, and the last commit, either way. Paxos v2's
//               prepare also reads the partition when it promises, under
//               the lock, so the reads show exactly the commits named.
//   Propose(p)  accepts p when its ballot is at least the one promised and
//               above the last committed one.
//   Commit(d)   applies the decision's update and records it, forgetting
//               the accepted proposal unless that is newer.
//
// A refusal names the ballot that beat the request: the coordinator's next
// ballot must exceed it. Promises and acceptances are on disk (fsynced)
// before these return.
//
// Thread-safety: every method may be called from any thread; those on one
// partition are serialized by a per-partition lock held across the state's
// read and write (which may wait for an fsync: only that partition's other
// Paxos requests wait).

#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cluster/paxos/ballot.h"
#include "cluster/paxos/paxos_store.h"
#include "common/clock.h"
#include "storage/engine.h"
#include "storage/partition_locks.h"

namespace sibyl::cluster::paxos {

struct PrepareResponse {
  bool promised = false;
  // When refused: the ballot that beat it (promised, or last committed).
  Ballot refused_by;
  std::optional<Proposal> accepted;   // accepted here and not yet committed
  std::optional<Proposal> committed;  // the last decision committed here
  // When promised, each read the prepare carried, its result as
  // storage::SerializeReadResult writes it (replicas that agree answer
  // alike, byte for byte; the coordinator decodes the one it uses).
  std::vector<Bytes> reads;
  friend bool operator==(const PrepareResponse&, const PrepareResponse&) = default;
};

struct ProposeResponse {
  bool accepted = false;
  Ballot refused_by;  // when refused
  friend bool operator==(const ProposeResponse&, const ProposeResponse&) = default;
};

// The seconds a table's Paxos state lives (LegacyPaxosTtlSeconds of its
// gc_grace_seconds). Called from any thread.
using PaxosTtlOf = std::function<int32_t(const types::Uuid& table_id)>;

class PaxosAcceptor {
 public:
  // Both must outlive the acceptor; `engine` stores system.paxos.
  PaxosAcceptor(storage::Engine& engine, Clock& clock, PaxosTtlOf ttl_of)
      : engine_(engine), store_(engine), clock_(clock), ttl_of_(std::move(ttl_of)) {}

  // REQUIRES: !ballot.is_null(). When it promises, `reads` (each of this
  // partition: std::invalid_argument otherwise) are read under the lock.
  [[nodiscard]] PrepareResponse Prepare(const types::Uuid& table_id,
                                        const storage::PartitionKey& key, const Ballot& ballot,
                                        std::span<const storage::ReadCommand> reads = {});
  [[nodiscard]] ProposeResponse Propose(const Proposal& proposal);
  void Commit(const Proposal& decision);

  // PaxosStore::Uncommitted, as of now.
  [[nodiscard]] std::vector<storage::PartitionKey> Uncommitted(
      const types::Uuid& table_id, const storage::TokenRange& range) const {
    return store_.Uncommitted(table_id, range, clock_.NowSeconds());
  }

  // The partition's state as stored (tests, SERIAL reads' repair).
  [[nodiscard]] PaxosState Load(const types::Uuid& table_id,
                                const storage::PartitionKey& key) const {
    return store_.Load(table_id, key, clock_.NowSeconds());
  }

 private:
  PaxosWriteTime WriteTime(const types::Uuid& table_id) const {
    return {clock_.NowSeconds(), ttl_of_(table_id)};
  }

  const storage::Engine& engine_;
  PaxosStore store_;
  Clock& clock_;
  const PaxosTtlOf ttl_of_;
  storage::PartitionLocks locks_;
};

}  // namespace sibyl::cluster::paxos
