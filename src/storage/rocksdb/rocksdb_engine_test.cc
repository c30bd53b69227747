#include "storage/rocksdb/rocksdb_engine.h"

#include <gtest/gtest.h>

#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

class RocksDbEngineTest : public ::testing::Test {
 protected:
  void SetUp() override { Reopen(); }
  void Reopen(CommitlogSync sync = CommitlogSync::kPeriodic) {
    engine_.reset();
    engine_ = Engine::Open({.directory = dir_.path(), .sync = sync}, clock_);
    engine_->SyncTables(tables_);
  }
  ReadResult Read(const ReadCommand& command) { return engine_->Read(command); }
  // The rows of one partition, read at `now`.
  std::vector<ReadRow> Rows(int32_t pk, int32_t now = kNow) {
    auto result = Read(ReadOf(table_, {pk}, now));
    if (result.partitions.empty()) return {};
    return result.partitions[0].rows;
  }
  std::optional<Bytes> Value(int32_t pk, int32_t c, const std::string& column, int32_t now = kNow) {
    for (const auto& row : Rows(pk, now)) {
      if (row.clustering != Clustering{Int(c)}) continue;
      for (const auto& cell : row.cells) {
        if (cell.column == column && !cell.path) return cell.value;
      }
    }
    return std::nullopt;
  }
  void Write(Mutation m) { engine_->Apply(m); }

  ScratchDir dir_;
  ManualClock clock_{int64_t{kNow} * 1'000'000};
  TableLayout table_ = MakeTable(1);
  TableLayout desc_ = MakeTable(2, /*descending=*/true);
  TableLayout counters_ = MakeCounterTable(3);
  std::vector<TableLayout> tables_ = {table_, desc_, counters_};
  std::unique_ptr<Engine> engine_;
};

TEST_F(RocksDbEngineTest, InsertedRowReadsBackWithMarkerAndCells) {
  Mutation m = MutationOf(table_, 1);
  RowWrite& row = RowOf(m, 10);
  row.marker = {100, 0, kNoDeletionTime};
  Set(row, "v", Live(100, Int(7)));
  Set(row, "w", Live(100, "hello"));
  Write(m);
  auto rows = Rows(1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].clustering, Clustering{Int(10)});
  EXPECT_EQ(rows[0].marker.timestamp, 100);
  ASSERT_EQ(rows[0].cells.size(), 2u);
  EXPECT_EQ(rows[0].cells[0].column, "v");
  EXPECT_EQ(rows[0].cells[0].value, Int(7));
  EXPECT_EQ(rows[0].cells[0].timestamp, 100);
  EXPECT_EQ(rows[0].cells[1].value, "hello");
}

TEST_F(RocksDbEngineTest, HigherTimestampWinsWhateverTheArrivalOrder) {
  Mutation newer = MutationOf(table_, 1);
  Set(RowOf(newer, 1), "v", Live(20, Int(2)));
  Mutation older = MutationOf(table_, 1);
  Set(RowOf(older, 1), "v", Live(10, Int(1)));
  Write(newer);
  Write(older);
  EXPECT_EQ(Value(1, 1, "v"), Int(2));
  engine_->Flush();
  Write(older);
  EXPECT_EQ(Value(1, 1, "v"), Int(2));
}

TEST_F(RocksDbEngineTest, TiesGoToTombstonesThenGreaterValues) {
  Mutation a = MutationOf(table_, 1);
  Set(RowOf(a, 1), "v", Live(10, Int(5)));
  Mutation b = MutationOf(table_, 1);
  Set(RowOf(b, 1), "v", Live(10, Int(3)));
  Write(a);
  Write(b);
  EXPECT_EQ(Value(1, 1, "v"), Int(5));
  Mutation tomb = MutationOf(table_, 1);
  Set(RowOf(tomb, 1), "v", Dead(10, kNow));
  Write(tomb);
  EXPECT_EQ(Value(1, 1, "v"), std::nullopt);
  EXPECT_TRUE(Rows(1).empty());  // no marker: the row died with its only cell
}

TEST_F(RocksDbEngineTest, RowMarkerKeepsAnInsertedRowAlive) {
  Mutation insert = MutationOf(table_, 1);
  RowWrite& row = RowOf(insert, 1);
  row.marker = {10, 0, kNoDeletionTime};
  Set(row, "v", Live(10, Int(1)));
  Write(insert);
  Mutation remove = MutationOf(table_, 1);
  Set(RowOf(remove, 1), "v", Dead(11, kNow));
  Write(remove);
  auto rows = Rows(1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].cells.empty());
  EXPECT_EQ(rows[0].marker.timestamp, 10);
}

