// The large-data ledger through the RocksDB engine: what the properties
// collector records at flush and compaction, and how the ledger sums a
// partition's pieces over the table's files.

#include "storage/ledger/large_data_ledger.h"

#include <gtest/gtest.h>

#include "storage/codec/key_codec.h"
#include "storage/engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage::ledger {
namespace {

using namespace storage::testing;  // NOLINT

class LargeDataLedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = Engine::Open({.directory = dir_.path()}, clock_);
    engine_->SyncTables({table_});
  }

  // Rows first..first+count-1 of partition `pk`, each with a `w` of `bytes` bytes.
  void WriteRows(int32_t pk, int32_t first, int32_t count, size_t bytes) {
    Mutation m = MutationOf(table_, pk);
    for (int32_t c = first; c < first + count; ++c) {
      RowWrite& row = RowOf(m, c);
      row.marker = {100, 0, kNoDeletionTime};
      Set(row, "w", Live(100, Bytes(bytes, 'x')));
    }
    engine_->Apply(m);
  }

  const TableLedger& Table() {
    snapshot_ = engine_->LargeData();
    EXPECT_TRUE(snapshot_);
    static const TableLedger kEmpty;
    if (!snapshot_) return kEmpty;
    auto it = snapshot_->tables.find(table_.id);
    return it == snapshot_->tables.end() ? kEmpty : *it->second;
  }

  ScratchDir dir_;
  ManualClock clock_{int64_t{kNow} * 1'000'000};
  TableLayout table_ = MakeTable(1);
  std::unique_ptr<Engine> engine_;
  std::shared_ptr<const LedgerSnapshot> snapshot_;
};

TEST_F(LargeDataLedgerTest, NothingIsNamedBeforeAFlush) {
  WriteRows(1, 0, 10, 200 << 10);
  EXPECT_FALSE(engine_->FindLargePartition(table_.id, Pk(1)));
  EXPECT_EQ(Table().files, 0u);
}

TEST_F(LargeDataLedgerTest, APartitionOverThreeFlushesIsSummed) {
  // 1.5 MiB per flush: each file names its piece (over the 1 MiB floor).
  for (int flush = 0; flush < 3; ++flush) {
    WriteRows(42, flush * 10, 10, 150 << 10);
    WriteRows(7, flush, 1, 100);  // a small neighbour, never named
    engine_->Flush();
  }
  const TableLedger& table = Table();
  EXPECT_EQ(table.files, 3u);
  EXPECT_EQ(table.unmeasured_files, 0u);
  ASSERT_EQ(table.partitions.size(), 1u);
  auto found = engine_->FindLargePartition(table_.id, Pk(42));
  ASSERT_TRUE(found);
  EXPECT_GT(found->bytes, 30u * (150 << 10));
  EXPECT_LT(found->bytes, 30u * (151 << 10));
  EXPECT_EQ(found->rows, 30u);
  EXPECT_EQ(found->cells, 30u);
  EXPECT_EQ(found->tombstones, 0u);
  EXPECT_GT(found->largest_row_bytes, 150u << 10);
  EXPECT_FALSE(engine_->FindLargePartition(table_.id, Pk(7)));
  // Every partition of every file is in the histograms: 7's three pieces
  // (too small to be named, so not summed), and 42 once, as its sum.
  EXPECT_EQ(table.histograms.bytes.count(), 4u);
  EXPECT_EQ(table.histograms.rows.max(), 30u);
  EXPECT_EQ(table.histograms.rows.min(), 1u);
  EXPECT_EQ(table.histograms.rows.Percentile(0.75), 1u);

  engine_->Compact(table_.id);
  const TableLedger& compacted = Table();
  EXPECT_EQ(compacted.files, 1u);
  auto exact = engine_->FindLargePartition(table_.id, Pk(42));
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->rows, 30u);
  EXPECT_EQ(exact->bytes, found->bytes - 0) << "compaction rewrote the same records";
  EXPECT_EQ(compacted.histograms.bytes.count(), 2u);
  EXPECT_EQ(compacted.histograms.rows.max(), 30u);
}

TEST_F(LargeDataLedgerTest, RewritingTheSameRowsCountsThemOnceAfterCompaction) {
  for (int flush = 0; flush < 2; ++flush) {
    WriteRows(1, 0, 1000, 10);
    engine_->Flush();
  }
  EXPECT_EQ(engine_->FindLargePartition(table_.id, Pk(1))->rows, 2000u) << "summed over files";
  engine_->Compact(table_.id);
  EXPECT_EQ(engine_->FindLargePartition(table_.id, Pk(1))->rows, 1000u);
}

