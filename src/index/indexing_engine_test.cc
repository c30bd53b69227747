// The indexing engine against its oracle: after every step of random
// histories (overwrites, older and tied timestamps, tombstones, TTLs and
// the clock moving past them, row / range / partition deletions, every
// collection kind, static cells, multi-partition batches, concurrent
// writers), every index holds exactly the entries recomputed from the base
// (index_checker.h), and an index read answers exactly the rows a filtered
// scan of the base answers, page by page. On the reference engine and on
// RocksDB. SIBYL_INDEX_SEED=<n> replays a seed.

#include "index/indexing_engine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "index/index_checker.h"
#include "index/index_reader.h"
#include "index/indexing_engine_test_util.h"
#include "storage/random_workload_test_util.h"
#include "storage/read/read_result_text.h"
#include "storage/reference/reference_engine.h"

namespace sibyl::index {
namespace {

using namespace storage;
using namespace storage::testing;
using namespace index::testing;
using Target = IndexLayout::Target;
using IndexSource = IndexLayout::Source;

types::Uuid IndexId(uint8_t n) {
  types::Uuid id;
  id.bytes[0] = 0x1d;
  id.bytes[15] = n;
  return id;
}

// MakeTable with an index of every kind.
TableLayout IndexedTable() {
  TableLayout table = MakeTable(1);
  auto add = [&](std::string name, Target target, IndexSource source, std::string column,
                 types::TypePtr type) {
    IndexLayout index;
    index.id = IndexId(static_cast<uint8_t>(table.indexes.size() + 1));
    index.name = std::move(name);
    index.target = target;
    index.source = source;
    index.column = std::move(column);
    index.type = std::move(type);
    table.indexes.push_back(std::move(index));
  };
  const auto& column = [&](const char* name) { return table.FindColumn(name)->type; };
  const auto i = types::CqlType::Native(types::Kind::kInt);
  add("by_v", Target::kSimple, IndexSource::kColumn, "v", column("v"));
  add("by_s", Target::kSimple, IndexSource::kColumn, "s", column("s"));
  add("by_l", Target::kValues, IndexSource::kColumn, "l", column("l"));
  add("by_st", Target::kValues, IndexSource::kColumn, "st", column("st"));
  add("by_m_keys", Target::kKeys, IndexSource::kColumn, "m", column("m"));
  add("by_m_values", Target::kValues, IndexSource::kColumn, "m", column("m"));
  add("by_m_entries", Target::kEntries, IndexSource::kColumn, "m", column("m"));
  add("by_c", Target::kSimple, IndexSource::kClustering, "c", i);
  add("by_pk", Target::kSimple, IndexSource::kPartitionKey, "pk", i);
  return table;
}

// The rows an index query should answer: a scan of the base, filtered.
ReadResult BruteForce(const Engine& engine, const TableLayout& table, const IndexLayout& index,
                      const IndexQuery& query, int32_t now) {
  ReadCommand scan;
  scan.table_id = table.id;
  scan.now_seconds = now;
  ReadResult all = engine.Read(scan);
  ReadResult out;
  for (ReadPartition& partition : all.partitions) {
    if (index.source == IndexSource::kPartitionKey) {
      // The partition matches, with its rows or, without any, its static row.
      if (RowMatches(table, index, query, partition.key, ReadRow{})) {
        out.partitions.push_back(std::move(partition));
      }
      continue;
    }
    if (index.source == IndexSource::kColumn && table.FindColumn(index.column)->is_static) {
      if (partition.static_row &&
          RowMatches(table, index, query, partition.key, *partition.static_row)) {
        out.partitions.push_back(std::move(partition));
      }
      continue;
    }
    std::erase_if(partition.rows, [&](const ReadRow& row) {
      return !RowMatches(table, index, query, partition.key, row);
    });
    if (!partition.rows.empty()) out.partitions.push_back(std::move(partition));
  }
  return out;
}

// Every row of an index query, read `page` rows at a time.
ReadResult Paged(const Engine& engine, ReadCommand command, int32_t page) {
  ReadResult out;
  command.row_limit = page;
  for (int guard = 0; guard < 10000; ++guard) {
    ReadResult part = engine.Read(command);
    for (ReadPartition& p : part.partitions) {
      if (!out.partitions.empty() && out.partitions.back().key == p.key) {
        auto& rows = out.partitions.back().rows;
        rows.insert(rows.end(), p.rows.begin(), p.rows.end());
      } else {
        out.partitions.push_back(std::move(p));
      }
    }
    if (!part.next) return out;
    command.resume_after = part.next;
  }
  ADD_FAILURE() << "paging does not end";
  return out;
}

// Every row of an index query as a cluster's coordinator pages it: each page
// walks the ring's ranges in order from the one holding the resume position,
// giving every range the same resume position (cluster/read/stepwise_read.h).
ReadResult PagedOverRanges(const Engine& engine, ReadCommand command, int32_t page,
                           const std::vector<int64_t>& boundaries) {
  std::vector<TokenRange> ranges;
  int64_t start = std::numeric_limits<int64_t>::min();
  for (int64_t boundary : boundaries) {
    ranges.push_back({start, boundary});
    start = boundary;
  }
  ranges.push_back({start, std::numeric_limits<int64_t>::min()});
  ReadResult out;
  std::optional<ReadPosition> resume;
  for (int guard = 0; guard < 10000; ++guard) {
    int32_t left = page;
    std::optional<ReadPosition> next;
    for (const TokenRange& range : ranges) {
      if (resume && range.end != std::numeric_limits<int64_t>::min() &&
          resume->partition.token > range.end) {
        continue;
      }
      ReadCommand step = command;
      step.range = range;
      step.row_limit = left;
      step.resume_after = resume;
      ReadResult part = engine.Read(step);
      for (ReadPartition& p : part.partitions) {
        left -= static_cast<int32_t>(std::max<size_t>(p.rows.size(), 1));
        if (!out.partitions.empty() && out.partitions.back().key == p.key) {
          auto& rows = out.partitions.back().rows;
          rows.insert(rows.end(), p.rows.begin(), p.rows.end());
        } else {
          out.partitions.push_back(std::move(p));
        }
      }
      if (part.next) {
        next = part.next;
        break;
      }
    }
    if (!next) return out;
    resume = next;
  }
  ADD_FAILURE() << "paging over ranges does not end";
  return out;
}

IndexQuery RandomQuery(RandomWorkload& w, const IndexLayout& index) {
  IndexQuery query;
  query.index_id = index.id;
  query.value = Int(w.Pick(-2, 7));
  if (index.target == Target::kEntries) query.entry_value = Int(w.Pick(0, 3));
  return query;
}

class IndexingEngineTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    engine_ = OpenIndexingEngine(GetParam(), dir_, clock_);
    engine_->SyncTables({table_});
  }

