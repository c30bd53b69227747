// Materialized views kept by the indexing engine, against their oracle:
// after every step of random histories (overwrites, older and tied
// timestamps, tombstones, TTLs and the clock moving past them, row / range /
// partition deletions, collections, static cells, batches, concurrent
// writers, builds on existing data), every view holds exactly the rows
// recomputed from its base (view_checker.h). On the reference engine and on
// RocksDB. SIBYL_INDEX_SEED=<n> replays a seed.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "dht/token.h"
#include "index/indexing_engine.h"
#include "index/indexing_engine_test_util.h"
#include "index/view_checker.h"
#include "storage/random_workload_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::index {
namespace {

using namespace storage;
using namespace storage::testing;
using namespace index::testing;
using ViewSource = ViewLayout::Source;

types::Uuid ViewId(uint8_t n) {
  types::Uuid id;
  id.bytes[0] = 0x7e;
  id.bytes[15] = n;
  return id;
}

ViewSource FromPartitionKey() {
  return {ViewSource::Kind::kPartitionKey, 0, "pk", types::CqlType::Native(types::Kind::kInt)};
}
ViewSource FromClustering() {
  return {ViewSource::Kind::kClustering, 0, "c", types::CqlType::Native(types::Kind::kInt)};
}
ViewSource FromColumn(const TableLayout& base, const std::string& name) {
  return {ViewSource::Kind::kColumn, 0, name, base.FindColumn(name)->type};
}

// The view's own table: its key columns' types, then its columns'.
TableLayout ViewTable(const TableLayout& base, const ViewLayout& view) {
  TableLayout table;
  table.id = view.id;
  table.keyspace = base.keyspace;
  table.name = view.name;
  for (const ViewSource& source : view.partition_key)
    table.partition_key_types.push_back(source.type);
  for (const ViewSource& source : view.clustering) table.clustering.push_back({source.type, false});
  for (const std::string& column : view.columns) table.columns.push_back(*base.FindColumn(column));
  return table;
}

// MakeTable (pk int, c int, v int, w text, s int static, l list<int>,
// st set<int>, m map<int,int>) with three views:
//  - by_v:   PRIMARY KEY (v, pk, c), selecting w, l, m (a base column in
//            the key: strict liveness);
//  - by_c:   PRIMARY KEY (c, pk) WHERE pk >= 0 AND c IN (0, 1, 2, 3),
//            selecting v, st;
//  - keys:   PRIMARY KEY ((pk, c)), selecting nothing (unselected columns
//            keep its rows alive).
TableLayout BaseWithViews() {
  TableLayout base = MakeTable(1);
  ViewLayout by_v;
  by_v.id = ViewId(1);
  by_v.name = "by_v";
  by_v.partition_key = {FromColumn(base, "v")};
  by_v.clustering = {FromPartitionKey(), FromClustering()};
  by_v.columns = {"w", "l", "m"};
  ViewLayout by_c;
  by_c.id = ViewId(2);
  by_c.name = "by_c";
  by_c.partition_key = {FromClustering()};
  by_c.clustering = {FromPartitionKey()};
  by_c.columns = {"v", "st"};
  by_c.filters = {
      {FromPartitionKey(), ViewLayout::Filter::Op::kGte, {Int(0)}},
      {FromClustering(), ViewLayout::Filter::Op::kIn, {Int(0), Int(1), Int(2), Int(3)}}};
  ViewLayout keys;
  keys.id = ViewId(3);
  keys.name = "keys";
  keys.partition_key = {FromPartitionKey(), FromClustering()};
  base.views = {by_v, by_c, keys};
  return base;
}

std::vector<TableLayout> Tables(const TableLayout& base) {
  std::vector<TableLayout> tables = {base};
  for (const ViewLayout& view : base.views) tables.push_back(ViewTable(base, view));
  return tables;
}

// What each view must show, from a plain read of the base (the CQL rows a
// client sees), independently of view_rows.cc: (key → (column, value) of
// each cell, paths included).
using VisibleRows = std::map<ViewRowKey, std::vector<std::tuple<std::string, Bytes, Bytes>>>;

VisibleRows Visible(const ViewRows& rows) {
  VisibleRows out;
  for (const auto& [key, row] : rows) {
    auto& cells = out[key];
    for (const ViewCell& cell : row.cells) {
      cells.emplace_back(cell.column, cell.path.value_or(Bytes()), cell.value);
    }
    std::sort(cells.begin(), cells.end());
  }
  return out;
}

VisibleRows ExpectedFromBaseRead(const Engine& engine, const TableLayout& base,
                                 const ViewLayout& view, int32_t now) {
  ReadCommand all;
  all.table_id = base.id;
  all.now_seconds = now;
  VisibleRows out;
  for (const ReadPartition& partition : engine.Read(all).partitions) {
    const Bytes& pk = partition.key.key;
    for (const ReadRow& row : partition.rows) {
      const Bytes& c = row.clustering.at(0);
      std::optional<Bytes> v;
      std::vector<std::tuple<std::string, Bytes, Bytes>> cells;
      for (const ReadCell& cell : row.cells) {
        if (cell.column == "v") v = cell.value;
        if (std::find(view.columns.begin(), view.columns.end(), cell.column) !=
            view.columns.end()) {
          cells.emplace_back(cell.column, cell.path.value_or(Bytes()), cell.value);
        }
      }
      std::sort(cells.begin(), cells.end());
      if (view.name == "by_v") {
        if (v) out[ViewRowKey(*v, {pk, c})] = cells;
      } else if (view.name == "by_c") {
        const int32_t pk_value = types::DecodeInt(pk);
        const int32_t c_value = types::DecodeInt(c);
        if (pk_value >= 0 && c_value >= 0 && c_value <= 3) out[ViewRowKey(c, {pk})] = cells;
      } else {
        out[ViewRowKey(dht::CompositeRoutingKey({pk, c}), {})] = cells;
      }
    }
  }
  return out;
}

class ViewMaintenanceTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    engine_ = OpenIndexingEngine(GetParam(), dir_, clock_);
    engine_->SyncTables(Tables(base_));
  }

  void ExpectExact(const std::string& context) {
    const int32_t now = clock_.NowSeconds();
    for (const ViewLayout& view : base_.views) {
      const ViewDifferences d = CheckView(*engine_, base_, view, now);
      ASSERT_TRUE(d.empty()) << context << ": view " << view.name << " misses " << d.missing.size()
                             << ", has " << d.unexpected.size() << " unexpected and "
                             << d.different.size() << " different rows (of " << d.rows_expected
                             << ")";
      ASSERT_EQ(Visible(StoredViewRows(*engine_, view, now)),
                ExpectedFromBaseRead(*engine_, base_, view, now))
          << context << ": view " << view.name << " differs from what a read of the base shows";
    }
  }

  void ApplyBatch(RandomWorkload& w) {
    std::vector<Mutation> batch;
    for (int n = w.Pick(1, 3); n > 0; --n) batch.push_back(w.RandomMutation(base_, false));
    std::vector<const Mutation*> all;
    for (const Mutation& m : batch) all.push_back(&m);
    engine_->ApplyAll(all);
  }

  ManualClock clock_{static_cast<int64_t>(kCompactionNow) * 1'000'000};
  ScratchDir dir_;
  TableLayout base_ = BaseWithViews();
  std::unique_ptr<IndexingEngine> engine_;
};

