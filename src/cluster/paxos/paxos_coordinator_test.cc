// Paxos among the replicas of a simulated cluster (paxos_coordinator.h):
// transactions decided once, on every replica's data and Paxos state;
// unfinished rounds finished by the next one; replicas behind brought up to
// date; concurrent proposers on one partition never losing an update, also
// with messages dropped, delayed and duplicated; and 4.1's errors.

#include "cluster/paxos/paxos_coordinator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/paxos/paxos_store.h"
#include "cluster/simulated_cluster_test_util.h"
#include "cluster/write/write_test_util.h"
#include "storage/storage_test_util.h"
#include "types/value_codec.h"

namespace sibyl::cluster::testing {
namespace {

constexpr uint16_t kSerial = kConsistencySerial;
constexpr uint16_t kLocalSerial = kConsistencyLocalSerial;

// The value of row (k, 0) in a read, if any.
std::optional<int32_t> ValueIn(const storage::ReadResult& result) {
  for (const auto& partition : result.partitions) {
    for (const auto& row : partition.rows) {
      for (const auto& cell : row.cells) {
        if (cell.column == "v") return types::DecodeInt(cell.value);
      }
    }
  }
  return std::nullopt;
}

storage::ReadCommand ReadRow(const SimulatedCluster& cluster, int32_t k) {
  storage::ReadCommand command;
  command.table_id = cluster.table().id;
  command.partitions = {KeyOf(k)};
  command.now_seconds = 1'700'000'000;
  return command;
}

// One transaction's end.
struct Outcome {
  bool done = false;
  bool applied = false;
  std::optional<int32_t> seen;  // v as the deciding read saw it
  std::exception_ptr error;
};

// UPDATE ks.t SET v = to WHERE k = k AND c = 0 IF v = from (`from`
// nullopt: INSERT ... IF NOT EXISTS), started from node `i`; `outcome` is
// filled in when it ends.
void StartCas(SimulatedCluster& cluster, int i, int32_t k, std::optional<int32_t> from, int32_t to,
              Outcome& outcome, uint16_t serial = kSerial, uint16_t commit = kQuorum) {
  paxos::CasOperation operation;
  operation.table_id = cluster.table().id;
  operation.partition = KeyOf(k);
  operation.reads = {ReadRow(cluster, k)};
  operation.serial_consistency = serial;
  operation.commit_consistency = commit;
  operation.decide = [&cluster, &outcome, k, from, to](
                         const std::vector<storage::ReadResult>& reads,
                         int64_t timestamp) -> std::optional<storage::Mutation> {
    outcome.seen = ValueIn(reads.front());
    outcome.applied = outcome.seen == from;
    if (!outcome.applied) return std::nullopt;
    return RowMutation(cluster, k, 0, to, timestamp);
  };
  cluster.node(i).coordinator->paxos().Cas(
      std::move(operation), [&outcome](std::vector<storage::ReadResult>, std::exception_ptr error) {
        outcome.done = true;
        outcome.error = error;
      });
}

Outcome RunCas(SimulatedCluster& cluster, int i, int32_t k, std::optional<int32_t> from, int32_t to,
               uint16_t serial = kSerial, uint16_t commit = kQuorum) {
  Outcome outcome;
  StartCas(cluster, i, k, from, to, outcome, serial, commit);
  cluster.RunUntil([&] { return outcome.done; });
  return outcome;
}

std::pair<storage::ReadResult, std::exception_ptr> SerialRead(SimulatedCluster& cluster, int i,
                                                              int32_t k,
                                                              uint16_t serial = kSerial) {
  std::optional<std::pair<storage::ReadResult, std::exception_ptr>> outcome;
  cluster.node(i).coordinator->paxos().SerialRead(
      ReadRow(cluster, k), serial, [&](storage::ReadResult result, std::exception_ptr error) {
        outcome.emplace(std::move(result), error);
      });
  cluster.RunUntil([&] { return outcome.has_value(); });
  return std::move(*outcome);
}

// Node `i`'s Paxos state for partition k of ks.t.
paxos::PaxosState StateOn(SimulatedCluster& cluster, int i, int32_t k) {
  return paxos::PaxosStore(cluster.node(i).engine)
      .Load(cluster.table().id, KeyOf(k), 1'700'000'000);
}

// What a coordinator leaves when it dies once two replicas (replicas[0] and
// [1]) accepted its proposal v = value for row (k, 0), before any commit:
// its ballot.
paxos::Ballot AcceptOnTwoReplicas(SimulatedCluster& cluster, const std::vector<int>& replicas,
                                  int32_t k, int32_t value) {
  storage::testing::ScratchDir dir;
  std::filesystem::create_directories(dir.path());
  paxos::BallotGenerator ballots(cluster.node(0).clock, 77, dir.path() / "ballots");
  const paxos::Ballot ballot = ballots.Next();
  for (int r : {replicas[0], replicas[1]}) {
    paxos::PaxosAcceptor acceptor(cluster.node(r).engine, cluster.node(r).clock,
                                  [](const types::Uuid&) { return 3 * 3600; });
    EXPECT_TRUE(acceptor.Prepare(cluster.table().id, KeyOf(k), ballot).promised);
    EXPECT_TRUE(
        acceptor.Propose({ballot, RowMutation(cluster, k, 0, value, ballot.micros())}).accepted);
  }
  return ballot;
}

// Every case runs with both paxos_variant settings; the rounds they send
// differ (v2 decides a failed condition or a quiet SERIAL read at the
// prepare), what they decide does not.
class PaxosCoordinatorTest : public ::testing::TestWithParam<PaxosVariant> {};

INSTANTIATE_TEST_SUITE_P(Variants, PaxosCoordinatorTest,
                         ::testing::Values(PaxosVariant::kV1, PaxosVariant::kV2),
                         [](const ::testing::TestParamInfo<PaxosVariant>& info) {
                           return info.param == PaxosVariant::kV1 ? "v1" : "v2";
                         });

TEST_P(PaxosCoordinatorTest, InsertIfNotExistsIsDecidedOnceAndRecordedOnEveryReplica) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 31, .paxos_variant = variant});
  const Outcome first = RunCas(cluster, 0, 1, std::nullopt, 10);
  ASSERT_EQ(first.error, nullptr);
  EXPECT_TRUE(first.applied);
  const Outcome second = RunCas(cluster, 1, 1, std::nullopt, 20);
  ASSERT_EQ(second.error, nullptr);
  EXPECT_FALSE(second.applied);
  EXPECT_EQ(second.seen, 10);
  // Committed at QUORUM: every replica has it once the commits land.
  cluster.RunUntil([&] { return StoredRow(cluster, 2, 1, 0).has_value(); });
  std::optional<paxos::Ballot> committed;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(StoredRow(cluster, i, 1, 0)->value, 10) << "node " << i;
    const paxos::PaxosState state = StateOn(cluster, i, 1);
    ASSERT_TRUE(state.committed) << "node " << i;
    if (committed) EXPECT_EQ(state.committed->ballot, *committed);
    committed = state.committed->ballot;
    // The value was written at the ballot's microsecond.
    EXPECT_EQ(StoredRow(cluster, i, 1, 0)->timestamp, committed->micros());
    if (variant == PaxosVariant::kV1) {
      // The second transaction's empty proposal is accepted, never committed.
      ASSERT_TRUE(state.accepted.has_value()) << "node " << i;
      EXPECT_TRUE(state.accepted->update.empty());
      EXPECT_GT(state.accepted->ballot, *committed);
    } else {
      // v2 proposes nothing for a condition that failed on its promises' reads.
      EXPECT_FALSE(state.accepted.has_value()) << "node " << i;
    }
  }
  // What each coordinator counted: one transaction each, the second's
  // condition not met; a prepare, a propose (v1: the second's too) and
  // (the first) a commit.
  using paxos::PaxosOperation;
  using paxos::PaxosPhase;
  const paxos::PaxosMetrics& one = cluster.node(0).coordinator->paxos().metrics();
  const paxos::PaxosMetrics& two = cluster.node(1).coordinator->paxos().metrics();
  EXPECT_EQ(one.Counts(PaxosOperation::kTransaction).started, 1u);
  EXPECT_EQ(one.Counts(PaxosOperation::kTransaction).conditions_not_met, 0u);
  EXPECT_EQ(two.Counts(PaxosOperation::kTransaction).conditions_not_met, 1u);
  EXPECT_EQ(one.Rounds(PaxosPhase::kPrepare), 1u);
  EXPECT_EQ(one.Rounds(PaxosPhase::kPropose), 1u);
  EXPECT_EQ(two.Rounds(PaxosPhase::kPropose), variant == PaxosVariant::kV1 ? 1u : 0u);
  EXPECT_EQ(two.Rounds(PaxosPhase::kCommit), 0u);
  const uint64_t decided_at_prepare = variant == PaxosVariant::kV1 ? 0u : 1u;
  EXPECT_EQ(one.Counts(PaxosOperation::kTransaction).decided_at_prepare, decided_at_prepare);
  EXPECT_EQ(two.Counts(PaxosOperation::kTransaction).decided_at_prepare, decided_at_prepare);
  EXPECT_EQ(one.Counts(PaxosOperation::kSerialRead).started, 0u);
}

