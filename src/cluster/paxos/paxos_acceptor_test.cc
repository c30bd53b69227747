// The acceptor's rules against both engines, over system.paxos as the
// schema lays it out: what is promised, accepted and committed, what
// refuses and why, what a restart keeps, and what SELECT would show.

#include "cluster/paxos/paxos_acceptor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

#include "dht/token.h"
#include "schema/storage_layout.h"
#include "schema/system_keyspaces.h"
#include "storage/codec/read_command_codec.h"
#include "storage/reference/reference_engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::cluster::paxos {
namespace {

using namespace sibyl::storage;           // NOLINT: the engine's types
using namespace sibyl::storage::testing;  // NOLINT: its test helpers

constexpr int32_t kTtlSeconds = 3 * 3600;

TableLayout PaxosLayout() {
  const schema::SchemaPtr schema = schema::MakeInitialSchema();
  return schema::MakeTableLayout(*schema->FindTable("system", "paxos"));
}

Ballot B(int64_t micros, uint64_t node = 1) { return Ballot::Make(micros, node); }

class PaxosAcceptorTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { Open(); }

  void Open() {
    acceptor_.reset();
    engine_.reset();
    if (GetParam()) {
      engine_ = Engine::Open({.directory = dir_.path()}, clock_);
    } else {
      engine_ = std::make_unique<ReferenceEngine>();
    }
    engine_->SyncTables({table_, PaxosLayout()});
    acceptor_ = std::make_unique<PaxosAcceptor>(*engine_, clock_,
                                                [](const types::Uuid&) { return kTtlSeconds; });
  }

  // v = value in row (pk 1, c 1), written at the ballot's microsecond.
  Proposal Propose(const Ballot& ballot, int32_t value) {
    Mutation update = MutationOf(table_, 1);
    Set(RowOf(update, 1), "v", Live(ballot.micros(), Int(value)));
    return {ballot, update};
  }
  PrepareResponse Prepare(const Ballot& ballot) {
    return acceptor_->Prepare(table_.id, MutationOf(table_, 1).partition, ballot);
  }
  std::optional<Bytes> StoredValue() {
    const ReadResult result = engine_->Read(ReadOf(table_, {1}, kNow));
    if (result.partitions.empty() || result.partitions[0].rows.empty()) return std::nullopt;
    return result.partitions[0].rows[0].cells.at(0).value;
  }

  ScratchDir dir_;
  ManualClock clock_{int64_t{kNow} * 1'000'000};
  TableLayout table_ = MakeTable(1);
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<PaxosAcceptor> acceptor_;
};

TEST_P(PaxosAcceptorTest, PromisesOnlyBallotsAboveEveryEarlierPromise) {
  EXPECT_EQ(Prepare(B(100)), (PrepareResponse{.promised = true}));
  EXPECT_EQ(Prepare(B(100)), (PrepareResponse{.promised = false, .refused_by = B(100)}));
  EXPECT_EQ(Prepare(B(99)), (PrepareResponse{.promised = false, .refused_by = B(100)}));
  // The same microsecond from a node with larger bits is a larger ballot.
  EXPECT_TRUE(Prepare(B(100, 2)).promised);
  EXPECT_EQ(Prepare(B(100, 1)).refused_by, B(100, 2));
  EXPECT_TRUE(Prepare(B(101)).promised);
}

TEST_P(PaxosAcceptorTest, AcceptsThePromisedBallotOrALaterOne) {
  ASSERT_TRUE(Prepare(B(100)).promised);
  EXPECT_EQ(acceptor_->Propose(Propose(B(99), 1)),
            (ProposeResponse{.accepted = false, .refused_by = B(100)}));
  EXPECT_TRUE(acceptor_->Propose(Propose(B(100), 1)).accepted);
  // Accepting 105 promises it: 103 may no longer be promised or accepted.
  EXPECT_TRUE(acceptor_->Propose(Propose(B(105), 2)).accepted);
  EXPECT_EQ(Prepare(B(103)).refused_by, B(105));
  EXPECT_FALSE(acceptor_->Propose(Propose(B(103), 3)).accepted);
  // Nothing reaches the table before a commit.
  EXPECT_EQ(StoredValue(), std::nullopt);
}

TEST_P(PaxosAcceptorTest, APrepareReportsWhatWasAcceptedAndCommitted) {
  ASSERT_TRUE(Prepare(B(100)).promised);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100), 1)).accepted);
  PrepareResponse response = Prepare(B(110));
  EXPECT_TRUE(response.promised);
  EXPECT_EQ(response.accepted, Propose(B(100), 1));
  EXPECT_EQ(response.committed, std::nullopt);
  // Refused, it still says what it holds.
  response = Prepare(B(105));
  EXPECT_FALSE(response.promised);
  EXPECT_EQ(response.accepted, Propose(B(100), 1));
}