TEST_P(ViewMaintenanceTest, RandomHistoriesKeepEveryViewExact) {
  const uint32_t seed = Seed();
  SCOPED_TRACE("SIBYL_INDEX_SEED=" + std::to_string(seed));
  RandomWorkload w(seed);
  int64_t rows_seen = 0;
  for (int step = 0; step < 300; ++step) {
    if (w.Chance(70)) {
      engine_->Apply(w.RandomMutation(base_, false));
    } else {
      ApplyBatch(w);
    }
    if (w.Chance(20)) clock_.AdvanceSeconds(w.Pick(1, 60));
    ExpectExact("step " + std::to_string(step));
    if (HasFatalFailure()) return;
    rows_seen += CheckView(*engine_, base_, base_.views[0], clock_.NowSeconds()).rows_expected;
  }
  EXPECT_GT(rows_seen, 0) << "the histories never gave by_v a row: the test checks nothing";
}

TEST_P(ViewMaintenanceTest, ConcurrentWritersLeaveTheViewsExact) {
  const uint32_t seed = Seed();
  SCOPED_TRACE("SIBYL_INDEX_SEED=" + std::to_string(seed));
  std::vector<std::thread> writers;
  for (uint32_t t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      RandomWorkload w(seed + t);
      for (int i = 0; i < 150; ++i) ApplyBatch(w);
    });
  }
  for (auto& writer : writers) writer.join();
  ExpectExact("after the writers");
}

