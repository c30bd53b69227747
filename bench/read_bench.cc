// The read path's cost promise (issue 5, item 5): reading 100 rows of a
// partition of 1,000,000 rows costs about what it costs from a partition of
// 1,000 rows, and a point read by full primary key touches one partition.
//
// One table, `k int, c int, v text, PRIMARY KEY (k, c)`, with two partitions:
// k = 1 holds 1,000 rows, k = 2 holds N rows (default 1,000,000; `--rows=N`
// or the environment variable READ_BENCH_ROWS), v 32 bytes. For each
// partition, through storage::Engine::Read only:
//
//   first100       the first 100 rows (row_limit 100)
//   middle100      100 rows from c >= N/2 (a slice, row_limit 100)
//   point          one row by full primary key (a different c each time)
//   *_reversed     the same with reversed = true: the last 100 rows; the 100
//                  rows below the middle (c <= N/2); a point read
//   whole          every row of the partition (what a SELECT that pages in
//                  memory pays; compacted phase only)
//
// in three phases, run in this order on one data set:
//
//   as_filled      right after the fill: rows in the memtable and in the
//                  files flushed during the fill (background compactions may
//                  run)
//   compacted      after Engine::Compact: one sorted file, reads served from
//                  the block cache (64 MiB, warm)
//   no_cache       the compacted files reopened with a block cache of 0
//                  bytes: every block a read needs is read from the file (the
//                  OS page cache), so block_reads counts the blocks touched
//
// Besides time per read, each benchmark reports per read (after its timed
// loop, over 16 untimed reads with RocksDB's PerfContext at kEnableCount):
//   rows          rows returned
//   key_compares  user key comparisons: grows with the records a read steps
//                 over (about 2 per record in a file, more in a memtable)
//   blocks        data/index/filter blocks touched: block cache hits + reads
//   block_reads   blocks read from files (cache misses)
//   seeks         seeks into sorted runs (memtables and files): a partition
//                 read seeks a few times per run it consults
//
// Build and run (Release):
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release
//   cmake --build build-bench -j2 --target read_bench
//   build-bench/bench/read_bench --benchmark_min_time=0.2 [--rows=1000000]

#include <benchmark/benchmark.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/clock.h"
#include "storage/engine.h"

namespace {

using namespace sibyl;           // NOLINT
using namespace sibyl::storage;  // NOLINT

constexpr int32_t kSmallRows = 1000;
constexpr int32_t kPageRows = 100;
constexpr int32_t kRowsPerMutation = 1000;  // the fill's batch size
constexpr int kCounterSamples = 16;

Bytes Int(int32_t v) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(v));
  return out;
}

int32_t DecodeInt(const Bytes& b) { return static_cast<int32_t>(LoadBE32(b.data())); }

// 32 bytes of text, different per row.
Bytes Value(int32_t c) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "value-%026d", c);
  return Bytes(buffer, 32);
}

TableLayout BenchTable() {
  using types::CqlType;
  using types::Kind;
  TableLayout table;
  table.id.bytes[15] = 2;
  table.keyspace = "bench";
  table.name = "t";
  table.partition_key_types = {CqlType::Native(Kind::kInt)};
  table.clustering = {{CqlType::Native(Kind::kInt), false}};
  table.columns = {{"v", CqlType::Native(Kind::kText), false}};
  return table;
}

// Any fixed tokens do: the engine orders partitions by the token it is given.
PartitionKey Partition(int32_t k) { return {k * 7919LL, Int(k)}; }

enum class Phase { kNone, kAsFilled, kCompacted, kNoCache };

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kAsFilled:
      return "as_filled";
    case Phase::kCompacted:
      return "compacted";
    case Phase::kNoCache:
      return "no_cache";
    default:
      return "none";
  }
}

// The data set, shared by every benchmark and moved forward through the
// phases (going back to as_filled, when benchmarks are filtered oddly,
// fills again).
class DataSet {
 public:
  explicit DataSet(int32_t big_rows)
      : big_rows_(big_rows),
        directory_(std::filesystem::temp_directory_path() /
                   ("sibyl-read-bench-" + std::to_string(::getpid()))),
        table_(BenchTable()) {}
  ~DataSet() {
    engine_.reset();
    std::filesystem::remove_all(directory_);
  }

