#pragma once
// Random mutations of every kind (random, often tied, timestamps; TTLs;
// deletions of every level) and random reads (named partitions or token
// ranges, slices, columns, limits) over the tables of storage_test_util.h:
// the workload of the randomized engine tests.

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "storage/storage_test_util.h"

namespace sibyl::storage::testing {

// Seconds: compactions run with the clock here, before every expiry, so the
// compaction filter never turns an expired cell into a tombstone (the
// reference does not model that conversion) and purges nothing.
constexpr int32_t kCompactionNow = 1'700'000'000;

class RandomWorkload {
 public:
  explicit RandomWorkload(uint32_t seed) : rng_(seed) {}

  int Pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Pick(1, 100) <= percent; }
  std::mt19937& rng() { return rng_; }

  // Keys share tokens in pairs, so the key-bytes order within a token counts.
  PartitionKey Partition() {
    int k = Pick(0, 5);
    return {static_cast<int64_t>(k / 2) * 1'000'000 - 3, Int(k)};
  }
  int64_t Timestamp() { return Pick(1, 40); }
  int32_t DeletedAt() { return kCompactionNow + Pick(-5, 5); }
  Cell RandomCell(bool allow_expiring = true) {
    int kind = Pick(0, 9);
    if (kind < 2) return Dead(Timestamp(), DeletedAt());
    if (kind < 5 && allow_expiring) {
      int ttl = Pick(1, 100);
      return Ttl(Timestamp(), ttl, kCompactionNow + Pick(1, 300), Int(Pick(0, 3)));
    }
    return Live(Timestamp(), Int(Pick(0, 3)));
  }
  Bytes ListPath() {
    return types::Uuid::TimeBased(Pick(1, 5) * 1000, 0x8000000000000001).ToBytes();
  }
  Clustering Row() { return {Int(Pick(0, 7))}; }
  DeletionTime Deletion() { return {Timestamp(), DeletedAt()}; }

  ClusteringBound Bound(int value, bool inclusive) { return {{Int(value)}, inclusive}; }

  Mutation RandomMutation(const TableLayout& table, bool counters) {
    Mutation m;
    m.table_id = table.id;
    m.partition = Partition();
    if (Chance(3)) m.partition_deletion = Deletion();
    if (Chance(8)) {
      int a = Pick(0, 7), b = Pick(0, 7);
      if (a > b) std::swap(a, b);
      RangeTombstone rt;
      // Bounds in clustering order (a DESC column puts the larger first).
      bool desc = table.clustering[0].descending;
      rt.start = Chance(20) ? ClusteringBound{} : Bound(desc ? b : a, Chance(50));
      rt.end = Chance(20) ? ClusteringBound{} : Bound(desc ? a : b, Chance(50));
      rt.deletion = Deletion();
      m.range_tombstones.push_back(rt);
    }
    int rows = Pick(0, 2);
    std::vector<Clustering> used;
    for (int i = 0; i < rows; ++i) {
      Clustering c = Row();
      if (std::find(used.begin(), used.end(), c) != used.end()) continue;
      used.push_back(c);
      RowWrite& row = m.rows.emplace_back();
      row.clustering = c;
      if (counters) {
        if (Chance(15)) {
          Set(row, "n", Dead(Timestamp(), DeletedAt()));
        } else {
          Set(row, "n", Delta(Timestamp(), Pick(-3, 5)));
        }
        if (Chance(5)) row.deletion = Deletion();
        continue;
      }
      if (Chance(30)) {
        int64_t ts = Timestamp();
        row.marker = Chance(30) ? LivenessInfo{ts, 50, kCompactionNow + Pick(1, 300)}
                                : LivenessInfo{ts, 0, kNoDeletionTime};
      }
      if (Chance(8)) row.deletion = Deletion();
      if (Chance(50)) Set(row, "v", RandomCell());
      if (Chance(30)) Set(row, "w", RandomCell());
      if (Chance(10)) row.collection_deletions.push_back({"l", Deletion()});
      if (Chance(25)) SetElement(row, "l", ListPath(), RandomCell());
      if (Chance(8)) row.collection_deletions.push_back({"m", Deletion()});
      if (Chance(25)) SetElement(row, "m", Int(Pick(-2, 2)), RandomCell());
      if (Chance(20)) {
        Cell cell = RandomCell();
        if (cell.kind != Cell::Kind::kTombstone) cell.value.clear();
        SetElement(row, "st", Int(Pick(0, 4)), cell);
      }
    }
    if (!counters && Chance(20)) {
      RowWrite& row = m.rows.emplace_back();
      row.is_static = true;
      Set(row, "s", RandomCell());
    }
    return m;
  }

  std::vector<ClusteringSlice> Slices(bool descending) {
    std::vector<ClusteringSlice> slices;
    int count = Pick(0, 2);
    if (count == 0) return slices;
    // Strictly increasing positions in clustering order, so slices are
    // sorted and disjoint.
    std::vector<int> points;
    for (int p = -1; p <= 8; ++p) points.push_back(p);
    std::shuffle(points.begin(), points.end(), rng_);
    points.resize(2 * count);
    std::sort(points.begin(), points.end());
    auto bound = [&](int position) {
      if (position < 0 || position > 7) return ClusteringBound{};  // unbounded
      return Bound(descending ? 7 - position : position, Chance(50));
    };
    for (int i = 0; i < count; ++i) {
      ClusteringSlice slice;
      slice.start = points[2 * i] < 0 ? ClusteringBound{} : bound(points[2 * i]);
      slice.end = points[2 * i + 1] > 7 ? ClusteringBound{} : bound(points[2 * i + 1]);
      slices.push_back(slice);
    }
    return slices;
  }

  ReadCommand RandomRead(const TableLayout& table) {
    ReadCommand command;
    command.table_id = table.id;
    if (Chance(60)) {
      int n = Pick(1, 4);
      for (int i = 0; i < n; ++i) command.partitions.push_back(Partition());
    } else if (Chance(50)) {
      int64_t tokens[] = {
          std::numeric_limits<int64_t>::min(), -1'000'003, -3, 999'997, 1'999'997, 5};
      command.range = {tokens[Pick(0, 5)], tokens[Pick(0, 5)]};
    }
    command.slices = Slices(table.clustering[0].descending);
    command.reversed = Chance(40);
    if (Chance(30)) {
      std::vector<std::string> all = {"v", "w", "s", "l", "st", "m", "n"};
      std::vector<std::string> columns;
      for (const auto& c : all) {
        if (table.FindColumn(c) && Chance(50)) columns.push_back(c);
      }
      command.columns = columns;
    }
    if (Chance(50)) command.row_limit = Pick(1, 5);
    if (Chance(25)) command.per_partition_limit = Pick(1, 3);
    if (Chance(20)) command.partition_limit = Pick(1, 3);
    command.now_seconds = kCompactionNow + Pick(0, 320);
    return command;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace sibyl::storage::testing