// v2's one round trip: a SERIAL read with nothing in flight is answered
// from the reads its promises carried, proposing nothing.
TEST(PaxosV2Test, AQuietSerialReadIsOnePrepare) {
  SimulatedCluster cluster({.nodes = 3, .seed = 71, .paxos_variant = PaxosVariant::kV2});
  ASSERT_TRUE(RunCas(cluster, 0, 1, std::nullopt, 10).applied);
  cluster.RunUntil([&] { return StoredRow(cluster, 2, 1, 0).has_value(); });
  const paxos::PaxosMetrics& metrics = cluster.node(1).coordinator->paxos().metrics();
  const auto [read, error] = SerialRead(cluster, 1, 1);
  ASSERT_EQ(error, nullptr);
  EXPECT_EQ(ValueIn(read), 10);
  EXPECT_EQ(metrics.Rounds(paxos::PaxosPhase::kPrepare), 1u);
  EXPECT_EQ(metrics.Rounds(paxos::PaxosPhase::kPropose), 0u);
  EXPECT_EQ(metrics.Rounds(paxos::PaxosPhase::kCommit), 0u);
  EXPECT_EQ(metrics.Counts(paxos::PaxosOperation::kSerialRead).decided_at_prepare, 1u);
  // A read of a partition nobody wrote is as quiet.
  const auto [nothing, none_error] = SerialRead(cluster, 1, 2);
  ASSERT_EQ(none_error, nullptr);
  EXPECT_EQ(ValueIn(nothing), std::nullopt);
  EXPECT_EQ(metrics.Rounds(paxos::PaxosPhase::kPropose), 0u);
}