TEST_P(ViewMaintenanceTest, AViewCreatedOnDataIsBuiltThenKeptExact) {
  TableLayout plain = base_;
  plain.views.clear();
  engine_->SyncTables({plain});
  const uint32_t seed = Seed();
  SCOPED_TRACE("SIBYL_INDEX_SEED=" + std::to_string(seed));
  RandomWorkload w(seed);
  for (int i = 0; i < 200; ++i) engine_->Apply(w.RandomMutation(plain, false));
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    RandomWorkload concurrent(seed + 1);
    while (!stop) engine_->Apply(concurrent.RandomMutation(plain, false));
  });
  engine_->SyncTables(Tables(base_));  // the views appear while a writer writes
  engine_->AwaitBuilds();
  stop = true;
  writer.join();
  for (const IndexBuildStatus& status : engine_->ViewBuildStatuses()) {
    EXPECT_TRUE(status.built) << status.index << ": " << status.failure;
  }
  ExpectExact("after the build");
  for (int i = 0; i < 50; ++i) engine_->Apply(w.RandomMutation(base_, false));
  ExpectExact("after writes");
}

TEST_P(ViewMaintenanceTest, TruncatingTheBaseEmptiesItsViews) {
  RandomWorkload w(Seed());
  for (int i = 0; i < 40; ++i) engine_->Apply(w.RandomMutation(base_, false));
  engine_->Truncate(base_.id);
  for (const ViewLayout& view : base_.views) {
    EXPECT_TRUE(StoredViewRows(*engine_, view, clock_.NowSeconds()).empty()) << view.name;
  }
}

// A key column switching value moves the row; an older write changes
// nothing; a TTL on the key column takes the whole view row with it.
TEST_P(ViewMaintenanceTest, KeySwitchesOlderWritesAndTtlsFollowTheBase) {
  const ViewLayout& by_v = base_.views[0];
  auto rows = [&] { return StoredViewRows(*engine_, by_v, clock_.NowSeconds()); };
  Mutation insert = MutationOf(base_, 1);
  RowWrite& row = RowOf(insert, 2);
  row.marker.timestamp = 10;
  Set(row, "v", Live(10, Int(7)));
  Set(row, "w", Live(10, types::EncodeText("x")));
  engine_->Apply(insert);
  ASSERT_EQ(rows().size(), 1u);
  EXPECT_EQ(rows().begin()->first.first, Int(7));

  Mutation older = MutationOf(base_, 1);
  Set(RowOf(older, 2), "v", Live(5, Int(8)));
  engine_->Apply(older);
  ASSERT_EQ(rows().size(), 1u);
  EXPECT_EQ(rows().begin()->first.first, Int(7)) << "an older write moved the view row";

  Mutation newer = MutationOf(base_, 1);
  Set(RowOf(newer, 2), "v", Live(20, Int(8)));
  engine_->Apply(newer);
  ASSERT_EQ(rows().size(), 1u);
  EXPECT_EQ(rows().begin()->first.first, Int(8));

  Mutation back = MutationOf(base_, 1);  // back to 7 with a timestamp older than the first
  Set(RowOf(back, 2), "v", Live(30, Int(7)));
  engine_->Apply(back);
  ASSERT_EQ(rows().size(), 1u);
  EXPECT_EQ(rows().begin()->first.first, Int(7)) << "the row did not come back under 7";
  EXPECT_EQ(rows().begin()->second.cells.size(), 1u) << "w should be carried over";

  Mutation expiring = MutationOf(base_, 1);
  Set(RowOf(expiring, 2), "v", Ttl(40, 10, clock_.NowSeconds() + 10, Int(9)));
  engine_->Apply(expiring);
  ASSERT_EQ(rows().size(), 1u);
  clock_.AdvanceSeconds(11);
  EXPECT_TRUE(rows().empty()) << "the view row outlived its key column";
  ExpectExact("after the TTL");
}

