#pragma once
// The coordinator's side of Paxos for lightweight transactions, as
// Cassandra 4.1 runs it with paxos_variant v1 (StorageProxy.cas, doPaxos,
// beginAndRepairPaxos, readWithPaxos), with v2's fast path when
// ClusterServices::paxos_variant says v2: one Paxos instance per partition
// among its replicas, no leader. Each attempt, within cas_contention_timeout:
//
//   1. prepare a new ballot at the live replicas; a quorum of them (of the
//      local datacenter's for LOCAL_SERIAL) must promise. A refusal: back
//      off 0-99 ms and try again above the ballot that won (a contention).
//   2. an accepted proposal newer than the last commit the promises carry is
//      finished first (proposed again under our ballot, committed at the
//      statement's level), and replicas behind the last commit get it; then
//      the attempt starts again. So does an attempt whose ballot is not of a
//      later microsecond than every ballot the promises carried, so that
//      each decision's writes are timestamped after the previous one's (a
//      SERIAL read that finishes nothing writes nothing, and goes on).
//   3. v2: the prepare carried the operation's reads (PAXOS2_PREPARE) and
//      each promiser read as it promised; when every promiser answered them
//      alike, the attempt decides on them (4.1's "Fast Read / Failed
//      Write"): a SERIAL read ends here, and so does a CAS whose condition
//      failed; one that applies goes on to 4. v1, or v2's promisers
//      answering differently: a CAS reads at QUORUM (LOCAL_QUORUM for
//      LOCAL_SERIAL) and decides; a SERIAL read decides nothing.
//   4. propose the update (an empty one when the condition failed, or for
//      a SERIAL read, which makes them linearizable as v1 does); then
//   5. commit it at the statement's level (an empty update is not
//      committed), the dead replicas hinted; a SERIAL read then reads at
//      QUORUM / LOCAL_QUORUM.
//
// Errors (CqlError), as 4.1's:
//   Unavailable "Cannot achieve consistency level SERIAL" when too few
//     participants are alive; the commit's Unavailable too.
//   WriteTimeout (write type CAS, contentions on v5) "CAS operation timed
//     out: received %d of %d required responses after %d contention
//     retries": contention past cas_contention_timeout, or a prepare or
//     propose round some replica did not answer; a commit that timed out
//     keeps its write type (SIMPLE).
//   CAS_WRITE_UNKNOWN "CAS operation result is unknown - proposal accepted
//     by %d but not a quorum." when every replica answered the proposal and
//     some but not a quorum accepted it (protocol v4 clients get a
//     WriteTimeout instead: protocol/response.h).
//   A SERIAL read gets ReadTimeout / ReadFailure for the write-side
//     timeouts and failures.
//
// Ballots come from the node's BallotGenerator; this node's own part of
// each round goes to its PaxosAcceptor through services.blocking, as do
// the decisions (`decide` may read).
//
// Thread-safety: Cas and SerialRead may be called from any thread. Their
// callbacks run exactly once, on a messaging, scheduler or blocking thread
// (or inside the call for an error found before anything was sent), and
// must not block.

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include "cluster/cluster_services.h"
#include "cluster/paxos/ballot.h"
#include "cluster/paxos/paxos_acceptor.h"
#include "cluster/paxos/paxos_metrics.h"
#include "cluster/read/read_coordinator.h"
#include "cluster/write/write_coordinator.h"
#include "storage/data/mutation.h"
#include "storage/data/read_command.h"

