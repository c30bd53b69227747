#include "storage/reference/reference_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "storage/storage_test_util.h"
#include "types/value_codec.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

using types::CqlType;
using types::Kind;

// CREATE TABLE ks.t (pk blob, c1 int, c2 text, s text static, v text,
//   n counter-free..., tags set<int>, l list<text>, PRIMARY KEY (pk, c1, c2))
//   WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)
TableLayout Layout() {
  TableLayout t;
  t.id = *types::Uuid::Parse("11111111-2222-3333-4444-555555555555");
  t.keyspace = "ks";
  t.name = "t";
  t.partition_key_types = {CqlType::Native(Kind::kBlob)};
  t.clustering = {{CqlType::Native(Kind::kInt), false}, {CqlType::Native(Kind::kText), true}};
  t.columns = {{"s", CqlType::Native(Kind::kText), true},
               {"v", CqlType::Native(Kind::kText), false},
               {"w", CqlType::Native(Kind::kText), false},
               {"tags", CqlType::Set(CqlType::Native(Kind::kInt)), false},
               {"l", CqlType::List(CqlType::Native(Kind::kText)), false}};
  return t;
}

TableLayout CounterLayout() {
  TableLayout t;
  t.id = *types::Uuid::Parse("99999999-2222-3333-4444-555555555555");
  t.keyspace = "ks";
  t.name = "counts";
  t.partition_key_types = {CqlType::Native(Kind::kBlob)};
  t.clustering = {{CqlType::Native(Kind::kInt), false}};
  t.columns = {{"n", CqlType::Native(Kind::kCounter), false}};
  return t;
}

Clustering Ck(int32_t c1, std::string c2 = "x") { return {types::EncodeInt(c1), c2}; }

class Builder {
 public:
  explicit Builder(const TableLayout& t, Bytes pk = "p", int64_t token = 0) {
    m_.table_id = t.id;
    m_.partition = {token, std::move(pk)};
  }
  Builder& Row(Clustering ck) {
    m_.rows.push_back({});
    m_.rows.back().clustering = std::move(ck);
    return *this;
  }
  Builder& Static() {
    m_.rows.push_back({});
    m_.rows.back().is_static = true;
    return *this;
  }
  Builder& Marker(int64_t ts, int32_t ttl = 0, int32_t expires = kNoDeletionTime) {
    m_.rows.back().marker = {ts, ttl, expires};
    return *this;
  }
  Builder& Set(std::string column, Cell cell, std::optional<Bytes> path = std::nullopt) {
    m_.rows.back().cells.push_back({std::move(column), std::move(path), std::move(cell)});
    return *this;
  }
  Builder& DeleteRow(int64_t ts) {
    m_.rows.back().deletion = {ts, kNow};
    return *this;
  }
  Builder& DeleteCollection(std::string column, int64_t ts) {
    m_.rows.back().collection_deletions.push_back({std::move(column), {ts, kNow}});
    return *this;
  }
  Builder& DeletePartition(int64_t ts) {
    m_.partition_deletion = {ts, kNow};
    return *this;
  }
  Builder& DeleteRange(ClusteringBound start, ClusteringBound end, int64_t ts) {
    m_.range_tombstones.push_back({std::move(start), std::move(end), {ts, kNow}});
    return *this;
  }
  const Mutation& Get() const { return m_; }
  operator const Mutation&() const { return m_; }

 private:
  Mutation m_;
};

class ReferenceEngineTest : public ::testing::Test {
 protected:
  ReferenceEngineTest() { engine_.SyncTables({layout_, CounterLayout()}); }

  ReadResult ReadAll(int32_t now = kNow) const {
    ReadCommand c;
    c.table_id = layout_.id;
    c.now_seconds = now;
    return engine_.Read(c);
  }
  // The single partition "p", or an empty one.
  ReadPartition ReadP(int32_t now = kNow) const {
    ReadCommand c;
    c.table_id = layout_.id;
    c.partitions = {{0, "p"}};
    c.now_seconds = now;
    ReadResult r = engine_.Read(c);
    return r.partitions.empty() ? ReadPartition{} : r.partitions[0];
  }
  static std::vector<std::string> Values(const ReadRow& row) {
    std::vector<std::string> out;
    for (const auto& c : row.cells) out.push_back(c.column + "=" + c.value);
    return out;
  }