TEST_F(LargeDataLedgerTest, CountsTombstonesRowsCellsAndCollections) {
  Mutation m = MutationOf(table_, 3);
  for (int32_t c = 0; c < 150; ++c) {
    RowWrite& row = RowOf(m, c);
    Set(row, "v", Dead(100, kNow));  // a cell tombstone per row
  }
  RowWrite& big = RowOf(m, 1000);
  for (int32_t i = 0; i < 120; ++i) SetElement(big, "st", Int(i), Live(100, ""));
  Set(big, "w", Live(100, Bytes(300 << 10, 'y')));
  engine_->Apply(m);
  engine_->Flush();
  auto found = engine_->FindLargePartition(table_.id, Pk(3));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->rows, 151u);
  EXPECT_EQ(found->tombstones, 150u);
  EXPECT_EQ(found->cells, 150u + 120u + 1u);
  EXPECT_EQ(found->largest_collection_items, 120u);
  const TableLedger& table = Table();
  ASSERT_EQ(table.cells.size(), 2u);  // the set (120 elements) and the 300 KiB text
  const CellFigures* set = nullptr;
  const CellFigures* text = nullptr;
  for (const CellFigures& c : table.cells) (c.column == "st" ? set : text) = &c;
  ASSERT_TRUE(set && text);
  EXPECT_EQ(set->items, 120u);
  EXPECT_EQ(text->column, "w");
  EXPECT_EQ(text->bytes, 300u << 10);
  EXPECT_EQ(text->items, 0u);
  Bytes clustering;
  AppendClustering(table_, {Int(1000)}, clustering);
  EXPECT_EQ(text->clustering, clustering);
  EXPECT_FALSE(text->is_static);
}

TEST_F(LargeDataLedgerTest, NamesRowsOverTheRowFloor) {
  Mutation m = MutationOf(table_, 5);
  Set(RowOf(m, 1), "w", Live(100, Bytes(600 << 10, 'a')));
  Set(RowOf(m, 2), "w", Live(100, Bytes(1100 << 10, 'b')));
  engine_->Apply(m);
  engine_->Flush();
  const TableLedger& table = Table();
  ASSERT_EQ(table.rows.size(), 1u);
  Bytes clustering;
  AppendClustering(table_, {Int(2)}, clustering);
  EXPECT_EQ(table.rows[0].clustering, clustering);
  EXPECT_GT(table.rows[0].bytes, 1100u << 10);
  EXPECT_EQ(table.rows[0].cells, 1u);
}

TEST_F(LargeDataLedgerTest, CountsTheMemtablesShareOfANamedPartitionUntilItsFlush) {
  WriteRows(42, 0, 10, 150 << 10);  // 1.5 MiB: named at the flush
  WriteRows(7, 0, 10, 10);          // a small neighbour, never named
  engine_->Flush();
  const uint64_t flushed = engine_->FindLargePartition(table_.id, Pk(42))->bytes;

  WriteRows(42, 10, 10, 150 << 10);  // 1.5 MiB more, in the memtable
  const auto with_memtable = engine_->FindLargePartition(table_.id, Pk(42));
  ASSERT_TRUE(with_memtable);
  EXPECT_GT(with_memtable->bytes, flushed + 10 * (150 << 10));
  EXPECT_EQ(with_memtable->rows, 10u) << "rows count from the flush";
  EXPECT_EQ(Table().Current(0).bytes, with_memtable->bytes) << "the views see it too";

  // A compaction keeps the memtable's share: the memtable is not in it.
  engine_->Compact(table_.id);  // flushes first: the share is now in a file
  const auto compacted = engine_->FindLargePartition(table_.id, Pk(42));
  EXPECT_EQ(compacted->rows, 20u);
  EXPECT_LT(compacted->bytes, with_memtable->bytes + 1024) << "not counted twice";
  EXPECT_GT(compacted->bytes, with_memtable->bytes - 1024);
}