// Promisers whose reads differ (here a write that reached one replica
// only) are not answered from: v1's QUORUM read reconciles and repairs them.
TEST(PaxosV2Test, PromisersThatReadDifferentlyFallBackToTheQuorumRead) {
  SimulatedCluster cluster({.nodes = 3, .seed = 72, .paxos_variant = PaxosVariant::kV2});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 3);
  ASSERT_TRUE(RunCas(cluster, replicas[0], 3, std::nullopt, 1).applied);
  cluster.RunUntil([&] {
    for (int r : replicas) {
      if (!StoredRow(cluster, r, 3, 0).has_value()) return false;
    }
    return true;
  });
  // A later plain write that only one replica got; the next ballot is
  // later still.
  const int64_t later = StoredRow(cluster, replicas[0], 3, 0)->timestamp + 1;
  cluster.node(replicas[1]).engine.Apply(RowMutation(cluster, 3, 0, 2, later));
  for (int i = 0; i < 3; ++i) cluster.node(i).clock.AdvanceSeconds(1);
  // The promisers are the coordinator, without the write, and the one with.
  cluster.Kill(replicas[2]);
  const paxos::PaxosMetrics& metrics = cluster.node(replicas[0]).coordinator->paxos().metrics();
  const Outcome outcome = RunCas(cluster, replicas[0], 3, 2, 3);
  ASSERT_EQ(outcome.error, nullptr) << ErrorOf(outcome.error).what();
  EXPECT_EQ(outcome.seen, 2);
  EXPECT_TRUE(outcome.applied);
  cluster.RunUntil([&] {
    return StoredRow(cluster, replicas[0], 3, 0)->value == 3 &&
           StoredRow(cluster, replicas[1], 3, 0)->value == 3;
  });
  // The first transaction was decided at its prepare, the second not.
  EXPECT_EQ(metrics.Counts(paxos::PaxosOperation::kTransaction).decided_at_prepare, 1u);
}