// Paxos v2's prepare: the reads it carries are answered only with a
// promise, from the state the promise saw (the last commit applied).
TEST_P(PaxosAcceptorTest, APrepareThatPromisesReadsThePartitionItNames) {
  const PartitionKey key = MutationOf(table_, 1).partition;
  const std::vector<ReadCommand> reads = {ReadOf(table_, {1}, kNow)};
  ASSERT_TRUE(acceptor_->Prepare(table_.id, key, B(100), reads).promised);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100), 7)).accepted);
  acceptor_->Commit(Propose(B(100), 7));
  PrepareResponse response = acceptor_->Prepare(table_.id, key, B(120), reads);
  ASSERT_TRUE(response.promised);
  ASSERT_EQ(response.reads.size(), 1u);
  const ReadResult read = DeserializeReadResult(response.reads[0]);
  ASSERT_EQ(read.partitions.size(), 1u);
  ASSERT_EQ(read.partitions[0].rows.size(), 1u);
  EXPECT_EQ(read.partitions[0].rows[0].cells.at(0).value, Int(7));
  // Refused: nothing read.
  response = acceptor_->Prepare(table_.id, key, B(110), reads);
  EXPECT_FALSE(response.promised);
  EXPECT_TRUE(response.reads.empty());
  // Without reads, as v1's prepare.
  EXPECT_TRUE(acceptor_->Prepare(table_.id, key, B(130)).reads.empty());
}

TEST_P(PaxosAcceptorTest, APrepareMayReadNothingButItsOwnPartition) {
  const PartitionKey key = MutationOf(table_, 1).partition;
  const std::vector<ReadCommand> other_partition = {ReadOf(table_, {2}, kNow)};
  EXPECT_THROW((void)acceptor_->Prepare(table_.id, key, B(100), other_partition),
               std::invalid_argument);
  ReadCommand scan = ReadOf(table_, {1}, kNow);
  scan.partitions.clear();
  EXPECT_THROW((void)acceptor_->Prepare(table_.id, key, B(100), std::vector<ReadCommand>{scan}),
               std::invalid_argument);
  // Nothing was promised.
  EXPECT_TRUE(acceptor_->Prepare(table_.id, key, B(100)).promised);
}

// A read the engine cannot answer (here: of a table it does not hold)
// still promises, with no reads: the coordinator falls back to v1's read.
TEST_P(PaxosAcceptorTest, APrepareWhoseReadFailsStillPromisesWithoutReads) {
  const TableLayout unknown = MakeTable(9);
  const PartitionKey key = MutationOf(unknown, 1).partition;
  const std::vector<ReadCommand> reads = {ReadOf(unknown, {1}, kNow)};
  const PrepareResponse response = acceptor_->Prepare(unknown.id, key, B(100), reads);
  EXPECT_TRUE(response.promised);
  EXPECT_TRUE(response.reads.empty());
}

TEST_P(PaxosAcceptorTest, ACommitAppliesTheUpdateAndForgetsTheAcceptedProposal) {
  ASSERT_TRUE(Prepare(B(100)).promised);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100), 7)).accepted);
  acceptor_->Commit(Propose(B(100), 7));
  EXPECT_EQ(StoredValue(), Int(7));
  const PrepareResponse response = Prepare(B(120));
  EXPECT_TRUE(response.promised);
  EXPECT_EQ(response.accepted, std::nullopt);
  EXPECT_EQ(response.committed, Propose(B(100), 7));
}

TEST_P(PaxosAcceptorTest, ACommitKeepsANewerAcceptedProposal) {
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100), 1)).accepted);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(200), 2)).accepted);
  acceptor_->Commit(Propose(B(100), 1));  // a late commit of the earlier decision
  const PaxosState state = acceptor_->Load(table_.id, MutationOf(table_, 1).partition);
  EXPECT_EQ(state.accepted, Propose(B(200), 2));
  EXPECT_EQ(state.committed, Propose(B(100), 1));
}

TEST_P(PaxosAcceptorTest, AProposalOfTheCommitsMicrosecondOutlivesItsDeletion) {
  // Committed at 100 by node 1; node 2's ballot of the same microsecond is
  // larger and accepted afterwards: the commit's deletion must not hide it.
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100, 1), 1)).accepted);
  acceptor_->Commit(Propose(B(100, 1), 1));
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100, 2), 2)).accepted);
  const PaxosState state = acceptor_->Load(table_.id, MutationOf(table_, 1).partition);
  EXPECT_EQ(state.accepted, Propose(B(100, 2), 2));
  // And a proposal no newer than the commit is decided, not in progress.
  acceptor_->Commit(Propose(B(100, 2), 2));
  EXPECT_EQ(acceptor_->Load(table_.id, MutationOf(table_, 1).partition).accepted, std::nullopt);
}