TEST_F(RocksDbEngineTest, RowDeletionShadowsOnlyOlderData) {
  Mutation write = MutationOf(table_, 1);
  RowWrite& row = RowOf(write, 1);
  row.marker = {10, 0, kNoDeletionTime};
  Set(row, "v", Live(10, Int(1)));
  Set(row, "w", Live(30, "late"));
  Write(write);
  Mutation del = MutationOf(table_, 1);
  RowOf(del, 1).deletion = {20, kNow};
  Write(del);
  auto rows = Rows(1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].marker.is_empty());
  ASSERT_EQ(rows[0].cells.size(), 1u);
  EXPECT_EQ(rows[0].cells[0].column, "w");
  EXPECT_GT(Read(ReadOf(table_, {1}, kNow)).tombstones_scanned, 0);
}

TEST_F(RocksDbEngineTest, RangeTombstoneDeletesRowsInItsBounds) {
  Mutation write = MutationOf(table_, 1);
  for (int c = 0; c < 6; ++c) Set(RowOf(write, c), "v", Live(10, Int(c)));
  Write(write);
  Mutation del = MutationOf(table_, 1);
  del.range_tombstones.push_back({{{Int(1)}, false}, {{Int(4)}, true}, {15, kNow}});
  Write(del);
  Mutation late = MutationOf(table_, 1);
  Set(RowOf(late, 3), "v", Live(16, Int(33)));
  Write(late);
  std::vector<Clustering> seen;
  for (const auto& row : Rows(1)) seen.push_back(row.clustering);
  EXPECT_EQ(seen, (std::vector<Clustering>{{Int(0)}, {Int(1)}, {Int(3)}, {Int(5)}}));
  EXPECT_EQ(Value(1, 3, "v"), Int(33));
}

TEST_F(RocksDbEngineTest, PartitionDeletionShadowsEverythingOlderIncludingStatics) {
  Mutation write = MutationOf(table_, 1);
  Set(StaticRowOf(write), "s", Live(10, Int(9)));
  Set(RowOf(write, 1), "v", Live(10, Int(1)));
  Set(RowOf(write, 2), "v", Live(30, Int(2)));
  Write(write);
  Mutation del = MutationOf(table_, 1);
  del.partition_deletion = {20, kNow};
  Write(del);
  auto result = Read(ReadOf(table_, {1}, kNow));
  ASSERT_EQ(result.partitions.size(), 1u);
  EXPECT_FALSE(result.partitions[0].static_row);
  ASSERT_EQ(result.partitions[0].rows.size(), 1u);
  EXPECT_EQ(result.partitions[0].rows[0].clustering, Clustering{Int(2)});
}

TEST_F(RocksDbEngineTest, StaticRowIsReturnedWithAndWithoutRows) {
  Mutation only_static = MutationOf(table_, 1);
  Set(StaticRowOf(only_static), "s", Live(10, Int(9)));
  Write(only_static);
  auto result = Read(ReadOf(table_, {1}, kNow));
  ASSERT_EQ(result.partitions.size(), 1u);
  ASSERT_TRUE(result.partitions[0].static_row);
  EXPECT_EQ(result.partitions[0].static_row->cells[0].value, Int(9));
  EXPECT_TRUE(result.partitions[0].rows.empty());
  // Not asked for: not read.
  auto command = ReadOf(table_, {1}, kNow);
  command.columns = std::vector<std::string>{"v"};
  EXPECT_TRUE(Read(command).partitions.empty());
}