  TableLayout layout_ = Layout();
  ReferenceEngine engine_;
};

// ---- reconciliation rules ----

TEST(ReconcileTest, CellsFollowCassandra) {
  auto R = ReferenceEngine::ReconcileCells;
  EXPECT_EQ(R(Live(2, "a"), Live(1, "z")).value, "a");               // higher timestamp
  EXPECT_EQ(R(Live(1, "z"), Dead(1)).kind, Cell::Kind::kTombstone);  // tie: tombstone
  EXPECT_EQ(R(Live(1, "z"), Ttl(1, 10, kNow, "a")).kind, Cell::Kind::kExpiring);
  EXPECT_EQ(R(Ttl(1, 10, kNow + 99, "z"), Dead(1, 5)).kind, Cell::Kind::kTombstone);
  EXPECT_EQ(R(Ttl(1, 10, kNow + 1, "a"), Ttl(1, 10, kNow, "z")).value, "a");
  EXPECT_EQ(R(Dead(1, 7), Dead(1, 8)).local_deletion_time, 8);
  EXPECT_EQ(R(Live(1, "\x80"), Live(1, "\x7f")).value, "\x80");  // unsigned bytes
  EXPECT_EQ(R(Live(1, "ab"), Live(1, "a")).value, "ab");
}

TEST(ReconcileTest, CountersSumAndTombstonesAlwaysWin) {
  auto R = ReferenceEngine::ReconcileCells;
  Cell sum = R(Delta(1, 5), Delta(3, -2));
  EXPECT_EQ(sum.kind, Cell::Kind::kCounter);
  EXPECT_EQ(static_cast<int64_t>(LoadBE64(sum.value.data())), 3);
  EXPECT_EQ(sum.timestamp, 3);
  EXPECT_EQ(R(Delta(100, 5), Dead(1)).kind, Cell::Kind::kTombstone);
  EXPECT_EQ(R(Dead(1), Delta(100, 5)).kind, Cell::Kind::kTombstone);
}

TEST(ReconcileTest, MarkersAndDeletions) {
  auto M = ReferenceEngine::ReconcileMarkers;
  EXPECT_EQ(M({2, 0, kNoDeletionTime}, {1, 5, kNow}).timestamp, 2);
  EXPECT_EQ(M({1, 0, kNoDeletionTime}, {1, 5, kNow}).ttl, 5);  // tie: the expiring one
  EXPECT_EQ(M({1, 5, kNow}, {1, 9, kNow + 1}).local_expiration_time, kNow + 1);
  auto D = ReferenceEngine::ReconcileDeletions;
  EXPECT_EQ(D({5, 1}, {4, 9}).marked_for_delete_at, 5);
  EXPECT_EQ(D({5, 1}, {5, 9}).local_deletion_time, 9);
  EXPECT_EQ(D({}, {5, 9}).marked_for_delete_at, 5);
}

// Every rule commutes and associates: the result never depends on order.
TEST(ReconcileTest, OrderFreeOnRandomCells) {
  std::mt19937_64 rng(5);
  auto random_cell = [&](bool counter) {
    const int64_t ts = static_cast<int64_t>(rng() % 3);
    const int32_t ldt = kNow + static_cast<int32_t>(rng() % 2);
    const Bytes value(1, static_cast<char>('a' + rng() % 2));
    if (counter)
      return rng() % 4 == 0 ? Dead(ts, ldt) : Delta(ts, static_cast<int64_t>(rng() % 7) - 3);
    switch (rng() % 3) {
      case 0:
        return Live(ts, value);
      case 1:
        return Ttl(ts, 1 + static_cast<int32_t>(rng() % 2), ldt, value);
      default:
        return Dead(ts, ldt);
    }
  };
  auto R = ReferenceEngine::ReconcileCells;
  for (int i = 0; i < 20000; ++i) {
    const bool counter = i % 2;
    const Cell a = random_cell(counter), b = random_cell(counter), c = random_cell(counter);
    ASSERT_EQ(R(a, b), R(b, a));
    ASSERT_EQ(R(R(a, b), c), R(a, R(b, c)));
  }
}