  int32_t big_rows() const { return big_rows_; }
  const TableLayout& table() const { return table_; }
  Clock& clock() { return clock_; }

  Engine& At(Phase phase) {
    if (phase < phase_) phase_ = Phase::kNone;
    if (phase_ == Phase::kNone) Fill();
    if (phase >= Phase::kCompacted && phase_ < Phase::kCompacted) {
      Timed("compacted", [&] { engine_->Compact(table_.id); });
      phase_ = Phase::kCompacted;
    }
    if (phase == Phase::kNoCache && phase_ < Phase::kNoCache) {
      engine_.reset();
      Open(/*block_cache_bytes=*/0);
      phase_ = Phase::kNoCache;
    }
    return *engine_;
  }

 private:
  void Open(size_t block_cache_bytes) {
    engine_ =
        Engine::Open({.directory = directory_, .block_cache_bytes = block_cache_bytes}, clock_);
    engine_->SyncTables({table_});
  }

  void Fill() {
    engine_.reset();
    std::filesystem::remove_all(directory_);
    Open(64 << 20);
    Timed("filled " + std::to_string(kSmallRows) + " + " + std::to_string(big_rows_) + " rows",
          [&] {
            FillPartition(1, kSmallRows);
            FillPartition(2, big_rows_);
          });
    phase_ = Phase::kAsFilled;
  }

  // Rows in batches of kRowsPerMutation, each batch one Mutation (one
  // atomic RocksDB write), as an INSERT of each row would write them.
  void FillPartition(int32_t k, int32_t rows) {
    for (int32_t first = 0; first < rows; first += kRowsPerMutation) {
      Mutation m;
      m.table_id = table_.id;
      m.partition = Partition(k);
      int64_t ts = clock_.NextTimestampMicros();
      for (int32_t c = first; c < std::min(rows, first + kRowsPerMutation); ++c) {
        RowWrite& row = m.rows.emplace_back();
        row.clustering = {Int(c)};
        row.marker = {ts, 0, kNoDeletionTime};
        row.cells.push_back(
            {"v", std::nullopt, {Cell::Kind::kRegular, ts, 0, kNoDeletionTime, Value(c)}});
      }
      engine_->Apply(m);
    }
  }

  static void Timed(const std::string& what, const std::function<void()>& work) {
    auto start = std::chrono::steady_clock::now();
    work();
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "read_bench: %s in %.1f s\n", what.c_str(), seconds.count());
  }

  const int32_t big_rows_;
  const std::filesystem::path directory_;
  const TableLayout table_;
  SystemClock clock_;
  std::unique_ptr<Engine> engine_;
  Phase phase_ = Phase::kNone;
};

std::unique_ptr<DataSet> data_set;

enum class Shape { kFirst100, kMiddle100, kPoint, kWhole };

const char* ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kFirst100:
      return "first100";
    case Shape::kMiddle100:
      return "middle100";
    case Shape::kPoint:
      return "point";
    default:
      return "whole";
  }
}

// The command of one read, and the first clustering value it must return.
struct Query {
  ReadCommand command;
  int32_t expected_first = 0;
  size_t expected_rows = 0;
};

Query MakeQuery(Shape shape, bool reversed, int32_t k, int32_t rows, int64_t i) {
  Query q;
  q.command.table_id = data_set->table().id;
  q.command.partitions = {Partition(k)};
  q.command.reversed = reversed;
  q.command.now_seconds = data_set->clock().NowSeconds();
  const int32_t middle = rows / 2;
  switch (shape) {
    case Shape::kFirst100:
      q.command.row_limit = kPageRows;
      q.expected_first = reversed ? rows - 1 : 0;
      q.expected_rows = kPageRows;
      break;
    case Shape::kMiddle100:
      // Forward: c >= N/2; reversed: c <= N/2, read downwards. Both start at
      // the middle of the partition.
      q.command.slices = {reversed ? ClusteringSlice{{}, {{Int(middle)}, true}}
                                   : ClusteringSlice{{{Int(middle)}, true}, {}}};
      q.command.row_limit = kPageRows;
      q.expected_first = middle;
      q.expected_rows = kPageRows;
      break;
    case Shape::kPoint: {
      // A different row every time, spread over the partition.
      auto c = static_cast<int32_t>((i * 7919) % rows);
      q.command.slices = {{{{Int(c)}, true}, {{Int(c)}, true}}};
      q.expected_first = c;
      q.expected_rows = 1;
      break;
    }
    case Shape::kWhole:
      q.expected_first = reversed ? rows - 1 : 0;
      q.expected_rows = static_cast<size_t>(rows);
      break;
  }
  return q;
}