// 4.1's ReplicaPlans.forPaxos: the replicas gaining a range take part, a
// quorum counted over natural and pending together.
TEST_P(PaxosCoordinatorTest, APendingReplicaTakesPartAndCountsInTheQuorum) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 4,
                            .seed = 85,
                            .paxos_variant = variant,
                            .states = {{3, metadata::NodeState::kJoining}}});
  const int32_t k = KeyPendingOn(cluster, {3});
  const std::vector<int> natural = ReplicaIndexes(cluster, k);
  ASSERT_TRUE(RunCas(cluster, natural[0], k, std::nullopt, 10).applied);
  cluster.RunUntil([&] { return StoredRow(cluster, 3, k, 0).has_value(); });
  EXPECT_EQ(StoredRow(cluster, 3, k, 0)->value, 10);
  ASSERT_TRUE(StateOn(cluster, 3, k).committed.has_value());
  // Four participants, three required: with the joiner and one natural
  // replica down, two are too few.
  cluster.Kill(3);
  cluster.Kill(natural[1]);
  const Outcome outcome = RunCas(cluster, natural[0], k, 10, 11);
  const CqlError e = ErrorOf(outcome.error);
  ASSERT_EQ(e.code(), ErrorCode::kUnavailable) << e.what();
  const auto* info = std::get_if<UnavailableInfo>(&e.detail());
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->required, 3);
  EXPECT_EQ(info->alive, 2);
}

TEST_P(PaxosCoordinatorTest, TwoPendingReplicasRefuseTheTransaction) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster(
      {.nodes = 5,
       .seed = 86,
       .paxos_variant = variant,
       .states = {{3, metadata::NodeState::kJoining}, {4, metadata::NodeState::kJoining}}});
  int32_t k = -1;
  for (int32_t key = 0; key < 1000 && k < 0; ++key) {
    if (PendingIndexes(cluster, key).size() == 2) k = key;
  }
  ASSERT_GE(k, 0);
  const Outcome outcome = RunCas(cluster, ReplicaIndexes(cluster, k)[0], k, std::nullopt, 1);
  const CqlError e = ErrorOf(outcome.error);
  ASSERT_EQ(e.code(), ErrorCode::kUnavailable);
  // As 4.1 words it: the count is of every participant.
  EXPECT_STREQ(e.what(),
               "Cannot perform LWT operation as there is more than one (5) pending range movement");
  const auto* info = std::get_if<UnavailableInfo>(&e.detail());
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->required, 6);
  EXPECT_EQ(info->alive, 5);
}

TEST_P(PaxosCoordinatorTest, SuccessiveTransactionsFromDifferentNodesChainTheirValues) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 32, .paxos_variant = variant});
  ASSERT_TRUE(RunCas(cluster, 0, 2, std::nullopt, 0).applied);
  int64_t previous_timestamp = 0;
  for (int step = 0; step < 12; ++step) {
    const Outcome outcome = RunCas(cluster, step % 3, 2, step, step + 1);
    ASSERT_EQ(outcome.error, nullptr) << "step " << step;
    ASSERT_TRUE(outcome.applied) << "step " << step << " saw " << outcome.seen.value_or(-1);
    const auto [read, error] = SerialRead(cluster, (step + 1) % 3, 2);
    ASSERT_EQ(error, nullptr);
    EXPECT_EQ(ValueIn(read), step + 1);
    // Each decision is written after the one before it, whichever node made it.
    const paxos::PaxosState state = StateOn(cluster, ReplicaIndexes(cluster, 2)[0], 2);
    ASSERT_TRUE(state.committed);
    EXPECT_GT(state.committed->ballot.micros(), previous_timestamp);
    previous_timestamp = state.committed->ballot.micros();
  }
}

TEST_P(PaxosCoordinatorTest, ADecisionIsWrittenAfterOneOfTheSameMicrosecond) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 39, .paxos_variant = variant});
  // The nodes' clocks stand still at the same microsecond: node 1's first
  // ballot has node 0's microsecond, and wins on its node bits.
  ASSERT_TRUE(RunCas(cluster, 0, 7, std::nullopt, 10).applied);
  const Outcome second = RunCas(cluster, 1, 7, 10, 5);
  ASSERT_EQ(second.error, nullptr);
  ASSERT_TRUE(second.applied);
  // Written at the same timestamp, 5 would lose to 10 (the larger value).
  const auto [read, error] = SerialRead(cluster, 2, 7);
  ASSERT_EQ(error, nullptr);
  EXPECT_EQ(ValueIn(read), 5);
}