// ---- row liveness ----

TEST_F(ReferenceEngineTest, InsertWritesAMarkerUpdateDoesNot) {
  engine_.Apply(Builder(layout_).Row(Ck(1)).Marker(10).Set("v", Live(10, "a")));
  engine_.Apply(Builder(layout_).Row(Ck(2)).Set("v", Live(10, "b")));
  // Deleting v leaves the inserted row (its marker lives) and removes the updated one.
  engine_.Apply(Builder(layout_).Row(Ck(1)).Set("v", Dead(11)).Row(Ck(2)).Set("v", Dead(11)));
  ReadPartition p = ReadP();
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].clustering, Ck(1));
  EXPECT_EQ(p.rows[0].marker.timestamp, 10);
  EXPECT_TRUE(p.rows[0].cells.empty());
}

TEST_F(ReferenceEngineTest, ExpiredMarkerLeavesRowLiveThroughItsCells) {
  engine_.Apply(
      Builder(layout_).Row(Ck(1)).Marker(10, 60, kNow + 60).Set("v", Ttl(10, 60, kNow + 60, "a")));
  engine_.Apply(Builder(layout_).Row(Ck(1)).Set("w", Live(20, "kept")));
  ReadPartition before = ReadP(kNow + 59);
  ASSERT_EQ(before.rows.size(), 1u);
  EXPECT_EQ(before.rows[0].marker.ttl, 60);
  EXPECT_EQ(Values(before.rows[0]), (std::vector<std::string>{"v=a", "w=kept"}));
  EXPECT_EQ(before.rows[0].cells[0].ttl, 60);
  EXPECT_EQ(before.rows[0].cells[0].local_expiration_time, kNow + 60);
  ReadPartition after = ReadP(kNow + 60);
  ASSERT_EQ(after.rows.size(), 1u);
  EXPECT_TRUE(after.rows[0].marker.is_empty());
  EXPECT_EQ(Values(after.rows[0]), (std::vector<std::string>{"w=kept"}));
  // Once nothing lives, the row is gone.
  engine_.Apply(Builder(layout_).Row(Ck(1)).Set("w", Dead(21)));
  EXPECT_TRUE(ReadP(kNow + 60).rows.empty());
  EXPECT_EQ(ReadP(kNow).rows.size(), 1u);
}

TEST_F(ReferenceEngineTest, RowLivenessCountsUnrequestedColumns) {
  engine_.Apply(Builder(layout_).Row(Ck(1)).Set("w", Live(10, "x")));
  ReadCommand c;
  c.table_id = layout_.id;
  c.columns = std::vector<std::string>{"v"};
  c.now_seconds = kNow;
  ReadResult r = engine_.Read(c);
  ASSERT_EQ(r.partitions.size(), 1u);
  ASSERT_EQ(r.partitions[0].rows.size(), 1u);
  EXPECT_TRUE(r.partitions[0].rows[0].cells.empty());
}

// ---- tombstones ----

TEST_F(ReferenceEngineTest, RowTombstoneShadowsOlderAndTiesOnly) {
  engine_.Apply(
      Builder(layout_).Row(Ck(1)).Marker(10).Set("v", Live(10, "old")).Set("w", Live(12, "new")));
  engine_.Apply(Builder(layout_).Row(Ck(1)).DeleteRow(11));
  ReadPartition p = ReadP();
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_TRUE(p.rows[0].marker.is_empty());
  EXPECT_EQ(Values(p.rows[0]), (std::vector<std::string>{"w=new"}));
  engine_.Apply(Builder(layout_).Row(Ck(1)).DeleteRow(12));  // a tie goes to the tombstone
  EXPECT_TRUE(ReadP().rows.empty());
  // A write older than the deletion arriving late stays hidden.
  engine_.Apply(Builder(layout_).Row(Ck(1)).Marker(5).Set("v", Live(5, "late")));
  EXPECT_TRUE(ReadP().rows.empty());
}

