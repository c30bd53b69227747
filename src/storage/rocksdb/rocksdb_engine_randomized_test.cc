// The RocksDB engine against the reference engine (reference_engine.h):
// random mutations of every kind, with random (often tied) timestamps, TTLs
// and deletions, applied to both in the same (random) order, with flushes
// and compactions in between; random reads, followed page by page, must
// give the same answers.

#include <gtest/gtest.h>

#include "storage/random_workload_test_util.h"
#include "storage/read/read_result_text.h"
#include "storage/rocksdb/rocksdb_engine.h"
#include "storage/storage_test_util.h"

#if __has_include("storage/reference/reference_engine.h")
#include "storage/reference/reference_engine.h"
#define SIBYL_HAVE_REFERENCE_ENGINE 1
#endif

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

#ifdef SIBYL_HAVE_REFERENCE_ENGINE

class RandomizedEngineTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(RandomizedEngineTest, MatchesTheReferenceEngine) {
  ScratchDir dir;
  ManualClock clock(int64_t{kCompactionNow} * 1'000'000);
  std::vector<TableLayout> tables = {MakeTable(1), MakeTable(2, /*descending=*/true),
                                     MakeCounterTable(3)};
  auto engine = Engine::Open({.directory = dir.path()}, clock);
  ReferenceEngine reference;
  engine->SyncTables(tables);
  reference.SyncTables(tables);
  RandomWorkload random(GetParam());

  int compared_pages = 0;
  for (int round = 0; round < 12; ++round) {
    for (int i = 0; i < 80; ++i) {
      size_t t = random.Pick(0, 2);
      Mutation m = random.RandomMutation(tables[t], /*counters=*/t == 2);
      if (random.Chance(10)) {  // several tables' mutations in one atomic write
        size_t u = random.Pick(0, 2);
        Mutation other = random.RandomMutation(tables[u], /*counters=*/u == 2);
        engine->ApplyAll({&m, &other});
        reference.ApplyAll({&m, &other});
        continue;
      }
      engine->Apply(m);
      reference.Apply(m);
    }
    if (random.Chance(8)) {
      const types::Uuid& id = tables[random.Pick(0, 2)].id;
      engine->Truncate(id);
      reference.Truncate(id);
    }
    if (random.Chance(40)) engine->Flush();
    if (random.Chance(25)) engine->Compact(tables[random.Pick(0, 2)].id);
    if (round == 6) {  // and across a restart
      engine.reset();
      engine = Engine::Open({.directory = dir.path()}, clock);
      engine->SyncTables(tables);
    }
    for (int r = 0; r < 25; ++r) {
      const TableLayout& table = tables[random.Pick(0, 2)];
      ReadCommand command = random.RandomRead(table);
      for (int page = 0; page < 20; ++page) {
        ReadResult expected = reference.Read(command);
        ReadResult actual = engine->Read(command);
        ASSERT_EQ(DescribeReadResult(actual), DescribeReadResult(expected))
            << "seed " << GetParam() << " round " << round << " read " << r << " page " << page;
        ++compared_pages;
        if (!expected.next) break;
        command.resume_after = expected.next;
      }
    }
  }
  EXPECT_GT(compared_pages, 300);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomizedEngineTest, ::testing::Values(1u, 2u, 3u, 4u));

#else

TEST(RandomizedEngineTest, MatchesTheReferenceEngine) {
  GTEST_SKIP()
      << "storage/reference/reference_engine.h does not exist yet: nothing to compare with";
}

#endif

}  // namespace
}  // namespace sibyl::storage