// verify-view: a view damaged behind the engine's back (a row removed, a row
// added, a value changed) is reported, and repair makes it exact again.
TEST_P(ViewMaintenanceTest, CheckFindsDamageAndRepairMendsIt) {
  const ViewLayout& by_v = base_.views[0];
  for (int32_t k = 0; k < 6; ++k) {
    Mutation m;
    m.table_id = base_.id;
    m.partition = {dht::Murmur3Token(Int(k)), Int(k)};  // as a node's keys are
    RowWrite& row = RowOf(m, 1);
    row.marker.timestamp = 10;
    Set(row, "v", Live(10, Int(k % 2)));
    Set(row, "w", Live(10, types::EncodeText("w" + std::to_string(k))));
    engine_->Apply(m);
  }
  ViewCheck clean = engine_->CheckView("ks", "by_v", false);
  ASSERT_TRUE(clean.found);
  EXPECT_EQ(clean.rows_expected, 6);
  EXPECT_EQ(clean.missing + clean.unexpected + clean.different, 0);

  const int32_t now = clock_.NowSeconds();
  const ViewRows stored = StoredViewRows(*engine_, by_v, now);
  std::vector<Mutation> damage;
  const int64_t t = clock_.NextTimestampMicros() + 1000;  // newer than the view's rows
  auto first = stored.begin();
  ReplaceViewRow(by_v, first->first, nullptr, t, t + 1, now, damage);  // a row lost
  ViewRow changed = std::next(first)->second;
  changed.cells.at(0).value = types::EncodeText("wrong");
  ReplaceViewRow(by_v, std::next(first)->first, &changed, t, t + 1, now, damage);
  ViewRowKey ghost = first->first;
  ghost.first = Int(9);  // a row no base row gives
  ReplaceViewRow(by_v, ghost, &changed, t, t + 1, now, damage);
  for (const Mutation& m : damage) engine_->Apply(m);

  ViewCheck found = engine_->CheckView("ks", "by_v", false);
  EXPECT_EQ(found.missing, 1);
  EXPECT_EQ(found.different, 1);
  EXPECT_EQ(found.unexpected, 1);
  EXPECT_EQ(found.repaired, 0);
  ViewCheck repaired = engine_->CheckView("ks", "by_v", true);
  EXPECT_EQ(repaired.repaired, 3);
  ViewCheck after = engine_->CheckView("ks", "by_v", false);
  EXPECT_EQ(after.missing + after.unexpected + after.different, 0);
  EXPECT_EQ(after.rows_expected, 6);
  EXPECT_FALSE(engine_->CheckView("ks", "no_such_view", false).found);
  // Later writes still win over the damage's future timestamps.
  for (int32_t k = 0; k < 6; ++k) {
    Mutation m;
    m.table_id = base_.id;
    m.partition = {dht::Murmur3Token(Int(k)), Int(k)};
    Set(RowOf(m, 1), "w", Live(20, types::EncodeText("new")));
    engine_->Apply(m);
  }
  ExpectExact("after writes following the repair");
}

// A router that sends every update to one remote node.
class SendEverywhere final : public ViewUpdateRouter {
 public:
  explicit SendEverywhere(types::Uuid target) : target_(target) {}
  Targets Route(const std::string&, const PartitionKey&, const PartitionKey&) const override {
    return Targets{false, {target_}, true};
  }

 private:
  types::Uuid target_;
};

// Remote view updates go to the outbox in the base write's batch, come out
// as the view mutations, and a full outbox refuses writes until delivered.
TEST_P(ViewMaintenanceTest, RemoteUpdatesWaitInTheOutboxWhichPushesBack) {
  types::Uuid target;
  target.bytes[0] = 0x42;
  engine_->SetViewUpdateRouter(std::make_shared<SendEverywhere>(target));
  engine_->set_max_pending_view_updates(6);
  auto write = [&](int32_t k) {
    Mutation m = MutationOf(base_, k);
    RowWrite& row = RowOf(m, 1);
    row.marker.timestamp = 10;
    Set(row, "v", Live(10, Int(k)));
    engine_->Apply(m);
  };
  write(1);  // three views: three updates
  write(2);
  EXPECT_EQ(engine_->pending_view_updates(), 6);
  EXPECT_THROW(write(3), ViewUpdatesBacklogged);
  for (const ViewLayout& view : base_.views) {
    EXPECT_TRUE(StoredViewRows(*engine_, view, clock_.NowSeconds()).empty())
        << view.name << ": a remote update was applied here";
  }
  EXPECT_EQ(engine_->ViewUpdateTargets(), std::vector<types::Uuid>{target});
  const std::vector<PendingViewUpdate> pending = engine_->PendingViewUpdates(target, 100);
  ASSERT_EQ(pending.size(), 6u);
  std::vector<int64_t> sequences;
  std::set<types::Uuid> tables;
  for (const PendingViewUpdate& update : pending) {
    sequences.push_back(update.sequence);
    tables.insert(Mutation::Deserialize(update.mutation).table_id);
  }
  EXPECT_TRUE(std::is_sorted(sequences.begin(), sequences.end()));
  EXPECT_EQ(tables.size(), 3u);
  engine_->ViewUpdatesDelivered(target, sequences);
  EXPECT_EQ(engine_->pending_view_updates(), 0);
  EXPECT_TRUE(engine_->ViewUpdateTargets().empty());
  EXPECT_NO_THROW(write(3));
}

INSTANTIATE_TEST_SUITE_P(Engines, ViewMaintenanceTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "RocksDb" : "Reference"; });

}  // namespace
}  // namespace sibyl::index