TEST_F(ReferenceEngineTest, RangeTombstonesHonourBoundsAndOrder) {
  for (int c1 = 1; c1 <= 4; ++c1) {
    for (const char* c2 : {"a", "b"}) {
      engine_.Apply(Builder(layout_).Row(Ck(c1, c2)).Marker(10));
    }
  }
  // c1 > 1 AND c1 <= 3 ... minus (3, "a") via an exclusive bound: c2 is DESC,
  // so (3, "b") comes before (3, "a").
  engine_.Apply(
      Builder(layout_).DeleteRange({{types::EncodeInt(1)}, false}, {Ck(3, "b"), true}, 10));
  ReadPartition p = ReadP();
  std::vector<Clustering> keys;
  for (const auto& row : p.rows) keys.push_back(row.clustering);
  EXPECT_EQ(keys,
            (std::vector<Clustering>{Ck(1, "b"), Ck(1, "a"), Ck(3, "a"), Ck(4, "b"), Ck(4, "a")}));
  // The static row is never covered by a range tombstone.
  engine_.Apply(Builder(layout_).Static().Set("s", Live(5, "st")));
  engine_.Apply(Builder(layout_).DeleteRange({{}, true}, {{}, true}, 20));
  p = ReadP();
  EXPECT_TRUE(p.rows.empty());
  ASSERT_TRUE(p.static_row.has_value());
  EXPECT_EQ(Values(*p.static_row), (std::vector<std::string>{"s=st"}));
}

TEST_F(ReferenceEngineTest, PartitionTombstoneCoversStaticRowAndRows) {
  engine_.Apply(Builder(layout_).Static().Set("s", Live(5, "st")).Row(Ck(1)).Marker(5));
  engine_.Apply(Builder(layout_).Row(Ck(2)).Marker(9));
  engine_.Apply(Builder(layout_).DeletePartition(7));
  ReadPartition p = ReadP();
  EXPECT_FALSE(p.static_row.has_value());
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].clustering, Ck(2));
}

TEST_F(ReferenceEngineTest, CollectionsSortByElementTypeAndDeleteWhole) {
  auto set = [&](int64_t ts, int32_t element) {
    return Builder(layout_).Row(Ck(1)).Set("tags", Live(ts, ""), types::EncodeInt(element));
  };
  engine_.Apply(set(10, 10));
  engine_.Apply(set(10, -1));
  engine_.Apply(set(10, 2));
  ReadPartition p = ReadP();
  ASSERT_EQ(p.rows.size(), 1u);
  std::vector<Bytes> paths;
  for (const auto& c : p.rows[0].cells) paths.push_back(*c.path);
  // Bytewise, -1 (ff ff ff ff) would come last.
  EXPECT_EQ(paths,
            (std::vector<Bytes>{types::EncodeInt(-1), types::EncodeInt(2), types::EncodeInt(10)}));
  // SET tags = {7}: a collection deletion at ts - 1, then the element.
  engine_.Apply(Builder(layout_)
                    .Row(Ck(1))
                    .DeleteCollection("tags", 19)
                    .Set("tags", Live(20, ""), types::EncodeInt(7)));
  p = ReadP();
  ASSERT_EQ(p.rows[0].cells.size(), 1u);
  EXPECT_EQ(*p.rows[0].cells[0].path, types::EncodeInt(7));
  // An element tombstone removes one element.
  engine_.Apply(Builder(layout_).Row(Ck(1)).Set("tags", Dead(21), types::EncodeInt(7)));
  EXPECT_TRUE(ReadP().rows.empty());
}

