// The compaction filter through the engine: what Compact() drops, converts
// and purges, observed through reads and their tombstone counts.

#include "storage/compaction/purge_compaction_filter.h"

#include <gtest/gtest.h>

#include "storage/engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

constexpr int32_t kGcGrace = 100;

class PurgeCompactionFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table_.options.gc_grace_seconds = kGcGrace;
    counters_.options.gc_grace_seconds = kGcGrace;
    engine_ = Engine::Open({.directory = dir_.path()}, clock_);
    engine_->SyncTables({table_, counters_});
  }
  ReadResult ReadAll(const TableLayout& table) {
    return engine_->Read(ScanOf(table, clock_.NowSeconds()));
  }
  int64_t Tombstones(const TableLayout& table) { return ReadAll(table).tombstones_scanned; }
  int Rows(const TableLayout& table) {
    int rows = 0;
    for (const auto& p : ReadAll(table).partitions) rows += static_cast<int>(p.rows.size());
    return rows;
  }

  ScratchDir dir_;
  ManualClock clock_{int64_t{kNow} * 1'000'000};
  TableLayout table_ = MakeTable(1);
  TableLayout counters_ = MakeCounterTable(2);
  std::unique_ptr<Engine> engine_;
};

TEST_F(PurgeCompactionFilterTest, DropsDataShadowedByADeletion) {
  Mutation write = MutationOf(table_, 1);
  for (int c = 0; c < 20; ++c) Set(RowOf(write, c), "v", Live(10, Int(c)));
  engine_->Apply(write);
  engine_->Flush();
  Mutation del = MutationOf(table_, 1);
  del.partition_deletion = {20, kNow};
  engine_->Apply(del);
  EXPECT_EQ(Tombstones(table_), 21);  // the deletion and 20 shadowed cells
  engine_->Compact(table_.id);
  EXPECT_EQ(Tombstones(table_), 1);  // the deletion stays (gc_grace not over)
  // ... so an older write arriving late stays deleted.
  engine_->Apply(write);
  EXPECT_EQ(Rows(table_), 0);
}

TEST_F(PurgeCompactionFilterTest, PurgesEveryKindOfTombstoneAfterGcGrace) {
  Mutation m = MutationOf(table_, 1);
  m.range_tombstones.push_back({{{Int(5)}, true}, {{Int(6)}, true}, {5, kNow}});
  RowOf(m, 1).deletion = {5, kNow};
  Set(RowOf(m, 2), "v", Dead(5, kNow));
  RowOf(m, 3).collection_deletions.push_back({"l", {5, kNow}});
  SetElement(m.rows.back(), "m", Int(1), Dead(5, kNow));
  engine_->Apply(m);
  Mutation partition = MutationOf(table_, 2);
  partition.partition_deletion = {5, kNow};
  engine_->Apply(partition);
  Mutation live = MutationOf(table_, 3);
  Set(RowOf(live, 1), "v", Live(5, Int(1)));
  engine_->Apply(live);
  const int64_t before = Tombstones(table_);
  EXPECT_EQ(before, 6);
  clock_.AdvanceSeconds(kGcGrace);  // local deletion time == gc_before: not yet
  engine_->Compact(table_.id);
  EXPECT_EQ(Tombstones(table_), before);
  clock_.AdvanceSeconds(1);
  engine_->Compact(table_.id);
  EXPECT_EQ(Tombstones(table_), 0);
  EXPECT_EQ(Rows(table_), 1);  // live data is untouched
}

TEST_F(PurgeCompactionFilterTest, ExpiredCellsBecomeTombstonesThenGo) {
  Mutation m = MutationOf(table_, 1);
  RowWrite& row = RowOf(m, 1);
  row.marker = {10, 30, kNow + 30};
  Set(row, "v", Ttl(10, 30, kNow + 30, Int(1)));
  // Same timestamp, expiring later: wins over the first while both live...
  Mutation later = MutationOf(table_, 1);
  Set(RowOf(later, 1), "v", Ttl(10, 60, kNow + 40, Int(2)));
  engine_->Apply(m);
  clock_.AdvanceSeconds(31);
  engine_->Compact(table_.id);  // converts the first (expired) cell
  engine_->Apply(later);
  // ... but the tombstone the first one became wins the tie, as in Cassandra.
  EXPECT_EQ(Rows(table_), 0);
  // Purgeable once gc_grace has passed since the write (expiry - ttl).
  clock_.AdvanceSeconds(kGcGrace);
  engine_->Compact(table_.id);
  EXPECT_EQ(Tombstones(table_), 0);
}

TEST_F(PurgeCompactionFilterTest, CounterTombstonesAreNeverDroppedAsShadowed) {
  Mutation inc = MutationOf(counters_, 1);
  Set(RowOf(inc, 1), "n", Delta(30, 5));
  Mutation del = MutationOf(counters_, 1);
  Set(RowOf(del, 1), "n", Dead(5, kNow));
  Mutation row_del = MutationOf(counters_, 1);
  RowOf(row_del, 1).deletion = {10, kNow};
  engine_->Apply(del);
  engine_->Apply(row_del);
  engine_->Flush();
  engine_->Apply(inc);
  EXPECT_EQ(Rows(counters_), 0);  // the counter tombstone wins over a later delta
  engine_->Compact(counters_.id);
  EXPECT_EQ(Rows(counters_), 0);
}

}  // namespace
}  // namespace sibyl::storage