TEST_P(PaxosCoordinatorTest, OneReplicaDownStillDecidesTwoAreUnavailable) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 33, .paxos_variant = variant});
  cluster.Kill(2);
  const Outcome with_two = RunCas(cluster, 0, 3, std::nullopt, 1);
  ASSERT_EQ(with_two.error, nullptr);
  EXPECT_TRUE(with_two.applied);
  cluster.Kill(1);
  const Outcome with_one = RunCas(cluster, 0, 3, 1, 2);
  const CqlError e = ErrorOf(with_one.error);
  EXPECT_EQ(e.code(), ErrorCode::kUnavailable);
  EXPECT_STREQ(e.what(), "Cannot achieve consistency level SERIAL");
  const auto* info = std::get_if<UnavailableInfo>(&e.detail());
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->consistency, kSerial);
  EXPECT_EQ(info->required, 2);
  EXPECT_EQ(info->alive, 1);
  const auto [read, read_error] = SerialRead(cluster, 0, 3, kLocalSerial);
  EXPECT_EQ(ErrorOf(read_error).code(), ErrorCode::kUnavailable);
  EXPECT_STREQ(ErrorOf(read_error).what(), "Cannot achieve consistency level LOCAL_SERIAL");
}

TEST_P(PaxosCoordinatorTest, AnAcceptedProposalIsFinishedBeforeAnythingElse) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 34, .paxos_variant = variant});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 4);
  // A coordinator that died after its proposal was accepted by two replicas.
  AcceptOnTwoReplicas(cluster, replicas, 4, 42);
  for (int r : replicas) EXPECT_FALSE(StoredRow(cluster, r, 4, 0).has_value());
  // A SERIAL read from the third replica sees it.
  const auto [read, error] = SerialRead(cluster, replicas[2], 4);
  ASSERT_EQ(error, nullptr);
  EXPECT_EQ(ValueIn(read), 42);
  // And a transaction that expected nothing there does not apply.
  const Outcome late = RunCas(cluster, replicas[2], 4, std::nullopt, 1);
  ASSERT_EQ(late.error, nullptr);
  EXPECT_FALSE(late.applied);
  EXPECT_EQ(late.seen, 42);
}

TEST_P(PaxosCoordinatorTest, AReplicaThatMissedTheLastCommitIsGivenIt) {
  const PaxosVariant variant = GetParam();
  // Neither hints nor read repair bring the lagging replica up to date here.
  SimulatedCluster cluster({.nodes = 3,
                            .seed = 35,
                            .hinted_handoff = false,
                            .read_repair = "NONE",
                            .paxos_variant = variant});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 5);
  const int lagging = replicas[2];
  cluster.Kill(lagging);
  ASSERT_TRUE(RunCas(cluster, replicas[0], 5, std::nullopt, 7).applied);
  cluster.RunUntil([&] { return StoredRow(cluster, replicas[1], 5, 0).has_value(); });
  EXPECT_FALSE(StateOn(cluster, lagging, 5).committed.has_value());
  cluster.Revive(lagging);
  cluster.Kill(replicas[1]);
  // The read's prepare finds the lagging replica behind and commits to it
  // first, then reads from the two.
  const auto [read, error] = SerialRead(cluster, replicas[0], 5);
  ASSERT_EQ(error, nullptr);
  EXPECT_EQ(ValueIn(read), 7);
  ASSERT_TRUE(StoredRow(cluster, lagging, 5, 0).has_value());
  EXPECT_EQ(StoredRow(cluster, lagging, 5, 0)->value, 7);
  ASSERT_TRUE(StateOn(cluster, lagging, 5).committed.has_value());
  EXPECT_EQ(StateOn(cluster, lagging, 5).committed->ballot,
            StateOn(cluster, replicas[0], 5).committed->ballot);
}