TEST_F(ReferenceEngineTest, ListElementsFollowTimeuuidOrder) {
  // Two time UUIDs whose bytes order the opposite way from their times.
  const Bytes earlier =
      types::Uuid::TimeBased(0x00000000FFFFFFFFLL, 0x8000000000000001ULL).ToBytes();
  const Bytes later = types::Uuid::TimeBased(0x0000000100000000LL, 0x8000000000000001ULL).ToBytes();
  ASSERT_GT(earlier, later);
  engine_.Apply(Builder(layout_)
                    .Row(Ck(1))
                    .Set("l", Live(10, "second"), later)
                    .Set("l", Live(10, "first"), earlier));
  ReadPartition p = ReadP();
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(Values(p.rows[0]), (std::vector<std::string>{"l=first", "l=second"}));
}

TEST_F(ReferenceEngineTest, CountersSumTombstoneIsFinal) {
  const TableLayout counters = CounterLayout();
  auto read = [&]() -> std::optional<int64_t> {
    ReadCommand c;
    c.table_id = counters.id;
    c.now_seconds = kNow;
    ReadResult r = engine_.Read(c);
    if (r.partitions.empty()) return std::nullopt;
    return static_cast<int64_t>(LoadBE64(r.partitions[0].rows.at(0).cells.at(0).value.data()));
  };
  engine_.Apply(Builder(counters).Row({types::EncodeInt(1)}).Set("n", Delta(10, 5)));
  engine_.Apply(Builder(counters).Row({types::EncodeInt(1)}).Set("n", Delta(12, 5)));
  engine_.Apply(Builder(counters).Row({types::EncodeInt(1)}).Set("n", Delta(11, -3)));
  EXPECT_EQ(read(), 7);
  // A row deletion applies to the merged cell (timestamp 12).
  engine_.Apply(Builder(counters).Row({types::EncodeInt(1)}).DeleteRow(11));
  EXPECT_EQ(read(), 7);
  engine_.Apply(Builder(counters).Row({types::EncodeInt(1)}).Set("n", Dead(1)));
  EXPECT_EQ(read(), std::nullopt);
  engine_.Apply(Builder(counters).Row({types::EncodeInt(1)}).Set("n", Delta(100, 1)));
  EXPECT_EQ(read(), std::nullopt);
}

// ---- static rows and limits ----

TEST_F(ReferenceEngineTest, StaticOnlyPartitionCountsAsOneRowForWholePartitionReads) {
  engine_.Apply(Builder(layout_, "a", 1).Static().Set("s", Live(1, "sa")));
  engine_.Apply(Builder(layout_, "b", 2).Row(Ck(1)).Marker(1).Row(Ck(2)).Marker(1));
  ReadCommand c;
  c.table_id = layout_.id;
  c.now_seconds = kNow;
  c.row_limit = 2;
  ReadResult r = engine_.Read(c);
  ASSERT_EQ(r.partitions.size(), 2u);
  EXPECT_TRUE(r.partitions[0].rows.empty());
  EXPECT_TRUE(r.partitions[0].static_row.has_value());
  EXPECT_EQ(r.partitions[1].rows.size(), 1u);
  ASSERT_TRUE(r.next.has_value());
  EXPECT_EQ(r.next->partition.key, "b");
  EXPECT_EQ(r.next->last_row, Ck(1));
  EXPECT_EQ(r.next->rows_in_partition, 1);

  c.row_limit = 1;
  r = engine_.Read(c);
  ASSERT_TRUE(r.next.has_value());
  EXPECT_TRUE(r.next->last_was_static);
  EXPECT_FALSE(r.next->last_row.has_value());
  c.resume_after = r.next;
  r = engine_.Read(c);
  ASSERT_EQ(r.partitions.size(), 1u);
  EXPECT_EQ(r.partitions[0].key.key, "b");

  // With a slice, the static-only partition is neither returned nor counted.
  c.resume_after.reset();
  c.row_limit = 10;
  c.slices = {{{{types::EncodeInt(1)}, true}, {{}, true}}};
  r = engine_.Read(c);
  ASSERT_EQ(r.partitions.size(), 1u);
  EXPECT_EQ(r.partitions[0].key.key, "b");
  // Selecting no static column: no static row.
  c.slices.clear();
  c.columns = std::vector<std::string>{"v"};
  r = engine_.Read(c);
  ASSERT_EQ(r.partitions.size(), 1u);
  EXPECT_EQ(r.partitions[0].key.key, "b");
}