  void ExpectExact(const std::string& context) {
    const int32_t now = clock_.NowSeconds();
    for (const IndexLayout& index : table_.indexes) {
      const IndexDifferences d = CheckIndex(*engine_, table_, index, now);
      ASSERT_TRUE(d.empty()) << context << ": index " << index.name << " misses "
                             << d.missing.size() << ", has " << d.unexpected.size()
                             << " unexpected, " << d.wrong_expiry.size() << " with a wrong expiry";
    }
  }

  ManualClock clock_{static_cast<int64_t>(kCompactionNow) * 1'000'000};
  ScratchDir dir_;
  TableLayout table_ = IndexedTable();
  std::unique_ptr<IndexingEngine> engine_;
};

TEST_P(IndexingEngineTest, RandomHistoriesKeepEveryIndexExactAndReadsMatchAScan) {
  const uint32_t seed = Seed();
  SCOPED_TRACE("SIBYL_INDEX_SEED=" + std::to_string(seed));
  RandomWorkload w(seed);
  for (int step = 0; step < 300; ++step) {
    if (w.Chance(70)) {
      engine_->Apply(w.RandomMutation(table_, false));
    } else {
      std::vector<Mutation> batch;
      for (int i = w.Pick(2, 3); i > 0; --i) batch.push_back(w.RandomMutation(table_, false));
      std::vector<const Mutation*> all;
      for (const Mutation& m : batch) all.push_back(&m);
      engine_->ApplyAll(all);
    }
    if (w.Chance(20)) clock_.AdvanceSeconds(w.Pick(1, 60));
    ExpectExact("step " + std::to_string(step));
    if (HasFatalFailure()) return;
    if (step % 5 != 0) continue;
    const int32_t now = clock_.NowSeconds();
    for (const IndexLayout& index : table_.indexes) {
      ReadCommand command;
      command.table_id = table_.id;
      command.index = RandomQuery(w, index);
      command.now_seconds = now;
      const ReadResult expected = BruteForce(*engine_, table_, index, *command.index, now);
      EXPECT_EQ(DescribeReadResult(engine_->Read(command)), DescribeReadResult(expected))
          << "step " << step << " index " << index.name;
      EXPECT_EQ(DescribeReadResult(Paged(*engine_, command, w.Pick(1, 3))),
                DescribeReadResult(expected))
          << "paged, step " << step << " index " << index.name;
      EXPECT_EQ(DescribeReadResult(
                    PagedOverRanges(*engine_, command, w.Pick(1, 3), {-1'000'003, 999'997})),
                DescribeReadResult(expected))
          << "paged over ranges, step " << step << " index " << index.name;
    }
  }
}

TEST_P(IndexingEngineTest, ConcurrentWritersAndBatchesLeaveTheIndexesExact) {
  const uint32_t seed = Seed();
  SCOPED_TRACE("SIBYL_INDEX_SEED=" + std::to_string(seed));
  std::vector<std::thread> writers;
  for (uint32_t t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      RandomWorkload w(seed + t);
      for (int i = 0; i < 150; ++i) {
        std::vector<Mutation> batch;
        for (int n = w.Pick(1, 3); n > 0; --n) batch.push_back(w.RandomMutation(table_, false));
        std::vector<const Mutation*> all;
        for (const Mutation& m : batch) all.push_back(&m);
        engine_->ApplyAll(all);
      }
    });
  }
  for (auto& writer : writers) writer.join();
  ExpectExact("after the writers");
}

TEST_P(IndexingEngineTest, AnIndexCreatedOnDataIsBuiltThenKeptExact) {
  TableLayout plain = table_;
  plain.indexes.clear();
  engine_->SyncTables({plain});
  RandomWorkload w(Seed());
  for (int i = 0; i < 200; ++i) engine_->Apply(w.RandomMutation(plain, false));
  engine_->SyncTables({table_});
  engine_->AwaitBuilds();
  for (const IndexBuildStatus& status : engine_->BuildStatuses()) {
    EXPECT_TRUE(status.built) << status.index << ": " << status.failure;
  }
  ExpectExact("after the build");
  for (int i = 0; i < 50; ++i) engine_->Apply(w.RandomMutation(table_, false));
  ExpectExact("after writes");
}

TEST_P(IndexingEngineTest, IndexesCreatedUnderConcurrentWritesMissNoWrite) {
  TableLayout plain = table_;
  plain.indexes.clear();
  engine_->SyncTables({plain});
  const uint32_t seed = Seed();
  SCOPED_TRACE("SIBYL_INDEX_SEED=" + std::to_string(seed));
  std::atomic<int> written{0};
  std::vector<std::thread> writers;
  for (uint32_t t = 0; t < 3; ++t) {
    writers.emplace_back([&, t] {
      RandomWorkload w(seed + t);
      for (int i = 0; i < 150; ++i) {
        engine_->Apply(w.RandomMutation(plain, false));
        ++written;
      }
    });
  }
  while (written.load() < 20) std::this_thread::yield();
  engine_->SyncTables({table_});  // the indexes appear while the writers write
  for (auto& writer : writers) writer.join();
  engine_->AwaitBuilds();
  ExpectExact("after the writers");
}

TEST_P(IndexingEngineTest, DroppingAnIndexDropsItsEntriesAndRecreatingStartsEmpty) {
  Mutation m = MutationOf(table_, 1);
  Set(RowOf(m, 1), "v", Live(5, Int(3)));
  engine_->Apply(m);
  TableLayout plain = table_;
  plain.indexes.clear();
  engine_->SyncTables({plain});
  ReadCommand command;
  command.table_id = table_.id;
  command.index = IndexQuery{table_.indexes[0].id, Int(3), std::nullopt};
  command.now_seconds = clock_.NowSeconds();
  EXPECT_THROW((void)engine_->Read(command), std::runtime_error);
  engine_->SyncTables({table_});
  engine_->AwaitBuilds();
  EXPECT_EQ(engine_->Read(command).partitions.size(), 1u);
}

TEST_P(IndexingEngineTest, TruncateEmptiesTheIndexes) {
  RandomWorkload w(Seed());
  for (int i = 0; i < 40; ++i) engine_->Apply(w.RandomMutation(table_, false));
  engine_->Truncate(table_.id);
  ExpectExact("after TRUNCATE");
  for (const IndexLayout& index : table_.indexes) {
    ReadCommand scan;
    scan.table_id = index.id;
    scan.now_seconds = clock_.NowSeconds();
    EXPECT_TRUE(engine_->Read(scan).partitions.empty()) << index.name;
  }
}

TEST_P(IndexingEngineTest, TablesWithoutClusteringColumnsAreIndexedPerPartition) {
  TableLayout table;
  table.id = TableId(2);
  table.keyspace = "ks";
  table.name = "flat";
  table.partition_key_types = {types::CqlType::Native(types::Kind::kInt)};
  table.columns = {{"v", types::CqlType::Native(types::Kind::kInt), false}};
  IndexLayout by_v;
  by_v.id = IndexId(50);
  by_v.name = "flat_v";
  by_v.column = "v";
  by_v.type = table.columns[0].type;
  table.indexes = {by_v};
  engine_->SyncTables({table_, table});
  for (int k = 0; k < 20; ++k) {
    Mutation m;
    m.table_id = table.id;
    m.partition = Pk(k);
    RowWrite& row = m.rows.emplace_back();
    Set(row, "v", Live(1, Int(k % 3)));
    engine_->Apply(m);
  }
  ReadCommand command;
  command.table_id = table.id;
  command.index = IndexQuery{by_v.id, Int(1), std::nullopt};
  command.now_seconds = clock_.NowSeconds();
  const ReadResult found = engine_->Read(command);
  std::vector<Bytes> keys;
  for (const ReadPartition& p : found.partitions) keys.push_back(p.key.key);
  EXPECT_EQ(keys, (std::vector<Bytes>{Int(1), Int(4), Int(7), Int(10), Int(13), Int(16), Int(19)}));
  EXPECT_TRUE(CheckIndex(*engine_, table, by_v, command.now_seconds).empty());
}

INSTANTIATE_TEST_SUITE_P(Engines, IndexingEngineTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "RocksDb" : "Reference"; });

}  // namespace
}  // namespace sibyl::index