TEST(LargeDataLedgerUnitTest, ACompactionKeepsTheMemtablesShareAFlushDropsIt) {
  // The ledger alone: two files each naming partition "p".
  FileLedger file;
  file.partitions.push_back({"p", 2 << 20, 1, 1, 0, 2 << 20, 0});
  file.histograms.bytes.Add(2 << 20);
  const Bytes property = EncodeFileLedger(file);
  LargeDataLedger ledger;
  const types::Uuid id = storage::testing::TableId(1);
  ledger.Rebuild(id, {{"a.sst", BytesView(property)}}, 1, /*memtable_flushed=*/true);
  // Name a real key's prefix, so that AddUnflushed finds it.
  const PartitionKey key = storage::testing::Pk(5);
  Bytes prefix;
  AppendPartitionPrefix(key, prefix);
  file.partitions[0].prefix = prefix;
  const Bytes named = EncodeFileLedger(file);
  ledger.Rebuild(id, {{"b.sst", BytesView(named)}}, 2, /*memtable_flushed=*/true);
  ASSERT_EQ(ledger.FindPartition(id, key)->bytes, 2u << 20);
  ledger.AddUnflushed(id, key, 1000);
  ledger.AddUnflushed(id, storage::testing::Pk(6), 1000);  // not named: not counted
  EXPECT_EQ(ledger.FindPartition(id, key)->bytes, (2u << 20) + 1000);
  ledger.Rebuild(id, {{"b.sst", BytesView(named)}}, 3, /*memtable_flushed=*/false);
  EXPECT_EQ(ledger.FindPartition(id, key)->bytes, (2u << 20) + 1000) << "after a compaction";
  ledger.Rebuild(id, {{"b.sst", BytesView(named)}}, 4, /*memtable_flushed=*/true);
  EXPECT_EQ(ledger.FindPartition(id, key)->bytes, (2u << 20) + 1000)
      << "a flush whose file was seen already (the listener after the engine)";
  ledger.Rebuild(id, {{"b.sst", BytesView(named)}, {"c.sst", BytesView(property)}}, 5,
                 /*memtable_flushed=*/true);
  EXPECT_EQ(ledger.FindPartition(id, key)->bytes, 2u << 20) << "after a flush";
  ledger.Forget(id);
  EXPECT_FALSE(ledger.FindPartition(id, key));
  EXPECT_FALSE(ledger.has_named_partitions());
}

TEST_F(LargeDataLedgerTest, TruncateForgetsAndReopeningRemeasures) {
  WriteRows(9, 0, 2, 700 << 10);
  engine_->Flush();
  ASSERT_TRUE(engine_->FindLargePartition(table_.id, Pk(9)));
  engine_.reset();
  engine_ = Engine::Open({.directory = dir_.path()}, clock_);
  engine_->SyncTables({table_});
  ASSERT_TRUE(engine_->FindLargePartition(table_.id, Pk(9))) << "read back from the files";
  engine_->Truncate(table_.id);
  EXPECT_FALSE(engine_->FindLargePartition(table_.id, Pk(9)));
}

TEST(FileLedgerCodecTest, RoundTripsAndRefusesTruncation) {
  FileLedger ledger;
  ledger.partitions.push_back({"abc", 5 << 20, 3, 4, 5, 6, 7});
  ledger.rows.push_back({"abc", true, "", 2 << 20, 9});
  ledger.cells.push_back({"abc", false, "cl", "m", 300, 120});
  for (uint64_t v : {1, 10, 1000, 1 << 30}) ledger.histograms.bytes.Add(v);
  ledger.histograms.rows.Add(0);
  const Bytes encoded = EncodeFileLedger(ledger);
  EXPECT_EQ(DecodeFileLedger(encoded), ledger);
  for (size_t cut = 0; cut < encoded.size(); ++cut) {
    EXPECT_FALSE(DecodeFileLedger(BytesView(encoded).substr(0, cut))) << cut;
  }
  EXPECT_FALSE(DecodeFileLedger(encoded + "x"));
}

TEST(MeasureHistogramTest, AnswersPercentilesAsEstimatedHistogramDoes) {
  MeasureHistogram h;
  EXPECT_EQ(h.Percentile(0.5), 0u);
  EXPECT_EQ(MeasureHistogram::BucketOffset(0), 1u);
  EXPECT_EQ(MeasureHistogram::BucketOffset(1), 2u);
  EXPECT_EQ(MeasureHistogram::BucketOffset(5), 6u);
  EXPECT_EQ(MeasureHistogram::BucketOffset(6), 7u);
  EXPECT_EQ(MeasureHistogram::BucketOffset(7), 8u);
  EXPECT_EQ(MeasureHistogram::BucketOffset(8), 10u);
  for (uint64_t v = 1; v <= 100; ++v) h.Add(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_EQ(h.max(), 100u);
  // The 50th value (50) is in the bucket (42, 50]: 50.
  EXPECT_EQ(h.Percentile(0.5), 50u);
  EXPECT_EQ(h.Percentile(0.99), 100u) << "never above the maximum";
  MeasureHistogram other;
  other.Add(1'000'000);
  h.Merge(other);
  EXPECT_EQ(h.max(), 1'000'000u);
  EXPECT_EQ(h.count(), 101u);
}

}  // namespace
}  // namespace sibyl::storage::ledger