TEST_F(ReferenceEngineTest, PartitionsComeByTokenThenKeyAndTokenRangesFilter) {
  engine_.Apply(Builder(layout_, "z", -5).Row(Ck(1)).Marker(1));
  engine_.Apply(Builder(layout_, "b", 7).Row(Ck(1)).Marker(1));
  engine_.Apply(Builder(layout_, "\xff", 7).Row(Ck(1)).Marker(1));
  engine_.Apply(Builder(layout_, "a", 7).Row(Ck(1)).Marker(1));
  auto keys = [](const ReadResult& r) {
    std::vector<Bytes> out;
    for (const auto& p : r.partitions) out.push_back(p.key.key);
    return out;
  };
  EXPECT_EQ(keys(ReadAll()), (std::vector<Bytes>{"z", "a", "b", "\xff"}));
  ReadCommand c;
  c.table_id = layout_.id;
  c.now_seconds = kNow;
  c.range = {-5, 7};
  EXPECT_EQ(keys(engine_.Read(c)), (std::vector<Bytes>{"a", "b", "\xff"}));
  c.range = {7, -5};  // wraps
  EXPECT_EQ(keys(engine_.Read(c)), (std::vector<Bytes>{"z"}));
  c.range = {-5, -5};  // the whole ring, from after -5
  EXPECT_EQ(keys(engine_.Read(c)), (std::vector<Bytes>{"a", "b", "\xff", "z"}));
  c.resume_after = ReadPosition{{7, "b"}, std::nullopt};
  EXPECT_EQ(keys(engine_.Read(c)), (std::vector<Bytes>{"\xff", "z"}));
  c.resume_after.reset();
  c.partitions = {{7, "b"}, {-5, "z"}, {7, "b"}, {3, "missing"}};
  EXPECT_EQ(keys(engine_.Read(c)), (std::vector<Bytes>{"z", "b"}));
}

// Paging with any page size, forwards or backwards, with a per-partition
// limit, returns exactly what one unlimited read returns.
TEST_F(ReferenceEngineTest, PagingReassemblesTheFullRead) {
  for (int p = 0; p < 4; ++p) {
    Builder b(layout_, Bytes(1, static_cast<char>('a' + p)), p * 10);
    if (p % 2 == 0) b.Static().Set("s", Live(1, "st"));
    for (int row = 0; row < p * 2; ++row) b.Row(Ck(row, row % 2 ? "a" : "b")).Marker(1);
    engine_.Apply(b);
  }
  for (bool reversed : {false, true}) {
    for (int per_partition : {2, 100}) {
      ReadCommand full;
      full.table_id = layout_.id;
      full.now_seconds = kNow;
      full.reversed = reversed;
      full.per_partition_limit = per_partition;
      auto flatten = [](const std::vector<ReadPartition>& parts) {
        std::vector<std::string> out;
        for (const auto& part : parts) {
          if (part.rows.empty()) out.push_back(part.key.key + ":static");
          for (const auto& row : part.rows)
            out.push_back(part.key.key + ":" + row.clustering[0] + row.clustering[1]);
        }
        return out;
      };
      const auto expected = flatten(engine_.Read(full).partitions);
      for (int page = 1; page <= 4; ++page) {
        ReadCommand c = full;
        c.row_limit = page;
        std::vector<ReadPartition> all;
        for (int guard = 0; guard < 50; ++guard) {
          ReadResult r = engine_.Read(c);
          int32_t counted = 0;
          for (const auto& part : r.partitions)
            counted += part.rows.empty() ? 1 : static_cast<int32_t>(part.rows.size());
          EXPECT_LE(counted, page);
          all.insert(all.end(), r.partitions.begin(), r.partitions.end());
          if (!r.next) break;
          c.resume_after = r.next;
        }
        EXPECT_EQ(flatten(all), expected)
            << "page " << page << " reversed " << reversed << " per partition " << per_partition;
      }
    }
  }
}