TEST_F(RocksDbEngineTest, CollectionsAreStoredPerElement) {
  auto uuid = [](int64_t t) { return types::Uuid::TimeBased(t, 0x8000000000000001).ToBytes(); };
  Mutation first = MutationOf(table_, 1);
  RowWrite& row = RowOf(first, 1);
  SetElement(row, "l", uuid(2), Live(10, Int(200)));
  SetElement(row, "l", uuid(1), Live(10, Int(100)));
  SetElement(row, "m", Int(5), Live(10, Int(50)));
  SetElement(row, "m", Int(-5), Live(10, Int(-50)));
  SetElement(row, "st", Int(3), Live(10, ""));
  Write(first);
  // Appending reads nothing: another element, written separately.
  Mutation append = MutationOf(table_, 1);
  SetElement(RowOf(append, 1), "st", Int(1), Live(11, ""));
  SetElement(RowOf(append, 1).cells.empty() ? append.rows[0] : append.rows[0], "m", Int(5),
             Dead(12, kNow));
  Write(append);
  auto rows = Rows(1);
  ASSERT_EQ(rows.size(), 1u);
  std::vector<std::pair<std::string, Bytes>> cells;
  for (const auto& cell : rows[0].cells) cells.emplace_back(cell.column, *cell.path);
  EXPECT_EQ(cells,
            (std::vector<std::pair<std::string, Bytes>>{
                {"l", uuid(1)}, {"l", uuid(2)}, {"m", Int(-5)}, {"st", Int(1)}, {"st", Int(3)}}));
  // SET l = [...] deletes the old list just before writing the new one.
  Mutation replace = MutationOf(table_, 1);
  RowWrite& r = RowOf(replace, 1);
  r.collection_deletions.push_back({"l", {19, kNow}});
  SetElement(r, "l", uuid(3), Live(20, Int(300)));
  Write(replace);
  rows = Rows(1);
  ASSERT_EQ(rows.size(), 1u);
  int list_elements = 0;
  for (const auto& cell : rows[0].cells) list_elements += cell.column == "l";
  EXPECT_EQ(list_elements, 1);
}

TEST_F(RocksDbEngineTest, CellsExpireAtTheirTtl) {
  Mutation m = MutationOf(table_, 1);
  RowWrite& row = RowOf(m, 1);
  row.marker = {10, 100, kNow + 100};
  Set(row, "v", Ttl(10, 50, kNow + 50, Int(1)));
  Set(row, "w", Live(10, "forever"));
  Write(m);
  auto rows = Rows(1, kNow + 49);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].cells.size(), 2u);
  EXPECT_EQ(rows[0].cells[0].ttl, 50);
  EXPECT_EQ(rows[0].cells[0].local_expiration_time, kNow + 50);
  EXPECT_EQ(Value(1, 1, "v", kNow + 50), std::nullopt);
  rows = Rows(1, kNow + 100);
  ASSERT_EQ(rows.size(), 1u);  // w keeps it alive
  EXPECT_TRUE(rows[0].marker.is_empty());
}

TEST_F(RocksDbEngineTest, CountersSumDeltasAndStayDeleted) {
  for (int64_t delta : {5, -2, 10}) {
    Mutation m = MutationOf(counters_, 1);
    Set(RowOf(m, 1), "n", Delta(clock_.NextTimestampMicros(), delta));
    Write(m);
    if (delta == -2) engine_->Flush();
  }
  auto result = Read(ReadOf(counters_, {1}, kNow));
  ASSERT_EQ(result.partitions.size(), 1u);
  EXPECT_EQ(result.partitions[0].rows[0].cells[0].value, Long(13));
  Mutation del = MutationOf(counters_, 1);
  Set(RowOf(del, 1), "n", Dead(1, kNow));  // older than the increments, still wins
  Write(del);
  Mutation again = MutationOf(counters_, 1);
  Set(RowOf(again, 1), "n", Delta(clock_.NextTimestampMicros(), 1));
  Write(again);
  EXPECT_TRUE(Read(ReadOf(counters_, {1}, kNow)).partitions.empty());
}

TEST_F(RocksDbEngineTest, DescendingClusteringAndReversedReads) {
  Mutation m = MutationOf(desc_, 1);
  for (int c : {2, 9, -4, 5}) Set(RowOf(m, c), "v", Live(10, Int(c)));
  Write(m);
  auto order = [&](ReadCommand command) {
    std::vector<Bytes> seen;
    for (const auto& p : Read(command).partitions) {
      for (const auto& row : p.rows) seen.push_back(row.clustering[0]);
    }
    return seen;
  };
  auto command = ReadOf(desc_, {1}, kNow);
  EXPECT_EQ(order(command), (std::vector<Bytes>{Int(9), Int(5), Int(2), Int(-4)}));
  command.reversed = true;
  EXPECT_EQ(order(command), (std::vector<Bytes>{Int(-4), Int(2), Int(5), Int(9)}));
  // c > 0 AND c <= 5: in DESC order the slice runs from 5 down to 0.
  command.reversed = false;
  command.slices = {{{{Int(5)}, true}, {{Int(0)}, false}}};
  EXPECT_EQ(order(command), (std::vector<Bytes>{Int(5), Int(2)}));
  command.reversed = true;
  EXPECT_EQ(order(command), (std::vector<Bytes>{Int(2), Int(5)}));
}