namespace sibyl::cluster::paxos {

// One lightweight transaction on one partition.
// How long Paxos state lives for table `table_id` as `view` defines it
// (LegacyPaxosTtlSeconds of its gc_grace_seconds; of the default when the
// view has no such table).
[[nodiscard]] int32_t PaxosTtlSeconds(const ClusterViewPtr& view, const types::Uuid& table_id);

struct CasOperation {
  types::Uuid table_id;
  storage::PartitionKey partition;
  // What the decision needs to see, read after the prepare (each on the
  // operation's partition).
  std::vector<storage::ReadCommand> reads;
  uint16_t serial_consistency = kConsistencySerial;  // SERIAL or LOCAL_SERIAL
  uint16_t commit_consistency = 0x0004;              // the statement's level (QUORUM)
  // The update to propose given what the reads returned, every cell at
  // `timestamp` (the ballot's microsecond; StampWithBallot); nullopt when
  // the condition does not hold. It may throw: the operation fails with it,
  // nothing written. It may be called more than once (a lost proposal is
  // retried with a new ballot and a new read): the last call's answer is
  // the outcome.
  std::function<std::optional<storage::Mutation>(const std::vector<storage::ReadResult>& reads,
                                                 int64_t timestamp)>
      decide;
};

class PaxosCoordinator {
 public:
  // `reads` is what the last decision saw.
  using CasCallback =
      std::function<void(std::vector<storage::ReadResult> reads, std::exception_ptr error)>;

  // All must outlive the coordinator. `seed` makes the back-off's random
  // waits (a simulated cluster replays them).
  PaxosCoordinator(const ClusterServices& services, ReadCoordinator& reads,
                   WriteCoordinator& writes, PaxosAcceptor& acceptor, BallotGenerator& ballots,
                   uint64_t seed);

  void Cas(CasOperation operation, CasCallback done);
  // A SERIAL or LOCAL_SERIAL read of one partition (`command.partitions`
  // names exactly one).
  void SerialRead(storage::ReadCommand command, uint16_t consistency,
                  ReadCoordinator::Callback done);
  // A SERIAL or LOCAL_SERIAL read of `command.range` (no partitions named),
  // which Cassandra 4.1 reads at QUORUM alone, so that a proposal a quorum
  // accepted but nobody committed may appear later. Here it sees every
  // decision made before it began: it asks every live node (of the local
  // datacenter for LOCAL_SERIAL) which partitions of the range hold an
  // unfinished proposal (PAXOS_UNCOMMITTED), finishes each with a Paxos
  // round (as SerialRead does), then reads the range at QUORUM
  // (LOCAL_QUORUM). A node that does not answer fails the read with a
  // ReadTimeout.
  void SerialRangeRead(storage::ReadCommand command, uint16_t consistency,
                       ReadCoordinator::Callback done);
  // Finishes every unfinished proposal of table `table_id` in `range`, as
  // SerialRangeRead does before it reads: 4.1's Paxos repair before a
  // topology change (repairPaxosForTopologyChange), so that a proposal a
  // quorum of the old replicas accepted is committed before the replicas
  // change. `done` gets null, or the error (a node that did not answer).
  void FinishUncommitted(const types::Uuid& table_id, const storage::TokenRange& range,
                         std::function<void(std::exception_ptr)> done);

  const PaxosMetrics& metrics() const { return metrics_; }

 private:
  class Attempts;
  class RangeFinisher;

  // Runs `work` on services_.blocking (inline when there is none): the
  // acceptor's fsyncs and a decision's work stay off messaging threads.
  void RunBlocking(std::function<void()> work);
  // This node's own acceptor's reply to `payload` under `verb`
  // (AnswerPaxosRequest), through RunBlocking; nullopt when it throws.
  void AskLocalAcceptor(messaging::Verb verb, std::shared_ptr<const Bytes> payload,
                        std::function<void(std::optional<Bytes>)> answer);
  // Counts how an operation of `kind` failed.
  void CountFailure(PaxosOperation kind, const std::exception_ptr& error);

  // A wait of 0-99 ms before retrying a contended round.
  messaging::Duration Backoff();

  const ClusterServices services_;
  ReadCoordinator& reads_;
  WriteCoordinator& writes_;
  PaxosAcceptor& acceptor_;
  BallotGenerator& ballots_;
  std::mutex random_mutex_;
  std::mt19937_64 random_;  // GUARDED_BY(random_mutex_)
  PaxosMetrics metrics_;
};

}  // namespace sibyl::cluster::paxos