TEST_F(ReferenceEngineTest, SlicesReversedAndPartitionLimit) {
  for (int c1 = 1; c1 <= 5; ++c1) engine_.Apply(Builder(layout_).Row(Ck(c1)).Marker(1));
  engine_.Apply(Builder(layout_, "q", 1).Row(Ck(1)).Marker(1));
  ReadCommand c;
  c.table_id = layout_.id;
  c.now_seconds = kNow;
  c.slices = {{{{types::EncodeInt(1)}, false}, {{types::EncodeInt(2)}, true}},
              {{{types::EncodeInt(4)}, true}, {{}, true}}};
  c.reversed = true;
  c.partitions = {{0, "p"}};
  ReadResult r = engine_.Read(c);
  ASSERT_EQ(r.partitions.size(), 1u);
  std::vector<Clustering> keys;
  for (const auto& row : r.partitions[0].rows) keys.push_back(row.clustering);
  EXPECT_EQ(keys, (std::vector<Clustering>{Ck(5), Ck(4), Ck(2)}));
  EXPECT_FALSE(r.next.has_value());

  ReadCommand all;
  all.table_id = layout_.id;
  all.now_seconds = kNow;
  all.partition_limit = 1;
  r = engine_.Read(all);
  ASSERT_EQ(r.partitions.size(), 1u);
  ASSERT_TRUE(r.next.has_value());
  EXPECT_FALSE(r.next->last_row.has_value());
  all.resume_after = r.next;
  r = engine_.Read(all);
  ASSERT_EQ(r.partitions.size(), 1u);
  EXPECT_EQ(r.partitions[0].key.key, "q");
}

// ---- order independence ----

TEST_F(ReferenceEngineTest, ResultDoesNotDependOnArrivalOrder) {
  std::mt19937_64 rng(17);
  std::vector<Mutation> mutations;
  for (int i = 0; i < 150; ++i) {
    const int64_t ts = static_cast<int64_t>(rng() % 50);
    Builder b(layout_, Bytes(1, static_cast<char>('a' + rng() % 3)),
              static_cast<int64_t>(rng() % 2));
    switch (rng() % 8) {
      case 0:
        b.DeletePartition(ts);
        break;
      case 1:
        b.DeleteRange({{types::EncodeInt(static_cast<int32_t>(rng() % 4))}, rng() % 2 == 0},
                      {{types::EncodeInt(static_cast<int32_t>(rng() % 4))}, true}, ts);
        break;
      case 2:
        b.Row(Ck(static_cast<int32_t>(rng() % 4))).DeleteRow(ts);
        break;
      case 3:
        b.Static().Set("s", rng() % 3 ? Live(ts, "s" + std::to_string(rng() % 3)) : Dead(ts));
        break;
      case 4:
        b.Row(Ck(static_cast<int32_t>(rng() % 4)))
            .DeleteCollection("tags", ts)
            .Set("tags", Live(ts + 1, ""), types::EncodeInt(static_cast<int32_t>(rng() % 5)));
        break;
      default: {
        b.Row(Ck(static_cast<int32_t>(rng() % 4)));
        if (rng() % 2)
          b.Marker(ts, rng() % 3 == 0 ? 10 : 0, rng() % 3 == 0 ? kNow + 5 : kNoDeletionTime);
        const int32_t expires = kNow + static_cast<int32_t>(rng() % 10);
        Cell cell = rng() % 4 == 0
                        ? Dead(ts)
                        : (rng() % 2 == 0 ? Ttl(ts, 10, expires, "e")
                                          : Live(ts, Bytes(1, static_cast<char>('a' + rng() % 3))));
        b.Set(rng() % 2 ? "v" : "w", cell);
      }
    }
    mutations.push_back(b.Get());
  }
  ReferenceEngine in_order;
  in_order.SyncTables({layout_});
  for (const auto& m : mutations) in_order.Apply(m);
  ReadCommand c;
  c.table_id = layout_.id;
  auto digest = [&](const ReferenceEngine& e, int32_t now) {
    c.now_seconds = now;
    std::string out;
    for (const auto& p : e.Read(c).partitions) {
      out += "P" + p.key.key;
      if (p.static_row)
        for (const auto& cell : p.static_row->cells) out += " s:" + cell.value;
      for (const auto& row : p.rows) {
        out += " R" + row.clustering[0] + "/" + std::to_string(row.marker.timestamp);
        for (const auto& cell : row.cells)
          out += " " + cell.column + Bytes(cell.path.value_or("")) + "=" + cell.value + "@" +
                 std::to_string(cell.timestamp);
      }
    }
    return out;
  };
  const std::string expected_now = digest(in_order, kNow);
  const std::string expected_later = digest(in_order, kNow + 6);
  EXPECT_NE(expected_now, expected_later);  // some things expired in between
  for (int shuffle = 0; shuffle < 5; ++shuffle) {
    std::shuffle(mutations.begin(), mutations.end(), rng);
    ReferenceEngine shuffled;
    shuffled.SyncTables({layout_});
    for (const auto& m : mutations) shuffled.Apply(m);
    EXPECT_EQ(digest(shuffled, kNow), expected_now);
    EXPECT_EQ(digest(shuffled, kNow + 6), expected_later);
  }
}