TEST_F(RocksDbEngineTest, SlicesSelectRows) {
  Mutation m = MutationOf(table_, 1);
  for (int c = 0; c < 10; ++c) Set(RowOf(m, c), "v", Live(10, Int(c)));
  Write(m);
  auto command = ReadOf(table_, {1}, kNow);
  command.slices = {{{{Int(1)}, true}, {{Int(2)}, true}}, {{{Int(7)}, false}, {{}, true}}};
  std::vector<Bytes> seen;
  ReadResult result = Read(command);
  ASSERT_EQ(result.partitions.size(), 1u);
  for (const auto& row : result.partitions[0].rows) seen.push_back(row.clustering[0]);
  EXPECT_EQ(seen, (std::vector<Bytes>{Int(1), Int(2), Int(8), Int(9)}));
}

TEST_F(RocksDbEngineTest, PagingResumesWhereTheLimitStopped) {
  for (int pk = 1; pk <= 3; ++pk) {
    Mutation m = MutationOf(table_, pk);
    for (int c = 0; c < 3; ++c) Set(RowOf(m, c), "v", Live(10, Int(pk * 10 + c)));
    Write(m);
  }
  for (bool reversed : {false, true}) {
    std::vector<std::pair<Bytes, Bytes>> seen;
    ReadCommand command = ScanOf(table_, kNow);
    command.row_limit = 2;
    command.reversed = reversed;
    for (int page = 0; page < 10; ++page) {
      ReadResult result = Read(command);
      int rows = 0;
      for (const auto& p : result.partitions) {
        for (const auto& row : p.rows) {
          seen.emplace_back(p.key.key, row.clustering[0]);
          ++rows;
        }
      }
      EXPECT_LE(rows, 2);
      if (!result.next) break;
      command.resume_after = result.next;
    }
    ASSERT_EQ(seen.size(), 9u);
    EXPECT_EQ(seen[0].first, Int(1));
    EXPECT_EQ(seen[0].second, reversed ? Int(2) : Int(0));
    EXPECT_EQ(seen[4].first, Int(2));
    EXPECT_EQ(seen[8].first, Int(3));
  }
}

// An empty text on a DESC column encodes as all 0xFF: there is no key after
// it, and a page that ended on it must not start the partition over (found
// by the statement fuzzer).
TEST_F(RocksDbEngineTest, PagingEndsAfterAnEmptyTextOnADescendingColumn) {
  TableLayout text = MakeTable(4, /*descending=*/true);
  text.clustering[0].type = types::CqlType::Native(types::Kind::kText);
  tables_.push_back(text);
  engine_->SyncTables(tables_);
  Mutation m = MutationOf(text, 1);
  for (const char* c : {"", "ab"}) {
    RowWrite row;
    row.clustering = {Bytes(c)};
    row.cells.push_back(CellWrite{"v", std::nullopt, Live(10, Int(1))});
    m.rows.push_back(row);
  }
  Write(m);
  ReadCommand command = ReadOf(text, {1}, kNow);
  command.row_limit = 1;
  std::vector<Bytes> seen;
  for (int page = 0; page < 5; ++page) {
    ReadResult result = Read(command);
    for (const auto& p : result.partitions) {
      for (const auto& row : p.rows) seen.push_back(row.clustering[0]);
    }
    if (!result.next) break;
    command.resume_after = result.next;
  }
  EXPECT_EQ(seen, (std::vector<Bytes>{"ab", ""}));
}

TEST_F(RocksDbEngineTest, LimitsPerPartitionAndPartitions) {
  for (int pk = 1; pk <= 3; ++pk) {
    Mutation m = MutationOf(table_, pk);
    for (int c = 0; c < 3; ++c) Set(RowOf(m, c), "v", Live(10, Int(c)));
    Write(m);
  }
  ReadCommand command = ScanOf(table_, kNow);
  command.per_partition_limit = 1;
  auto result = Read(command);
  ASSERT_EQ(result.partitions.size(), 3u);
  for (const auto& p : result.partitions) EXPECT_EQ(p.rows.size(), 1u);
  command.partition_limit = 2;
  EXPECT_EQ(Read(command).partitions.size(), 2u);
}

