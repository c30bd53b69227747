// Read repair over the storage layer, randomized: replicas (RocksDB and
// reference engines) each receive a random subset of random mutations, in
// their own order, with flushes and compactions; together they received
// every mutation. For random reads:
//  * merging the replicas' unfiltered answers (Engine::ReadUnfiltered) and
//    applying the merge to an empty engine reads, page by page, as one
//    engine that received every mutation (the "model");
//  * a replica that received every mutation needs no repair (RepairDiff
//    sends nothing a replica already has);
//  * applying each replica's RepairDiff makes it read as the model, and
//    leaves nothing more to repair.

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/hex.h"
#include "storage/cells/mutation_merge.h"
#include "storage/engine.h"
#include "storage/random_workload_test_util.h"
#include "storage/read/read_result_text.h"
#include "storage/read/repair_diff.h"
#include "storage/reference/reference_engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

constexpr int kReplicas = 3;  // each receives part of the mutations

// A replica's answer for the partition of `like`: an empty Mutation when it had nothing.
Mutation AnswerFor(const std::vector<Mutation>& answer, const Mutation& like) {
  for (const Mutation& m : answer) {
    if (m.partition == like.partition) return m;
  }
  Mutation none;
  none.table_id = like.table_id;
  none.partition = like.partition;
  return none;
}

std::string Describe(const DeletionTime& d) {
  return d.is_live()
             ? "live"
             : std::to_string(d.marked_for_delete_at) + "@" + std::to_string(d.local_deletion_time);
}

// A Mutation as text, for failures.
std::string Describe(const Mutation& m) {
  std::ostringstream out;
  out << "partition " << ToHex(m.partition.key) << " deletion " << Describe(m.partition_deletion)
      << "\n";
  for (const auto& rt : m.range_tombstones) {
    out << "  range " << (rt.start.inclusive ? "[" : "(") << DescribeClustering(rt.start.prefix)
        << ", " << DescribeClustering(rt.end.prefix) << (rt.end.inclusive ? "]" : ")") << " "
        << Describe(rt.deletion) << "\n";
  }
  for (const auto& row : m.rows) {
    out << "  row " << (row.is_static ? "static" : DescribeClustering(row.clustering)) << " marker "
        << row.marker.timestamp << "/" << row.marker.ttl << "/" << row.marker.local_expiration_time
        << " deletion " << Describe(row.deletion) << "\n";
    for (const auto& cd : row.collection_deletions) {
      out << "    " << cd.column << " deleted " << Describe(cd.deletion) << "\n";
    }
    for (const auto& cw : row.cells) {
      out << "    " << cw.column << "[" << (cw.path ? ToHex(*cw.path) : "-") << "] kind "
          << static_cast<int>(cw.cell.kind) << " = " << ToHex(cw.cell.value) << " ts "
          << cw.cell.timestamp << " ttl " << cw.cell.ttl << " ldt " << cw.cell.local_deletion_time
          << "\n";
    }
  }
  return out.str();
}

std::vector<Mutation> Merge(const std::vector<std::vector<Mutation>>& answers) {
  std::vector<Mutation> all;
  for (const auto& answer : answers) all.insert(all.end(), answer.begin(), answer.end());
  return MergeByPartition(std::move(all));
}

class ReadRepairTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  ReadRepairTest() : clock_(int64_t{kCompactionNow} * 1'000'000), random_(GetParam()) {
    tables_ = {MakeTable(1), MakeTable(2, /*descending=*/true)};
    for (int r = 0; r < kReplicas; ++r) replicas_.push_back(NewEngine(/*on_disk=*/r % 2 == 0));
    complete_ = NewEngine(/*on_disk=*/true);
    model_.SyncTables(tables_);
  }

  std::unique_ptr<Engine> NewEngine(bool on_disk) {
    std::unique_ptr<Engine> engine;
    if (on_disk) {
      dirs_.push_back(std::make_unique<ScratchDir>());
      engine = Engine::Open({.directory = dirs_.back()->path()}, clock_);
    } else {
      engine = ReferenceEngine::Create();
    }
    engine->SyncTables(tables_);
    return engine;
  }

  // Random mutations to the model, the complete replica and, each in its
  // own order, the replicas (every mutation to at least one).
  void Write(int count) {
    std::vector<std::vector<Mutation>> given(kReplicas);
    for (int i = 0; i < count; ++i) {
      Mutation m = random_.RandomMutation(tables_[random_.Pick(0, 1)], /*counters=*/false);
      model_.Apply(m);
      complete_->Apply(m);
      const int first = random_.Pick(0, kReplicas - 1);
      for (int r = 0; r < kReplicas; ++r) {
        if (r == first || random_.Chance(40)) given[r].push_back(m);
      }
    }
    for (int r = 0; r < kReplicas; ++r) {
      std::shuffle(given[r].begin(), given[r].end(), random_.rng());
      for (const Mutation& m : given[r]) replicas_[r]->Apply(m);
      if (random_.Chance(40)) replicas_[r]->Flush();
      if (random_.Chance(25)) replicas_[r]->Compact(tables_[random_.Pick(0, 1)].id);
    }
  }

  // `engine` reads `command` as the model does, page by page.
  void ExpectReadsAsModel(const Engine& engine, ReadCommand command, const std::string& what) {
    for (int page = 0; page < 20; ++page) {
      const ReadResult expected = model_.Read(command);
      ASSERT_EQ(DescribeReadResult(engine.Read(command)), DescribeReadResult(expected))
          << what << "; seed " << GetParam() << ", page " << page << ", "
          << DescribeReadCommand(command);
      if (!expected.next) return;
      command.resume_after = expected.next;
    }
  }

  // Sends each replica its diff, then checks it reads as the model and has
  // nothing left to repair. Returns the number of non-empty diffs.
  int Repair(const TableLayout& table, const ReadCommand& command,
             const std::vector<std::vector<Mutation>>& answers,
             const std::vector<Mutation>& merged) {
    int sent = 0;
    for (int r = 0; r < kReplicas; ++r) {
      for (const Mutation& m : merged) {
        Mutation diff = RepairDiff(table, m, AnswerFor(answers[r], m));
        if (diff.empty()) continue;
        replicas_[r]->Apply(diff);
        ++sent;
      }
    }
    for (int r = 0; r < kReplicas; ++r) {
      const std::vector<Mutation> again = replicas_[r]->ReadUnfiltered(command);
      for (const Mutation& m : merged) {
        EXPECT_TRUE(RepairDiff(table, m, AnswerFor(again, m)).empty())
            << "replica " << r << " still needs repair; seed " << GetParam() << ", "
            << DescribeReadCommand(command) << "\nmerged:\n"
            << Describe(m) << "its answer:\n"
            << Describe(AnswerFor(again, m)) << "diff:\n"
            << Describe(RepairDiff(table, m, AnswerFor(again, m)));
      }
      ExpectReadsAsModel(*replicas_[r], command, "replica " + std::to_string(r) + " repaired");
    }
    return sent;
  }

  ManualClock clock_;
  RandomWorkload random_;
  std::vector<TableLayout> tables_;
  std::vector<std::unique_ptr<ScratchDir>> dirs_;
  std::vector<std::unique_ptr<Engine>> replicas_;
  std::unique_ptr<Engine> complete_;  // received every mutation, as the model
  ReferenceEngine model_;
};

TEST_P(ReadRepairTest, MergedAnswersReadAsAllWritesAndDiffsRepair) {
  int reads = 0, diffs_sent = 0;
  for (int round = 0; round < 6; ++round) {
    Write(60);
    for (int i = 0; i < 20; ++i) {
      const TableLayout& table = tables_[random_.Pick(0, 1)];
      const ReadCommand command = random_.RandomRead(table);
      std::vector<std::vector<Mutation>> answers;
      for (const auto& replica : replicas_) answers.push_back(replica->ReadUnfiltered(command));
      const std::vector<Mutation> merged = Merge(answers);

      ReferenceEngine rebuilt;
      rebuilt.SyncTables(tables_);
      for (const Mutation& m : merged) rebuilt.Apply(m);
      ExpectReadsAsModel(rebuilt, command, "merged answers");
      if (HasFatalFailure()) return;
      ++reads;

      const std::vector<Mutation> complete = complete_->ReadUnfiltered(command);
      for (const Mutation& m : merged) {
        const Mutation diff = RepairDiff(table, m, AnswerFor(complete, m));
        EXPECT_TRUE(diff.empty()) << "a replica with every write was sent a repair; seed "
                                  << GetParam() << ", " << DescribeReadCommand(command)
                                  << "\nmerged:\n"
                                  << Describe(m) << "its answer:\n"
                                  << Describe(AnswerFor(complete, m)) << "diff:\n"
                                  << Describe(diff);
      }
      if (random_.Chance(30)) diffs_sent += Repair(table, command, answers, merged);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_EQ(reads, 120);
  EXPECT_GT(diffs_sent, 10) << "seed " << GetParam() << ": the replicas hardly ever diverged";
}

// One replica's answer rebuilds its counters: a counter comes as its total.
TEST_P(ReadRepairTest, OneAnswerRebuildsCounters) {
  const std::vector<TableLayout> tables = {MakeCounterTable(3)};
  ScratchDir dir;
  auto engine = Engine::Open({.directory = dir.path()}, clock_);
  engine->SyncTables(tables);
  model_.SyncTables(tables);
  for (int i = 0; i < 150; ++i) {
    Mutation m = random_.RandomMutation(tables[0], /*counters=*/true);
    engine->Apply(m);
    model_.Apply(m);
    if (random_.Chance(5)) engine->Flush();
  }
  for (const Engine* source : std::vector<const Engine*>{engine.get(), &model_}) {
    for (int i = 0; i < 30; ++i) {
      const ReadCommand command = random_.RandomRead(tables[0]);
      ReferenceEngine rebuilt;
      rebuilt.SyncTables(tables);
      for (const Mutation& m : source->ReadUnfiltered(command)) rebuilt.Apply(m);
      ExpectReadsAsModel(rebuilt, command, "rebuilt counters");
      if (HasFatalFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ReadRepairTest, ::testing::Values(1u, 2u, 3u, 4u, 5u));

}  // namespace
}  // namespace sibyl::storage