TEST_P(PaxosCoordinatorTest, ACommitOlderThanPaxosStateLivesIsNotSentToReplicasLackingIt) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3,
                            .seed = 38,
                            .hinted_handoff = false,
                            .read_repair = "NONE",
                            .paxos_variant = variant});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 13);
  // ks.t's state lives gc_grace_seconds (ten days, more than three hours).
  const int64_t ttl_micros = int64_t{864'000} * 1'000'000;
  const int64_t old_micros =
      cluster.node(replicas[0]).clock.NowMicros() - ttl_micros - int64_t{60} * 1'000'000;
  const paxos::Ballot old_ballot = paxos::Ballot::Make(old_micros, 77);
  paxos::PaxosAcceptor acceptor(cluster.node(replicas[0]).engine, cluster.node(replicas[0]).clock,
                                [](const types::Uuid&) { return 864'000; });
  acceptor.Commit({old_ballot, RowMutation(cluster, 13, 0, 42, old_micros)});
  const auto [read, error] = SerialRead(cluster, replicas[0], 13);
  ASSERT_EQ(error, nullptr);
  EXPECT_EQ(ValueIn(read), 42);
  // Hints and repair are what carry a commit that old (4.1, CASSANDRA-12043).
  EXPECT_FALSE(StateOn(cluster, replicas[1], 13).committed.has_value());
  EXPECT_FALSE(StateOn(cluster, replicas[2], 13).committed.has_value());
}

std::pair<storage::ReadResult, std::exception_ptr> SerialScan(SimulatedCluster& cluster, int i,
                                                              uint16_t serial = kSerial) {
  storage::ReadCommand command;
  command.table_id = cluster.table().id;
  command.now_seconds = 1'700'000'000;  // the whole ring
  std::optional<std::pair<storage::ReadResult, std::exception_ptr>> outcome;
  cluster.node(i).coordinator->paxos().SerialRangeRead(
      command, serial, [&](storage::ReadResult result, std::exception_ptr error) {
        outcome.emplace(std::move(result), error);
      });
  cluster.RunUntil([&] { return outcome.has_value(); });
  return std::move(*outcome);
}

// The value of row (k, 0) of each partition a scan returned.
std::map<int32_t, int32_t> ValuesByKey(const storage::ReadResult& result) {
  std::map<int32_t, int32_t> values;
  for (const auto& partition : result.partitions) {
    storage::ReadResult one;
    one.partitions = {partition};
    if (const std::optional<int32_t> v = ValueIn(one)) {
      values[types::DecodeInt(partition.key.key)] = *v;
    }
  }
  return values;
}

TEST_P(PaxosCoordinatorTest, ASerialScanFinishesTheProposalsAQuorumAccepted) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 39, .paxos_variant = variant});
  ASSERT_TRUE(RunCas(cluster, 0, 15, std::nullopt, 5).applied);
  // Key 14's proposal reached two acceptors and no commit.
  const std::vector<int> replicas = ReplicaIndexes(cluster, 14);
  const paxos::Ballot ballot = AcceptOnTwoReplicas(cluster, replicas, 14, 42);
  // A QUORUM scan alone (4.1's SERIAL scan) does not see it.
  storage::ReadCommand scan;
  scan.table_id = cluster.table().id;
  scan.now_seconds = 1'700'000'000;
  std::optional<storage::ReadResult> plain;
  cluster.node(replicas[2])
      .coordinator->reads()
      .Read(scan, kQuorum, [&](storage::ReadResult result, std::exception_ptr error) {
        ASSERT_EQ(error, nullptr);
        plain = std::move(result);
      });
  cluster.RunUntil([&] { return plain.has_value(); });
  EXPECT_EQ(ValuesByKey(*plain), (std::map<int32_t, int32_t>{{15, 5}}));
  // The SERIAL one, from the replica that never saw it, does.
  const auto [read, error] = SerialScan(cluster, replicas[2]);
  ASSERT_EQ(error, nullptr) << ErrorOf(error).what();
  EXPECT_EQ(ValuesByKey(read), (std::map<int32_t, int32_t>{{14, 42}, {15, 5}}));
  // Decided: committed on the replicas, under the finishing round's ballot.
  for (int r : replicas) {
    ASSERT_TRUE(StateOn(cluster, r, 14).committed.has_value());
    EXPECT_GT(StateOn(cluster, r, 14).committed->ballot, ballot);
  }
  // A node that does not answer the question times the scan out.
  cluster.network().TakeDown(cluster.node(replicas[0]).address);
  const auto [unused, timeout] = SerialScan(cluster, replicas[2]);
  const CqlError e = ErrorOf(timeout);
  EXPECT_EQ(e.code(), ErrorCode::kReadTimeout);
  EXPECT_STREQ(e.what(), "Operation timed out - received only 2 responses.");
}

// Before a topology change (4.1's repairPaxosForTopologyChange): every
// proposal a quorum accepted in the range moving is committed, so that the
// new replicas hold the decision.
TEST_P(PaxosCoordinatorTest, PaxosRepairBeforeATopologyChangeCommitsWhatAQuorumAccepted) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 40, .paxos_variant = variant});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 16);
  const paxos::Ballot ballot = AcceptOnTwoReplicas(cluster, replicas, 16, 61);
  std::optional<std::exception_ptr> done;
  cluster.node(replicas[2])
      .coordinator->paxos()
      .FinishUncommitted(cluster.table().id,
                         {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min()},
                         [&](std::exception_ptr error) { done = error; });
  cluster.RunUntil([&] { return done.has_value(); });
  ASSERT_EQ(*done, nullptr);
  cluster.RunUntil([&] { return StoredRow(cluster, replicas[2], 16, 0).has_value(); });
  for (int r : replicas) {
    ASSERT_TRUE(StateOn(cluster, r, 16).committed.has_value()) << r;
    EXPECT_GT(StateOn(cluster, r, 16).committed->ballot, ballot);
  }
  EXPECT_EQ(StoredRow(cluster, replicas[2], 16, 0)->value, 61);
}

