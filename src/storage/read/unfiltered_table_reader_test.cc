// Engine::ReadUnfiltered on both engines (the RocksDB reader of
// unfiltered_table_reader.h and the reference engine): what comes, what is
// left out. read_repair_randomized_test.cc checks the contract at large.

#include "storage/read/unfiltered_table_reader.h"

#include <gtest/gtest.h>

#include <memory>

#include "storage/engine.h"
#include "storage/reference/reference_engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

class UnfilteredReadTest : public ::testing::TestWithParam<bool> {
 protected:
  UnfilteredReadTest() : clock_(int64_t{kNow} * 1'000'000), table_(MakeTable(1)) {
    table_.options.gc_grace_seconds = 100;
    if (GetParam()) {
      engine_ = Engine::Open({.directory = dir_.path()}, clock_);
    } else {
      engine_ = ReferenceEngine::Create();
    }
    engine_->SyncTables({table_});
  }

  std::vector<Mutation> Read(ReadCommand command) {
    if (GetParam() && flushed_) engine_->Flush();
    return engine_->ReadUnfiltered(command);
  }

  static const CellWrite* FindCell(const RowWrite& row, const std::string& column) {
    for (const auto& cell : row.cells) {
      if (cell.column == column) return &cell;
    }
    return nullptr;
  }

  ScratchDir dir_;
  ManualClock clock_;
  TableLayout table_;
  std::unique_ptr<Engine> engine_;
  bool flushed_ = false;
};

TEST_P(UnfilteredReadTest, TombstonesAndExpiredDataComeAsStored) {
  Mutation m = MutationOf(table_, 1);
  RowWrite& row = RowOf(m, 1);
  row.marker = {5, 10, kNow - 5};  // expired
  Set(row, "v", Live(10, Int(7)));
  Set(row, "w", Dead(20, kNow - 1));
  SetElement(row, "m", Int(1), Ttl(12, 10, kNow - 3, Int(2)));  // expired
  engine_->Apply(m);
  const auto answer = Read(ReadOf(table_, {1}, kNow));
  ASSERT_EQ(answer.size(), 1u);
  ASSERT_EQ(answer[0].rows.size(), 1u);
  const RowWrite& got = answer[0].rows[0];
  EXPECT_EQ(got.marker, (LivenessInfo{5, 10, kNow - 5}));
  ASSERT_NE(FindCell(got, "v"), nullptr);
  EXPECT_EQ(FindCell(got, "v")->cell, Live(10, Int(7)));
  ASSERT_NE(FindCell(got, "w"), nullptr);
  EXPECT_EQ(FindCell(got, "w")->cell, Dead(20, kNow - 1));
  ASSERT_NE(FindCell(got, "m"), nullptr);
  EXPECT_EQ(FindCell(got, "m")->path, Int(1));
  EXPECT_EQ(FindCell(got, "m")->cell, Ttl(12, 10, kNow - 3, Int(2)));
}

TEST_P(UnfilteredReadTest, ShadowedDataIsLeftOut) {
  Mutation m = MutationOf(table_, 1);
  m.range_tombstones.push_back({{{Int(0)}, true}, {{Int(3)}, true}, {25, kNow}});
  m.range_tombstones.push_back({{{Int(5)}, true}, {{Int(6)}, true}, {8, kNow}});  // shadowed
  m.partition_deletion = {9, kNow};
  RowWrite& row = RowOf(m, 1);
  Set(row, "v", Live(20, Int(1)));  // under the range tombstone
  RowWrite& other = RowOf(m, 4);
  other.deletion = {15, kNow};
  Set(other, "v", Live(12, Int(1)));  // under the row deletion
  Set(other, "w", Live(16, Bytes("x")));
  other.collection_deletions.push_back({"l", {14, kNow}});
  SetElement(other, "l", Bytes(16, 'a'), Live(13, Int(1)));  // under both
  engine_->Apply(m);
  const auto answer = Read(ReadOf(table_, {1}, kNow));
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_EQ(answer[0].partition_deletion, (DeletionTime{9, kNow}));
  ASSERT_EQ(answer[0].range_tombstones.size(), 1u);
  EXPECT_EQ(answer[0].range_tombstones[0].deletion.marked_for_delete_at, 25);
  ASSERT_EQ(answer[0].rows.size(), 1u);  // row 1 has nothing left
  const RowWrite& got = answer[0].rows[0];
  EXPECT_EQ(got.clustering, Clustering{Int(4)});
  EXPECT_EQ(got.deletion, (DeletionTime{15, kNow}));
  EXPECT_TRUE(got.collection_deletions.empty()) << "shadowed by the row deletion";
  ASSERT_EQ(got.cells.size(), 1u);
  EXPECT_EQ(got.cells[0].column, "w");
}