// ---- tables and validation ----

TEST_F(ReferenceEngineTest, TruncateSyncAndErrors) {
  engine_.Apply(Builder(layout_).Row(Ck(1)).Marker(1));
  engine_.Truncate(layout_.id);
  EXPECT_TRUE(ReadAll().partitions.empty());
  engine_.Apply(Builder(layout_).Row(Ck(1)).Marker(1));
  engine_.SyncTables({layout_});  // kept
  EXPECT_EQ(ReadAll().partitions.size(), 1u);

  EXPECT_THROW(
      engine_.Apply(Builder(CounterLayout()).Row({types::EncodeInt(1)}).Set("n", Delta(1, 1))),
      std::runtime_error);  // dropped by the sync above
  EXPECT_THROW(engine_.Apply(Builder(layout_).Row(Ck(1)).Set("nope", Live(1, "x"))),
               std::invalid_argument);
  EXPECT_THROW(engine_.Apply(Builder(layout_).Row({types::EncodeInt(1)}).Marker(1)),
               std::invalid_argument);
  EXPECT_THROW(engine_.Apply(Builder(layout_).Row(Ck(1)).Set("s", Live(1, "x"))),
               std::invalid_argument);
  EXPECT_THROW(engine_.Apply(Builder(layout_).Row(Ck(1)).Set("tags", Live(1, ""))),
               std::invalid_argument);
  EXPECT_THROW(engine_.Apply(Builder(layout_).Row(Ck(1)).Set("v", Delta(1, 1))),
               std::invalid_argument);
  // ApplyAll is all or nothing.
  Mutation good = Builder(layout_, "new").Row(Ck(1)).Marker(1).Get();
  Mutation bad = Builder(layout_).Row(Ck(1)).Set("nope", Live(1, "x")).Get();
  EXPECT_THROW(engine_.ApplyAll({&good, &bad}), std::invalid_argument);
  EXPECT_EQ(ReadAll().partitions.size(), 1u);
  ReadCommand unknown;
  unknown.table_id = CounterLayout().id;
  EXPECT_THROW((void)engine_.Read(unknown), std::runtime_error);
}

}  // namespace
}  // namespace sibyl::storage
