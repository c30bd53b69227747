// The storage engine's write and read costs, and the design question the
// design sketch leaves open: one key per cell reconciled by a merge operator
// (what the engine does) against one key per version with the timestamp in
// the key, newest first (docs/dev/storage.md).
//
//   BM_EngineApply          Engine::Apply of one INSERT-like row (marker + 2 cells)
//   BM_EnginePointRead      Engine::Read of one row by partition and clustering
//   BM_LatestVersion/...    raw RocksDB: read the latest of N versions of 1000
//                           keys, merged (Get through the merge operator) or
//                           timestamp-in-key (Seek, take the first)

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <memory>
#include <string>

#include "common/clock.h"
#include "storage/codec/cell_codec.h"
#include "storage/compaction/cell_merge_operator.h"
#include "storage/engine.h"

namespace {

using namespace sibyl;           // NOLINT
using namespace sibyl::storage;  // NOLINT

Bytes Int(int32_t v) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(v));
  return out;
}

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("sibyl-bench-" + name)) {
    std::filesystem::remove_all(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TableLayout BenchTable() {
  using types::CqlType;
  using types::Kind;
  TableLayout table;
  table.id.bytes[15] = 1;
  table.keyspace = "bench";
  table.name = "t";
  table.partition_key_types = {CqlType::Native(Kind::kInt)};
  table.clustering = {{CqlType::Native(Kind::kInt), false}};
  table.columns = {{"a", CqlType::Native(Kind::kInt), false},
                   {"b", CqlType::Native(Kind::kText), false}};
  return table;
}

Mutation Row(const TableLayout& table, int32_t pk, int32_t c, int64_t ts) {
  Mutation m;
  m.table_id = table.id;
  m.partition = {pk * 7919LL, Int(pk)};
  RowWrite& row = m.rows.emplace_back();
  row.clustering = {Int(c)};
  row.marker = {ts, 0, kNoDeletionTime};
  row.cells.push_back({"a", std::nullopt, {Cell::Kind::kRegular, ts, 0, kNoDeletionTime, Int(c)}});
  row.cells.push_back(
      {"b", std::nullopt, {Cell::Kind::kRegular, ts, 0, kNoDeletionTime, "some text value"}});
  return m;
}

void BM_EngineApply(benchmark::State& state) {
  ScratchDir dir("apply");
  SystemClock clock;
  TableLayout table = BenchTable();
  auto engine = Engine::Open({.directory = dir.path()}, clock);
  engine->SyncTables({table});
  int32_t i = 0;
  for (auto _ : state) {
    engine->Apply(Row(table, i % 100, i, clock.NextTimestampMicros()));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EngineApply);

void BM_EnginePointRead(benchmark::State& state) {
  ScratchDir dir("read");
  SystemClock clock;
  TableLayout table = BenchTable();
  auto engine = Engine::Open({.directory = dir.path()}, clock);
  engine->SyncTables({table});
  constexpr int kRows = 10000;
  for (int32_t i = 0; i < kRows; ++i) {
    engine->Apply(Row(table, i % 100, i, clock.NextTimestampMicros()));
  }
  if (state.range(0) != 0) engine->Compact(table.id);
  int32_t i = 0;
  for (auto _ : state) {
    int32_t c = (i++ * 7) % kRows;
    ReadCommand command;
    command.table_id = table.id;
    command.partitions = {{(c % 100) * 7919LL, Int(c % 100)}};
    command.slices = {{{{Int(c)}, true}, {{Int(c)}, true}}};
    command.now_seconds = clock.NowSeconds();
    benchmark::DoNotOptimize(engine->Read(command));
  }
}
BENCHMARK(BM_EnginePointRead)->Arg(0)->Arg(1)->ArgName("compacted");

// Raw RocksDB: 1000 keys with `versions` versions each, flushed but not
// compacted (the state between compactions), then point reads of the latest.
void BM_LatestVersion(benchmark::State& state, bool merge) {
  const int versions = static_cast<int>(state.range(0));
  ScratchDir dir(merge ? "merge" : "tskey");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.merge_operator = std::make_shared<CellMergeOperator>();
  options.disable_auto_compactions = true;
  rocksdb::DB* raw = nullptr;
  if (!rocksdb::DB::Open(options, dir.path().string(), &raw).ok()) {
    state.SkipWithError("cannot open RocksDB");
    return;
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  constexpr int kKeys = 1000;
  for (int v = 0; v < versions; ++v) {
    for (int k = 0; k < kKeys; ++k) {
      Bytes value;
      EncodeCell(Cell{Cell::Kind::kRegular, v + 1, 0, kNoDeletionTime, Int(k)}, value);
      Bytes key = Int(k);
      if (merge) {
        (void)db->Merge(rocksdb::WriteOptions(), key, value);
      } else {
        AppendBE64(key, ~static_cast<uint64_t>(v + 1));  // newest first
        (void)db->Put(rocksdb::WriteOptions(), key, value);
      }
    }
    (void)db->Flush(rocksdb::FlushOptions());
  }
  int k = 0;
  std::string value;
  for (auto _ : state) {
    Bytes key = Int(k++ % kKeys);
    if (merge) {
      benchmark::DoNotOptimize(db->Get(rocksdb::ReadOptions(), key, &value));
    } else {
      std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
      it->Seek(key);
      benchmark::DoNotOptimize(it->Valid() && it->key().starts_with(key));
    }
  }
}
BENCHMARK_CAPTURE(BM_LatestVersion, merge, true)->Arg(1)->Arg(4)->Arg(16);
BENCHMARK_CAPTURE(BM_LatestVersion, timestamp_in_key, false)->Arg(1)->Arg(4)->Arg(16);

}  // namespace

BENCHMARK_MAIN();