TEST_P(UnfilteredReadTest, TombstonesPastGcGraceAreLeftOut) {
  Mutation m = MutationOf(table_, 1);
  RowWrite& row = RowOf(m, 1);
  Set(row, "v", Dead(10, kNow - 101));                           // purgeable
  Set(row, "w", Dead(10, kNow - 99));                            // not yet
  SetElement(row, "m", Int(1), Ttl(10, 50, kNow - 60, Int(1)));  // written at kNow - 110
  SetElement(row, "m", Int(2), Ttl(10, 50, kNow - 40, Int(1)));  // written at kNow - 90
  engine_->Apply(m);
  Mutation gone = MutationOf(table_, 2);
  gone.partition_deletion = {5, kNow - 200};
  RowOf(gone, 1).deletion = {6, kNow - 300};
  engine_->Apply(gone);
  flushed_ = true;
  const auto answer = Read(ReadOf(table_, {1, 2}, kNow));
  ASSERT_EQ(answer.size(), 1u) << "partition 2 holds only purgeable deletions";
  ASSERT_EQ(answer[0].rows.size(), 1u);
  const RowWrite& got = answer[0].rows[0];
  ASSERT_EQ(got.cells.size(), 2u);
  EXPECT_EQ(FindCell(got, "v"), nullptr);
  ASSERT_NE(FindCell(got, "m"), nullptr);
  EXPECT_EQ(FindCell(got, "m")->path, Int(2));
  EXPECT_NE(FindCell(got, "w"), nullptr);
}

TEST_P(UnfilteredReadTest, SlicesAndColumns) {
  Mutation m = MutationOf(table_, 1);
  m.range_tombstones.push_back({{{Int(0)}, true}, {{Int(1)}, true}, {3, kNow}});
  m.range_tombstones.push_back({{{Int(4)}, true}, {{Int(6)}, false}, {3, kNow}});
  for (int c = 0; c < 8; ++c) {
    RowWrite& row = RowOf(m, c);
    Set(row, "v", Live(10, Int(c)));
    Set(row, "w", Live(10, Bytes("w")));
  }
  Set(StaticRowOf(m), "s", Live(10, Int(9)));
  engine_->Apply(m);

  ReadCommand command = ReadOf(table_, {1}, kNow);
  command.slices = {{{{Int(2)}, true}, {{Int(3)}, true}}, {{{Int(6)}, true}, {}}};
  command.columns = std::vector<std::string>{"v"};
  command.row_limit = 1;    // ignored
  command.reversed = true;  // ignored
  auto answer = Read(command);
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_TRUE(answer[0].range_tombstones.empty()) << "none overlaps [2, 3] or [6, end]";
  ASSERT_EQ(answer[0].rows.size(), 4u);  // 2, 3, 6, 7, in clustering order; no static row
  EXPECT_EQ(answer[0].rows[0].clustering, Clustering{Int(2)});
  EXPECT_EQ(answer[0].rows[3].clustering, Clustering{Int(7)});
  EXPECT_EQ(answer[0].rows[0].cells.size(), 2u) << "every regular column decides liveness";

  command.slices = {{{{Int(1)}, true}, {{Int(4)}, true}}};
  command.columns = std::vector<std::string>{"s"};
  answer = Read(command);
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_EQ(answer[0].range_tombstones.size(), 2u);
  ASSERT_EQ(answer[0].rows.size(), 5u);  // static, 1, 2, 3, 4
  EXPECT_TRUE(answer[0].rows[0].is_static);
}

TEST_P(UnfilteredReadTest, TokenRanges) {
  for (int k : {1, 2, 3}) {
    Mutation m = MutationOf(table_, k);
    Set(RowOf(m, 0), "v", Live(1, Int(k)));
    engine_->Apply(m);
  }
  ReadCommand command = ScanOf(table_, kNow);
  command.range = {Pk(1).token, Pk(3).token};  // (1, 3]
  const auto answer = Read(command);
  ASSERT_EQ(answer.size(), 2u);
  EXPECT_EQ(answer[0].partition, Pk(2));
  EXPECT_EQ(answer[1].partition, Pk(3));
}

INSTANTIATE_TEST_SUITE_P(Engines, UnfilteredReadTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "RocksDb" : "Reference"; });

}  // namespace
}  // namespace sibyl::storage