TEST_P(PaxosAcceptorTest, RefusesBallotsNoNewerThanTheLastCommit) {
  // A replica that missed the prepare still learns the decision.
  acceptor_->Commit(Propose(B(300), 3));
  EXPECT_EQ(Prepare(B(200)).refused_by, B(300));
  EXPECT_EQ(acceptor_->Propose(Propose(B(300), 4)).refused_by, B(300));
  EXPECT_TRUE(Prepare(B(301)).promised);
}

TEST_P(PaxosAcceptorTest, TheStateSurvivesAReopen) {
  if (!GetParam()) GTEST_SKIP() << "the reference engine keeps nothing on disk";
  ASSERT_TRUE(Prepare(B(100)).promised);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(150), 1)).accepted);
  acceptor_->Commit(Propose(B(120), 9));
  Open();
  const PaxosState state = acceptor_->Load(table_.id, MutationOf(table_, 1).partition);
  EXPECT_EQ(state.promised, B(150));
  EXPECT_EQ(state.accepted, Propose(B(150), 1));
  EXPECT_EQ(state.committed, Propose(B(120), 9));
  EXPECT_EQ(StoredValue(), Int(9));
}

TEST_P(PaxosAcceptorTest, SystemPaxosHoldsCassandrasColumns) {
  ASSERT_TRUE(Prepare(B(100)).promised);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(100), 1)).accepted);
  ReadCommand command;
  command.table_id = PaxosStore::TableId();
  command.range = {};
  command.now_seconds = kNow;
  const ReadResult result = engine_->Read(command);
  ASSERT_EQ(result.partitions.size(), 1u);
  EXPECT_EQ(result.partitions[0].key.key, MutationOf(table_, 1).partition.key);
  ASSERT_EQ(result.partitions[0].rows.size(), 1u);
  const ReadRow& row = result.partitions[0].rows[0];
  EXPECT_EQ(row.clustering, Clustering{table_.id.ToBytes()});
  std::vector<std::string> columns;
  for (const ReadCell& cell : row.cells) {
    columns.push_back(cell.column);
    EXPECT_EQ(cell.timestamp, 100) << cell.column;
  }
  EXPECT_EQ(columns, (std::vector<std::string>{"in_progress_ballot", "proposal", "proposal_ballot",
                                               "proposal_version"}));
}

TEST_P(PaxosAcceptorTest, PaxosStateExpiresAfterItsTtlAndTheDataStays) {
  ASSERT_TRUE(Prepare(B(100)).promised);
  ASSERT_TRUE(acceptor_->Propose(Propose(B(150), 1)).accepted);
  acceptor_->Commit(Propose(B(120), 9));
  const storage::PartitionKey key = MutationOf(table_, 1).partition;
  clock_.AdvanceSeconds(kTtlSeconds - 1);
  EXPECT_EQ(acceptor_->Load(table_.id, key).committed, Propose(B(120), 9));
  clock_.AdvanceSeconds(1);
  const PaxosState state = acceptor_->Load(table_.id, key);
  EXPECT_TRUE(state.promised.is_null());
  EXPECT_EQ(state.accepted, std::nullopt);
  EXPECT_EQ(state.committed, std::nullopt);
  EXPECT_EQ(StoredValue(), Int(9));
  // A new round starts from nothing.
  EXPECT_TRUE(Prepare(B(101)).promised);
}

TEST_P(PaxosAcceptorTest, UncommittedNamesThePartitionsWithAnUnfinishedProposal) {
  // Tokens as a ring has them: system.paxos is placed by the user partitions' token.
  auto partition = [&](int32_t pk) {
    PartitionKey key = MutationOf(table_, pk).partition;
    key.token = dht::Murmur3Token(key.key);
    return key;
  };
  auto propose = [&](int32_t pk, const Ballot& ballot, bool with_update) {
    Mutation update = MutationOf(table_, pk);
    update.partition = partition(pk);
    if (with_update) Set(RowOf(update, 1), "v", Live(ballot.micros(), Int(pk)));
    EXPECT_TRUE(acceptor_->Prepare(table_.id, update.partition, ballot).promised);
    EXPECT_TRUE(acceptor_->Propose({ballot, update}).accepted);
    return Proposal{ballot, update};
  };
  (void)propose(1, B(100), true);                   // unfinished
  acceptor_->Commit(propose(2, B(100), true));      // decided
  (void)propose(3, B(100), false);                  // a SERIAL read's: nothing to finish
  const Proposal newer = propose(4, B(200), true);  // accepted after a commit
  Mutation empty = MutationOf(table_, 4);
  empty.partition = partition(4);
  acceptor_->Commit({B(150), empty});
  std::vector<PartitionKey> keys = acceptor_->Uncommitted(table_.id, TokenRange{});
  std::vector<PartitionKey> expected = {partition(1), newer.update.partition};
  std::sort(expected.begin(), expected.end(),
            [](const auto& a, const auto& b) { return a.token < b.token; });
  EXPECT_EQ(keys, expected);
  // Another table's, or another range's, are not named.
  EXPECT_TRUE(acceptor_->Uncommitted(MakeTable(2).id, TokenRange{}).empty());
  const int64_t token = expected.front().token;
  keys = acceptor_->Uncommitted(table_.id, TokenRange{token - 1, token});
  EXPECT_EQ(keys, std::vector<PartitionKey>{expected.front()});
}

