#include "storage/read/repair_diff.h"

#include <gtest/gtest.h>

#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

class RepairDiffTest : public ::testing::Test {
 protected:
  Mutation Empty() const { return MutationOf(table_, 1); }
  TableLayout table_ = MakeTable(1);
};

TEST_F(RepairDiffTest, SendsWhatWinsAndNothingTheReplicaHas) {
  Mutation merged = Empty();
  RowWrite& row = RowOf(merged, 1);
  row.marker = {10, 0, kNoDeletionTime};
  Set(row, "v", Dead(20, kNow));
  Set(row, "w", Live(10, Bytes("a")));
  SetElement(row, "m", Int(1), Live(10, Int(1)));

  Mutation replica = Empty();
  RowWrite& theirs = RowOf(replica, 1);
  theirs.marker = {10, 0, kNoDeletionTime};  // the same
  Set(theirs, "v", Live(15, Int(1)));        // older than the tombstone
  Set(theirs, "w", Live(10, Bytes("a")));    // the same

  const Mutation diff = RepairDiff(table_, merged, replica);
  ASSERT_EQ(diff.rows.size(), 1u);
  EXPECT_TRUE(diff.rows[0].marker.is_empty());
  ASSERT_EQ(diff.rows[0].cells.size(), 2u);
  EXPECT_EQ(diff.rows[0].cells[0].column, "v");
  EXPECT_EQ(diff.rows[0].cells[0].cell, Dead(20, kNow));
  EXPECT_EQ(diff.rows[0].cells[1].column, "m");

  EXPECT_TRUE(RepairDiff(table_, merged, merged).empty());
  // A replica that lacks the partition gets all of it.
  EXPECT_EQ(RepairDiff(table_, merged, Empty()), merged);
}

TEST_F(RepairDiffTest, DeadDataIsNotRepaired) {
  Mutation merged = Empty();
  merged.partition_deletion = {5, kNow};
  merged.range_tombstones.push_back({{{Int(0)}, true}, {{Int(2)}, true}, {12, kNow}});
  RowWrite& shadowed_by_range = RowOf(merged, 1);
  Set(shadowed_by_range, "v", Live(11, Int(1)));
  RowWrite& old = RowOf(merged, 5);
  Set(old, "v", Live(4, Int(1)));  // under the partition deletion
  RowWrite& collection = RowOf(merged, 6);
  collection.collection_deletions.push_back({"m", {8, kNow}});
  SetElement(collection, "m", Int(1), Live(7, Int(1)));  // under the collection deletion

  Mutation replica = Empty();
  RowOf(replica, 6).deletion = {9, kNow};  // the replica deleted row 6 later

  const Mutation diff = RepairDiff(table_, merged, replica);
  EXPECT_EQ(diff.partition_deletion, (DeletionTime{5, kNow}));
  EXPECT_EQ(diff.range_tombstones.size(), 1u);
  EXPECT_TRUE(diff.rows.empty());
}

TEST_F(RepairDiffTest, RangeTombstonesTheReplicaCoversAreNotSent) {
  Mutation merged = Empty();
  const RangeTombstone narrow{{{Int(2)}, true}, {{Int(3)}, true}, {10, kNow}};
  merged.range_tombstones = {narrow, narrow, narrow};  // sent by three replicas

  Mutation wide = Empty();
  wide.range_tombstones.push_back({{{Int(0)}, true}, {{Int(5)}, false}, {10, kNow}});
  EXPECT_TRUE(RepairDiff(table_, merged, wide).empty());

  Mutation weaker = Empty();
  weaker.range_tombstones.push_back({{{Int(0)}, true}, {{Int(5)}, false}, {9, kNow}});
  Mutation diff = RepairDiff(table_, merged, weaker);
  ASSERT_EQ(diff.range_tombstones.size(), 1u) << "once, though three replicas sent it";
  EXPECT_EQ(diff.range_tombstones[0], narrow);

  Mutation partial = Empty();
  partial.range_tombstones.push_back({{{Int(3)}, true}, {{Int(5)}, false}, {10, kNow}});
  EXPECT_EQ(RepairDiff(table_, merged, partial).range_tombstones.size(), 1u);

  Mutation deleted = Empty();
  deleted.partition_deletion = {10, kNow};
  EXPECT_TRUE(RepairDiff(table_, merged, deleted).empty());
}

TEST_F(RepairDiffTest, ElementsMatchByTheirPaths) {
  Mutation merged = Empty();
  RowWrite& row = RowOf(merged, 1);
  SetElement(row, "m", Int(1), Live(10, Int(1)));
  SetElement(row, "m", Int(2), Live(10, Int(2)));
  Mutation replica = Empty();
  SetElement(RowOf(replica, 1), "m", Int(2), Live(10, Int(2)));
  const Mutation diff = RepairDiff(table_, merged, replica);
  ASSERT_EQ(diff.rows.size(), 1u);
  ASSERT_EQ(diff.rows[0].cells.size(), 1u);
  EXPECT_EQ(diff.rows[0].cells[0].path, Int(1));
}

TEST_F(RepairDiffTest, RefusesCounters) {
  const TableLayout counters = MakeCounterTable(3);
  Mutation merged = MutationOf(counters, 1);
  Set(RowOf(merged, 1), "n", Delta(10, 5));
  EXPECT_THROW((void)RepairDiff(counters, merged, MutationOf(counters, 1)), std::invalid_argument);
}

}  // namespace
}  // namespace sibyl::storage
