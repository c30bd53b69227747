// A batch's writes to one partition, merged, must leave what applying each
// of them would (reconcile.h), whatever their order.

#include "storage/cells/mutation_merge.h"

#include <gtest/gtest.h>

#include "storage/reference/reference_engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

Mutation WithCell(const std::string& column, Cell cell) {
  Mutation m;
  m.partition = PartitionKey{1, "k"};
  RowWrite row;
  row.clustering = {"c"};
  row.cells.push_back(CellWrite{column, std::nullopt, std::move(cell)});
  m.rows.push_back(std::move(row));
  return m;
}

Cell MergedCell(const Mutation& a, const Mutation& b) {
  std::vector<Mutation> merged = MergeByPartition({a, b});
  EXPECT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].rows.size(), 1u);
  EXPECT_EQ(merged[0].rows[0].cells.size(), 1u);
  return merged[0].rows[0].cells[0].cell;
}

// Cells.reconcile: at one timestamp the expiring cell wins over a plain one,
// in either order (a batch once kept the greater value instead).
TEST(MutationMergeTest, ExpiringCellWinsATie) {
  const Mutation ttl = WithCell("v", Ttl(5, 1000, 2000, "\x01"));
  const Mutation plain = WithCell("v", Live(5, "\x02"));
  EXPECT_EQ(MergedCell(ttl, plain), ttl.rows[0].cells[0].cell);
  EXPECT_EQ(MergedCell(plain, ttl), ttl.rows[0].cells[0].cell);
}

TEST(MutationMergeTest, TheMergeIsWhatTheReferenceReconciles) {
  const std::vector<Cell> cells = {Live(5, "a"),        Live(5, "b"),
                                   Live(6, "a"),        Ttl(5, 10, 100, "a"),
                                   Ttl(5, 20, 90, "z"), Cell{Cell::Kind::kTombstone, 5, 0, 50, ""}};
  for (const Cell& a : cells) {
    for (const Cell& b : cells) {
      EXPECT_EQ(MergedCell(WithCell("v", a), WithCell("v", b)),
                ReferenceEngine::ReconcileCells(a, b));
    }
  }
}

TEST(MutationMergeTest, CounterDeltasAddUp) {
  const Cell merged = MergedCell(WithCell("n", Delta(5, 2)), WithCell("n", Delta(7, 3)));
  EXPECT_EQ(merged.kind, Cell::Kind::kCounter);
  EXPECT_EQ(merged.timestamp, 7);
  EXPECT_EQ(LoadBE64(merged.value.data()), 5u);
}

TEST(MutationMergeTest, PartitionsStayApartAndDeletionsKeepTheStronger) {
  Mutation a = WithCell("v", Live(5, "a"));
  a.partition_deletion = DeletionTime{3, 100};
  a.rows[0].marker = LivenessInfo{5, 0, kNoDeletionTime};
  Mutation b = WithCell("w", Live(5, "b"));
  b.partition_deletion = DeletionTime{4, 90};
  b.rows[0].marker = LivenessInfo{5, 10, 200};
  Mutation elsewhere = WithCell("v", Live(5, "c"));
  elsewhere.partition.key = "other";
  std::vector<Mutation> merged = MergeByPartition({a, elsewhere, b});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].partition_deletion, (DeletionTime{4, 90}));
  EXPECT_EQ(merged[0].rows[0].marker, (LivenessInfo{5, 10, 200}));  // expiring wins the tie
  EXPECT_EQ(merged[0].rows[0].cells.size(), 2u);
  EXPECT_EQ(merged[1].partition.key, "other");
}

}  // namespace
}  // namespace sibyl::storage