TEST_P(PaxosCoordinatorTest, ContentionPastTheTimeoutIsACasWriteTimeout) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3,
                            .seed = 36,
                            .timeouts = {.cas_contention = std::chrono::milliseconds(0)},
                            .paxos_variant = variant});
  const Outcome outcome = RunCas(cluster, 0, 6, std::nullopt, 1);
  const CqlError e = ErrorOf(outcome.error);
  EXPECT_EQ(e.code(), ErrorCode::kWriteTimeout);
  EXPECT_STREQ(e.what(),
               "CAS operation timed out: received 0 of 2 required responses after 0 contention "
               "retries");
  const auto* info = std::get_if<WriteTimeoutInfo>(&e.detail());
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->write_type, "CAS");
  EXPECT_EQ(info->consistency, kSerial);
  EXPECT_EQ(info->block_for, 2);
  // A SERIAL read reports it as a read timeout.
  const auto [read, error] = SerialRead(cluster, 0, 6);
  EXPECT_EQ(ErrorOf(error).code(), ErrorCode::kReadTimeout);
  const paxos::PaxosMetrics& metrics = cluster.node(0).coordinator->paxos().metrics();
  EXPECT_EQ(metrics.Counts(paxos::PaxosOperation::kTransaction).timeouts, 1u);
  EXPECT_EQ(metrics.Counts(paxos::PaxosOperation::kSerialRead).timeouts, 1u);
}

TEST_P(PaxosCoordinatorTest, ASilentReplicaBelievedAliveTimesTheRoundOut) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster({.nodes = 3, .seed = 37, .paxos_variant = variant});
  const std::vector<int> replicas = ReplicaIndexes(cluster, 8);
  // Two replicas unreachable, but nobody knows it yet.
  cluster.network().TakeDown(cluster.node(replicas[1]).address);
  cluster.network().TakeDown(cluster.node(replicas[2]).address);
  const Outcome outcome = RunCas(cluster, replicas[0], 8, std::nullopt, 1);
  const CqlError e = ErrorOf(outcome.error);
  EXPECT_EQ(e.code(), ErrorCode::kWriteTimeout);
  EXPECT_STREQ(e.what(),
               "CAS operation timed out: received 1 of 2 required responses after 0 contention "
               "retries");
}

TEST_P(PaxosCoordinatorTest, LocalSerialCountsTheLocalDatacenterOnly) {
  const PaxosVariant variant = GetParam();
  SimulatedCluster cluster(
      {.nodes = 4,
       .seed = 38,
       .replication = {{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
                       {"dc1", "2"},
                       {"dc2", "2"}},
       .datacenters = {"dc1", "dc2"},
       .paxos_variant = variant});
  // Nodes 0 and 2 are dc1; with dc2 gone, LOCAL_SERIAL still decides.
  cluster.Kill(1);
  cluster.Kill(3);
  const Outcome local =
      RunCas(cluster, 0, 9, std::nullopt, 5, kLocalSerial, static_cast<uint16_t>(0x0006));
  ASSERT_EQ(local.error, nullptr);
  EXPECT_TRUE(local.applied);
  const Outcome global = RunCas(cluster, 0, 9, 5, 6, kSerial, static_cast<uint16_t>(0x0006));
  EXPECT_EQ(ErrorOf(global.error).code(), ErrorCode::kUnavailable);
}

// Several coordinators increment one register with compare-and-set, under a
// faulty network: no two applied transactions saw the same value (no lost
// update), the register ends at the number of increments that took effect,
// and every applied one is among them.
void RunContendedIncrements(PaxosVariant variant, uint64_t seed, messaging::LinkFaults faults) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  SimulatedCluster cluster({.nodes = 3, .seed = seed, .faults = faults, .paxos_variant = variant});
  ASSERT_TRUE(RunCas(cluster, 0, 11, std::nullopt, 0).applied);
  constexpr int kRounds = 8;
  int applied = 0;
  int unknown = 0;
  std::set<int32_t> seen_by_applied;
  std::map<int, int32_t> guess;  // per node, the value it believes current
  for (int round = 0; round < kRounds; ++round) {
    std::vector<Outcome> outcomes(3);
    for (int i = 0; i < 3; ++i) {
      const auto [read, error] = SerialRead(cluster, i, 11);
      guess[i] = error ? guess[i] : ValueIn(read).value_or(-1);
    }
    for (int i = 0; i < 3; ++i) StartCas(cluster, i, 11, guess[i], guess[i] + 1, outcomes[i]);
    cluster.RunUntil([&] {
      for (const Outcome& o : outcomes) {
        if (!o.done) return false;
      }
      return true;
    });
    for (const Outcome& o : outcomes) {
      if (o.error) {
        ++unknown;  // timed out or unknown: it may or may not have taken effect
      } else if (o.applied) {
        ++applied;
        EXPECT_TRUE(seen_by_applied.insert(*o.seen).second) << "two increments from " << *o.seen;
      }
    }
  }
  cluster.network().SetFaults({});
  const auto [read, error] = SerialRead(cluster, 0, 11);
  ASSERT_EQ(error, nullptr);
  const int32_t final_value = ValueIn(read).value_or(-1);
  EXPECT_GE(final_value, applied);
  EXPECT_LE(final_value, applied + unknown);
  EXPECT_GT(applied, 0);
}

