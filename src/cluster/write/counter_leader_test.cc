// The counter leader's step against both engines: deltas become this
// leader's shards with clocks that follow what it holds, rows and the
// static row each read their own shards, and another leader's shard is
// left alone and counted.

#include "cluster/write/counter_leader.h"

#include <gtest/gtest.h>

#include <memory>

#include "common/clock.h"
#include "storage/cells/counter_context.h"
#include "storage/reference/reference_engine.h"
#include "storage/storage_test_util.h"

namespace sibyl::cluster {
namespace {

using namespace sibyl::storage;           // NOLINT: the engine's types
using namespace sibyl::storage::testing;  // NOLINT: its test helpers

constexpr int32_t kNow = 1'700'000'000;

const types::Uuid kLeader = *types::Uuid::Parse("00000000-0000-4000-8000-000000000001");
const types::Uuid kOther = *types::Uuid::Parse("00000000-0000-4000-8000-000000000002");

// pk int, c int, n counter, s counter static.
TableLayout CounterTableWithStatic() {
  TableLayout table = MakeCounterTable(3);
  table.columns.push_back({"s", types::CqlType::Native(types::Kind::kCounter), true});
  return table;
}

class CounterLeaderTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      engine_ = Engine::Open({.directory = dir_.path()}, clock_);
    } else {
      engine_ = std::make_unique<ReferenceEngine>();
    }
    engine_->SyncTables({table_});
  }

  // n += amount in row c (or s += amount in the static row when c < 0),
  // through the leader, applied here as the coordinator would.
  Mutation Update(int32_t c, int64_t amount, const types::Uuid& leader = kLeader) {
    Mutation deltas = MutationOf(table_, 1);
    RowWrite& row = c < 0 ? StaticRowOf(deltas) : RowOf(deltas, c);
    Set(row, c < 0 ? "s" : "n", Delta(100, amount));
    Mutation shards = CounterShardsForUpdate(*engine_, deltas, leader, kNow);
    engine_->Apply(shards);
    return shards;
  }
  std::vector<CounterShard> ShardsIn(const Mutation& m) {
    return DecodeCounterShards(m.rows.at(0).cells.at(0).cell.value);
  }
  int64_t Total(int32_t c) {
    const ReadResult result = engine_->Read(ReadOf(table_, {1}, kNow));
    for (const ReadRow& row : result.partitions.at(0).rows) {
      if (row.clustering != Clustering{Int(c)}) continue;
      for (const ReadCell& cell : row.cells) {
        if (cell.column == "n") return static_cast<int64_t>(LoadBE64(cell.value.data()));
      }
    }
    ADD_FAILURE() << "no row " << c;
    return 0;
  }

  ScratchDir dir_;
  ManualClock clock_{int64_t{kNow} * 1'000'000};
  TableLayout table_ = CounterTableWithStatic();
  std::unique_ptr<Engine> engine_;
};

TEST_P(CounterLeaderTest, EachUpdateAdvancesTheLeadersOwnShard) {
  EXPECT_EQ(ShardsIn(Update(1, 5)), (std::vector<CounterShard>{{kLeader, 1, 5}}));
  EXPECT_EQ(ShardsIn(Update(1, -2)), (std::vector<CounterShard>{{kLeader, 2, 3}}));
  EXPECT_EQ(ShardsIn(Update(2, 7)), (std::vector<CounterShard>{{kLeader, 1, 7}})) << "another row";
  EXPECT_EQ(ShardsIn(Update(-1, 4)), (std::vector<CounterShard>{{kLeader, 1, 4}})) << "static";
  EXPECT_EQ(ShardsIn(Update(-1, 4)), (std::vector<CounterShard>{{kLeader, 2, 8}}));
  EXPECT_EQ(ShardsIn(Update(1, 1)), (std::vector<CounterShard>{{kLeader, 3, 4}}));
  EXPECT_EQ(Total(1), 4);
  EXPECT_EQ(Total(2), 7);
}

TEST_P(CounterLeaderTest, AnotherLeadersShardIsKeptAndCounted) {
  Update(1, 10, kOther);
  EXPECT_EQ(ShardsIn(Update(1, 5)), (std::vector<CounterShard>{{kLeader, 1, 5}}));
  EXPECT_EQ(Total(1), 15);
  engine_->Apply(Update(1, 1, kOther));  // applied twice: counts once
  EXPECT_EQ(Total(1), 16);
}

TEST_P(CounterLeaderTest, RefusesAnythingButDeltas) {
  Mutation deltas = MutationOf(table_, 1);
  Set(RowOf(deltas, 1), "n", Dead(100, kNow));
  EXPECT_THROW((void)CounterShardsForUpdate(*engine_, deltas, kLeader, kNow),
               std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Engines, CounterLeaderTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "RocksDb" : "Reference"; });

}  // namespace
}  // namespace sibyl::cluster