// Empty when the result is what the query must return.
std::string Check(const Query& q, const ReadResult& result) {
  if (result.partitions.size() != 1) return "expected one partition";
  const auto& rows = result.partitions[0].rows;
  if (rows.size() != q.expected_rows) {
    return "expected " + std::to_string(q.expected_rows) + " rows, got " +
           std::to_string(rows.size());
  }
  if (DecodeInt(rows.front().clustering[0]) != q.expected_first) return "wrong first row";
  return {};
}

void BM_Read(benchmark::State& state, Phase phase, Shape shape, bool reversed, int32_t k) {
  Engine& engine = data_set->At(phase);
  const int32_t rows = k == 1 ? kSmallRows : data_set->big_rows();
  int64_t i = 0;
  for (auto _ : state) {
    Query q = MakeQuery(shape, reversed, k, rows, i++);
    ReadResult result = engine.Read(q.command);
    if (std::string error = Check(q, result); !error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(result);
  }

  // RocksDB's per-read work, outside the timed loop.
  const int samples = shape == Shape::kWhole ? 1 : kCounterSamples;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::PerfContext* perf = rocksdb::get_perf_context();
  perf->Reset();
  size_t rows_returned = 0;
  for (int s = 0; s < samples; ++s) {
    ReadResult result = engine.Read(MakeQuery(shape, reversed, k, rows, i++).command);
    for (const auto& partition : result.partitions) rows_returned += partition.rows.size();
  }
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  auto per_read = [&](uint64_t total) { return static_cast<double>(total) / samples; };
  state.counters["rows"] = per_read(rows_returned);
  state.counters["key_compares"] = per_read(perf->user_key_comparison_count);
  state.counters["blocks"] = per_read(perf->block_cache_hit_count + perf->block_read_count);
  state.counters["block_reads"] = per_read(perf->block_read_count);
  state.counters["seeks"] = per_read(perf->seek_child_seek_count);
}

int32_t BigRows(int* argc, char** argv) {
  int32_t rows = 1'000'000;
  if (const char* env = std::getenv("READ_BENCH_ROWS")) rows = std::atoi(env);
  int out = 1;
  for (int in = 1; in < *argc; ++in) {
    if (std::strncmp(argv[in], "--rows=", 7) == 0) {
      rows = std::atoi(argv[in] + 7);
    } else {
      argv[out++] = argv[in];
    }
  }
  *argc = out;
  return rows;
}

void RegisterAll(int32_t big_rows) {
  for (Phase phase : {Phase::kAsFilled, Phase::kCompacted, Phase::kNoCache}) {
    for (Shape shape : {Shape::kFirst100, Shape::kMiddle100, Shape::kPoint, Shape::kWhole}) {
      if (shape == Shape::kWhole && phase != Phase::kCompacted) continue;
      for (bool reversed : {false, true}) {
        if (shape == Shape::kWhole && reversed) continue;
        for (int32_t k : {1, 2}) {
          std::string name = std::string(PhaseName(phase)) + "/" + ShapeName(shape) +
                             (reversed ? "_reversed" : "") +
                             "/rows:" + std::to_string(k == 1 ? kSmallRows : big_rows);
          auto* b = benchmark::RegisterBenchmark(name.c_str(), BM_Read, phase, shape, reversed, k);
          b->Unit(benchmark::kMicrosecond);
          if (shape == Shape::kWhole) b->Iterations(k == 1 ? 1000 : 2);
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int32_t big_rows = BigRows(&argc, argv);
  if (big_rows < 2 * kPageRows) {
    std::fprintf(stderr, "read_bench: --rows must be at least %d\n", 2 * kPageRows);
    return 2;
  }
  data_set = std::make_unique<DataSet>(big_rows);
  RegisterAll(big_rows);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  data_set.reset();
  return 0;
}