// `rounds` transactions (prepare, propose, commit) spread over `keys`
// partitions, a second apart; what system.paxos then holds on disk.
struct PaxosTableFigures {
  size_t partitions = 0;         // with live state
  uint64_t sstable_bytes = 0;    // after a flush and a full compaction
  double seconds_per_round = 0;  // wall time, for the record (two fsyncs each)
};

class PaxosStateGrowthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = Engine::Open({.directory = dir_.path()}, clock_);
    engine_->SyncTables({table_, PaxosLayout()});
    acceptor_ = std::make_unique<PaxosAcceptor>(*engine_, clock_,
                                                [](const types::Uuid&) { return kTtlSeconds; });
  }

  void RunRounds(int rounds, int keys) {
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) {
      const Ballot ballot = B(clock_.NowMicros());
      Mutation update = MutationOf(table_, i % keys);
      Set(RowOf(update, 1), "v", Live(ballot.micros(), Int(i)));
      ASSERT_TRUE(acceptor_->Prepare(table_.id, update.partition, ballot).promised);
      ASSERT_TRUE(acceptor_->Propose({ballot, update}).accepted);
      acceptor_->Commit({ballot, update});
      clock_.AdvanceSeconds(1);
    }
    seconds_per_round_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() / rounds;
  }

  PaxosTableFigures Measure() {
    engine_->Flush(PaxosStore::TableId());
    engine_->Compact(PaxosStore::TableId());
    PaxosTableFigures figures;
    ReadCommand command;
    command.table_id = PaxosStore::TableId();
    command.range = {};
    command.now_seconds = clock_.NowSeconds();
    figures.partitions = engine_->Read(command).partitions.size();
    for (const auto& table : engine_->Statistics().tables) {
      if (table.table_id == PaxosStore::TableId()) figures.sstable_bytes = table.sstable_bytes;
    }
    figures.seconds_per_round = seconds_per_round_;
    return figures;
  }

  // Transactions on `keys` partitions leave about as much state as one on
  // each: every round overwrites its partition's row, and compaction keeps
  // the newest. Once the keys go idle for the TTL, nothing is left.
  void ExpectBoundedGrowth(int rounds, int keys) {
    RunRounds(rounds / 10, keys);
    const PaxosTableFigures early = Measure();
    RunRounds(rounds - rounds / 10, keys);
    const PaxosTableFigures late = Measure();
    std::printf(
        "system.paxos after %d LWTs on %d keys: %zu partitions, %llu bytes on disk "
        "(%llu after %d); %.2f ms per round\n",
        rounds, keys, late.partitions, static_cast<unsigned long long>(late.sstable_bytes),
        static_cast<unsigned long long>(early.sstable_bytes), rounds / 10,
        late.seconds_per_round * 1e3);
    EXPECT_EQ(early.partitions, static_cast<size_t>(keys));
    EXPECT_EQ(late.partitions, static_cast<size_t>(keys));
    EXPECT_LT(late.sstable_bytes, early.sstable_bytes * 3 / 2);
    clock_.AdvanceSeconds(kTtlSeconds);
    const PaxosTableFigures idle = Measure();
    EXPECT_EQ(idle.partitions, 0u);
    EXPECT_EQ(idle.sstable_bytes, 0u);
  }

  ScratchDir dir_;
  ManualClock clock_{int64_t{kNow} * 1'000'000};
  TableLayout table_ = MakeTable(1);
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<PaxosAcceptor> acceptor_;
  double seconds_per_round_ = 0;
};

TEST_F(PaxosStateGrowthTest, SystemPaxosHoldsThePartitionsUsedLatelyNotEveryRound) {
  ExpectBoundedGrowth(3'000, 100);
}

// The figure (100,000 LWTs on 1,000 keys; docs/dev/paxos.md has
// the numbers): --gtest_also_run_disabled_tests runs it.
TEST_F(PaxosStateGrowthTest, DISABLED_AHundredThousandTransactionsOnAThousandKeys) {
  ExpectBoundedGrowth(100'000, 1'000);
}

INSTANTIATE_TEST_SUITE_P(Engines, PaxosAcceptorTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "RocksDb" : "Reference"; });

}  // namespace
}  // namespace sibyl::cluster::paxos