TEST_F(RocksDbEngineTest, TokenRangesAreStartExclusiveEndInclusive) {
  for (int pk = 1; pk <= 4; ++pk) {
    Mutation m = MutationOf(table_, pk);
    Set(RowOf(m, 0), "v", Live(10, Int(pk)));
    Write(m);
  }
  ReadCommand command = ScanOf(table_, kNow);
  command.range = {Pk(1).token, Pk(3).token};
  std::vector<Bytes> keys;
  for (const auto& p : Read(command).partitions) keys.push_back(p.key.key);
  EXPECT_EQ(keys, (std::vector<Bytes>{Int(2), Int(3)}));
  // A range that wraps around the ring.
  command.range = {Pk(3).token, Pk(1).token};
  keys.clear();
  for (const auto& p : Read(command).partitions) keys.push_back(p.key.key);
  EXPECT_EQ(keys, (std::vector<Bytes>{Int(4), Int(1)}));  // in ring order
}

TEST_F(RocksDbEngineTest, DataSurvivesReopenInEveryMode) {
  for (auto mode : {CommitlogSync::kPeriodic, CommitlogSync::kBatch, CommitlogSync::kGroup}) {
    Reopen(mode);
    Mutation m = MutationOf(table_, static_cast<int>(mode) + 1);
    Set(RowOf(m, 1), "v", Live(10, Int(42)));
    Write(m);
  }
  Reopen();
  for (int pk = 1; pk <= 3; ++pk) EXPECT_EQ(Value(pk, 1, "v"), Int(42)) << pk;
}

TEST_F(RocksDbEngineTest, GroupModeServesConcurrentWriters) {
  Reopen(CommitlogSync::kGroup);
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        Mutation m = MutationOf(table_, t);
        Set(RowOf(m, i), "v", Live(10, Int(i)));
        engine_->Apply(m);
      }
    });
  }
  for (auto& w : writers) w.join();
  EXPECT_EQ(Read(ScanOf(table_, kNow)).partitions.size(), 4u);
}

TEST_F(RocksDbEngineTest, SyncTablesDropsAndCreatesTables) {
  Mutation m = MutationOf(table_, 1);
  Set(RowOf(m, 1), "v", Live(10, Int(1)));
  Write(m);
  engine_->SyncTables({desc_, counters_});
  EXPECT_THROW(Read(ReadOf(table_, {1}, kNow)), std::runtime_error);
  EXPECT_THROW(Write(m), std::runtime_error);
  engine_->SyncTables(tables_);
  EXPECT_TRUE(Rows(1).empty());
  Write(m);
  // A table no longer listed when the node restarts is dropped too.
  engine_.reset();
  engine_ = Engine::Open({.directory = dir_.path()}, clock_);
  EXPECT_THROW(Read(ReadOf(table_, {1}, kNow)), std::runtime_error);  // not synced yet
  engine_->SyncTables({desc_});
  engine_->SyncTables(tables_);
  EXPECT_TRUE(Rows(1).empty());
}

TEST_F(RocksDbEngineTest, TableOptionsAreRememberedAcrossRestarts) {
  TableLayout leveled = MakeTable(9);
  leveled.options.compaction = "leveled";
  leveled.options.compression = "none";
  leveled.options.bloom_filter_fp_chance = 1.0;
  tables_.push_back(leveled);
  engine_->SyncTables(tables_);
  Mutation m = MutationOf(leveled, 1);
  Set(RowOf(m, 1), "v", Live(10, Int(1)));
  Write(m);
  Reopen();
  EXPECT_EQ(Read(ReadOf(leveled, {1}, kNow)).partitions.size(), 1u);
  // Compression changes apply to a live column family.
  tables_.back().options.compression = "snappy";
  engine_->SyncTables(tables_);
  Write(m);
  EXPECT_EQ(Read(ReadOf(leveled, {1}, kNow)).partitions.size(), 1u);
  TableLayout bad = MakeTable(10);
  bad.options.compression = "brotli";
  EXPECT_THROW(engine_->SyncTables({bad}), std::runtime_error);
}

TEST_F(RocksDbEngineTest, TruncateRemovesEveryRowDurably) {
  Mutation m = MutationOf(table_, 1);
  Set(RowOf(m, 1), "v", Live(10, Int(1)));
  Write(m);
  Mutation other = MutationOf(desc_, 1);
  Set(RowOf(other, 1), "v", Live(10, Int(1)));
  Write(other);
  engine_->Truncate(table_.id);
  EXPECT_TRUE(Rows(1).empty());
  Reopen();
  EXPECT_TRUE(Rows(1).empty());
  EXPECT_EQ(Read(ReadOf(desc_, {1}, kNow)).partitions.size(), 1u);
  Write(m);
  EXPECT_EQ(Value(1, 1, "v"), Int(1));
}