TEST_P(PaxosCoordinatorTest, ConcurrentProposersLoseNoUpdate) {
  const PaxosVariant variant = GetParam();
  for (uint64_t seed = 40; seed < 45; ++seed) RunContendedIncrements(GetParam(), seed, {});
}

TEST_P(PaxosCoordinatorTest, ConcurrentProposersLoseNoUpdateOverAFaultyNetwork) {
  const PaxosVariant variant = GetParam();
  messaging::LinkFaults faults;
  faults.drop_probability = 0.05;
  faults.duplicate_probability = 0.05;
  faults.min_delay = std::chrono::milliseconds(1);
  faults.max_delay = std::chrono::milliseconds(30);
  for (uint64_t seed = 50; seed < 55; ++seed) RunContendedIncrements(GetParam(), seed, faults);
}

// A SERIAL read racing proposers: its empty proposal, refused by replicas
// that promised a newer ballot (accepted by some or none), is contention to
// retry, never an error (4.1's readWithPaxos), and reads a value some
// proposer wrote.
TEST_P(PaxosCoordinatorTest, SerialReadsRacingProposersRetryInsteadOfFailing) {
  const PaxosVariant variant = GetParam();
  messaging::LinkFaults delays;
  delays.min_delay = std::chrono::milliseconds(1);
  delays.max_delay = std::chrono::milliseconds(20);
  uint64_t read_contentions = 0;  // the reads retried, over every seed
  for (uint64_t seed = 60; seed < 70; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    SimulatedCluster cluster(
        {.nodes = 3, .seed = seed, .faults = delays, .paxos_variant = variant});
    ASSERT_TRUE(RunCas(cluster, 0, 12, std::nullopt, 0).applied);
    for (int round = 0; round < 4; ++round) {
      std::vector<Outcome> writes(3);
      std::vector<std::optional<std::pair<storage::ReadResult, std::exception_ptr>>> reads(3);
      for (int i = 0; i < 3; ++i) {
        StartCas(cluster, i, 12, round, round + 1, writes[i]);
        cluster.node(i).coordinator->paxos().SerialRead(
            ReadRow(cluster, 12), kSerial,
            [&reads, i](storage::ReadResult result, std::exception_ptr error) {
              reads[i].emplace(std::move(result), error);
            });
      }
      cluster.RunUntil([&] {
        for (int i = 0; i < 3; ++i) {
          if (!writes[i].done || !reads[i]) return false;
        }
        return true;
      });
      for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(reads[i]->second, nullptr) << ErrorOf(reads[i]->second).what();
        const std::optional<int32_t> value = ValueIn(reads[i]->first);
        ASSERT_TRUE(value.has_value());
        EXPECT_GE(*value, round);
        EXPECT_LE(*value, round + 1);
      }
    }
    for (int i = 0; i < 3; ++i) {
      read_contentions += cluster.node(i)
                              .coordinator->paxos()
                              .metrics()
                              .Counts(paxos::PaxosOperation::kSerialRead)
                              .contentions;
    }
  }
  EXPECT_GT(read_contentions, 0u);  // the race this test is about did happen
}

}  // namespace
}  // namespace sibyl::cluster::testing