TEST_F(RocksDbEngineTest, InvalidMutationsAreRefusedWhole) {
  Mutation m = MutationOf(table_, 1);
  Set(RowOf(m, 1), "v", Live(10, Int(1)));
  Set(RowOf(m, 2), "nope", Live(10, Int(1)));
  EXPECT_THROW(Write(m), std::invalid_argument);
  EXPECT_TRUE(Rows(1).empty());
  Mutation unknown = MutationOf(table_, 1);
  unknown.table_id = TableId(77);
  Set(RowOf(unknown, 1), "v", Live(10, Int(1)));
  EXPECT_THROW(Write(unknown), std::runtime_error);
  Mutation element_on_simple = MutationOf(table_, 1);
  SetElement(RowOf(element_on_simple, 1), "v", Int(1), Live(10, Int(1)));
  EXPECT_THROW(Write(element_on_simple), std::invalid_argument);
  Mutation counter_in_int = MutationOf(table_, 1);
  Set(RowOf(counter_in_int, 1), "v", Delta(10, 1));
  EXPECT_THROW(Write(counter_in_int), std::invalid_argument);
  Mutation value_in_counter = MutationOf(counters_, 1);
  Set(RowOf(value_in_counter, 1), "n", Live(10, Long(1)));
  EXPECT_THROW(Write(value_in_counter), std::invalid_argument);
}

const TableStorageStatistics* StatisticsOf(const StorageStatistics& all, const types::Uuid& id) {
  for (const TableStorageStatistics& table : all.tables) {
    if (table.table_id == id) return &table;
  }
  return nullptr;
}

TEST_F(RocksDbEngineTest, FlushOfOneTableMovesItsMemtableToAnSSTable) {
  for (int32_t pk = 0; pk < 20; ++pk) {
    Mutation m = MutationOf(table_, pk);
    Set(RowOf(m, 1), "v", Live(10, Int(pk)));
    Write(m);
    Mutation other = MutationOf(desc_, pk);
    Set(RowOf(other, 1), "v", Live(10, Int(pk)));
    Write(other);
  }
  StorageStatistics before = engine_->Statistics();
  const TableStorageStatistics* table = StatisticsOf(before, table_.id);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->sstables(), 0u);
  EXPECT_EQ(table->memtable_entries, 20u);
  EXPECT_EQ(table->write_latency.count, 20u);

  engine_->Flush(table_.id);
  StorageStatistics after = engine_->Statistics();
  table = StatisticsOf(after, table_.id);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->sstables(), 1u);
  EXPECT_EQ(table->memtable_entries, 0u);
  EXPECT_GT(table->live_sstable_bytes, 0u);
  EXPECT_GT(table->sstable_raw_bytes, 0u);
  EXPECT_GT(table->sstable_data_bytes, 0u);
  EXPECT_GT(table->filter_bytes, 0u);
  // The other table's memtable stays.
  const TableStorageStatistics* other = StatisticsOf(after, desc_.id);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->sstables(), 0u);
  EXPECT_EQ(other->memtable_entries, 20u);
  EXPECT_EQ(Value(3, 1, "v"), Int(3));

  EXPECT_THROW(engine_->Flush(TableId(77)), std::runtime_error);
}

TEST_F(RocksDbEngineTest, ReadsAndWritesAreTimedPerTable) {
  Mutation m = MutationOf(table_, 1);
  Set(RowOf(m, 1), "v", Live(10, Int(1)));
  Write(m);
  Mutation both = MutationOf(desc_, 1);
  Set(RowOf(both, 1), "v", Live(10, Int(1)));
  engine_->ApplyAll({&m, &both});
  (void)Rows(1);
  (void)Rows(2);
  (void)Rows(3);
  const StorageStatistics stats = engine_->Statistics();
  const TableStorageStatistics* table = StatisticsOf(stats, table_.id);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->write_latency.count, 2u);
  EXPECT_EQ(table->read_latency.count, 3u);
  EXPECT_GE(table->read_latency.max_micros, table->read_latency.min_micros);
  const TableStorageStatistics* desc = StatisticsOf(stats, desc_.id);
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(desc->write_latency.count, 1u);
  EXPECT_EQ(desc->read_latency.count, 0u);
}

}  // namespace
}  // namespace sibyl::storage
