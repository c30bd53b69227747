#include "storage/cells/reconcile.h"

#include <gtest/gtest.h>

#include <random>

#include "storage/compaction/cell_merge_operator.h"
#include "storage/storage_test_util.h"
#if __has_include("storage/reference/reference_engine.h")
#include "storage/reference/reference_engine.h"
#define SIBYL_HAVE_REFERENCE_ENGINE 1
#endif

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

// Reconciliation must not depend on argument order.
Cell Both(const Cell& a, const Cell& b) {
  Cell ab = Reconcile(a, b);
  EXPECT_EQ(ab, Reconcile(b, a));
  return ab;
}

TEST(CellReconcileTest, HigherTimestampWins) {
  EXPECT_EQ(Both(Live(1, "b"), Live(2, "a")), Live(2, "a"));
  EXPECT_EQ(Both(Dead(1, 100), Live(2, "a")), Live(2, "a"));
  EXPECT_EQ(Both(Ttl(3, 10, 50, "x"), Dead(2, 100)), Ttl(3, 10, 50, "x"));
}

TEST(CellReconcileTest, TombstoneWinsATie) {
  EXPECT_EQ(Both(Dead(5, 1), Live(5, "zzz")), Dead(5, 1));
  EXPECT_EQ(Both(Dead(5, 1), Ttl(5, 10, 999, "zzz")), Dead(5, 1));
}

TEST(CellReconcileTest, ExpiringWinsATieWithRegular) {
  // CASSANDRA-14592: even when the regular value is greater.
  EXPECT_EQ(Both(Ttl(5, 10, 20, "a"), Live(5, "z")), Ttl(5, 10, 20, "a"));
}

TEST(CellReconcileTest, LaterLocalDeletionTimeWinsBetweenSameKind) {
  EXPECT_EQ(Both(Ttl(5, 10, 20, "z"), Ttl(5, 30, 40, "a")), Ttl(5, 30, 40, "a"));
  EXPECT_EQ(Both(Dead(5, 10), Dead(5, 11)), Dead(5, 11));
}

TEST(CellReconcileTest, GreaterValueWinsBetweenLiveCells) {
  EXPECT_EQ(Both(Live(5, "a"), Live(5, "b")), Live(5, "b"));
  // Unsigned byte order: 0x80 > 0x7f.
  EXPECT_EQ(Both(Live(5, "\x7f"), Live(5, "\x80")), Live(5, "\x80"));
  EXPECT_EQ(Both(Live(5, "a"), Live(5, "ab")), Live(5, "ab"));
  EXPECT_EQ(Both(Ttl(5, 10, 20, "a"), Ttl(5, 10, 20, "b")), Ttl(5, 10, 20, "b"));
}

TEST(CellReconcileTest, CountersAddUpAndKeepTheLaterTimestamp) {
  EXPECT_EQ(Both(Delta(1, 5), Delta(3, -2)), Delta(3, 3));
  // Associative: ((a+b)+c) == (a+(b+c)).
  EXPECT_EQ(Reconcile(Reconcile(Delta(1, 1), Delta(2, 2)), Delta(3, 3)),
            Reconcile(Delta(1, 1), Reconcile(Delta(2, 2), Delta(3, 3))));
}

TEST(CellReconcileTest, CounterTombstoneAlwaysWins) {
  EXPECT_EQ(Both(Dead(1, 7), Delta(100, 5)), Dead(1, 7));
}

TEST(CellReconcileTest, LivenessSupersedes) {
  LivenessInfo plain{10, 0, kNoDeletionTime};
  LivenessInfo later{11, 0, kNoDeletionTime};
  LivenessInfo expiring{10, 5, 100};
  LivenessInfo expiring_longer{10, 5, 200};
  EXPECT_TRUE(LivenessSupersedes(later, plain));
  EXPECT_TRUE(LivenessSupersedes(expiring, plain));  // a tie: the expiring one
  EXPECT_FALSE(LivenessSupersedes(plain, expiring));
  EXPECT_TRUE(LivenessSupersedes(expiring_longer, expiring));
  EXPECT_EQ(Reconcile(plain, later), later);
}

TEST(CellReconcileTest, DeletionSupersedes) {
  DeletionTime a{10, 100}, b{10, 101}, c{11, 1};
  EXPECT_EQ(Reconcile(a, b), b);
  EXPECT_EQ(Reconcile(b, a), b);
  EXPECT_EQ(Reconcile(b, c), c);
}

TEST(CellMergeOperatorTest, MergesStoredValuesAndRefusesMismatches) {
  CellMergeOperator merge;
  Bytes a, b, out;
  EncodeCell(Live(1, "old"), a);
  EncodeCell(Live(2, "new"), b);
  rocksdb::Slice sa(a), sb(b);
  ASSERT_TRUE(merge.Merge("k", &sa, sb, &out, nullptr));
  EXPECT_EQ(DecodeCell(out)->ToCell(), Live(2, "new"));
  ASSERT_TRUE(merge.Merge("k", nullptr, sa, &out, nullptr));
  EXPECT_EQ(out, a);
  Bytes deletion;
  EncodeDeletion({5, 5}, deletion);
  rocksdb::Slice sd(deletion);
  EXPECT_FALSE(merge.Merge("k", &sa, sd, &out, nullptr));
  rocksdb::Slice garbage("C");
  EXPECT_FALSE(merge.Merge("k", &sa, garbage, &out, nullptr));
}

TEST(CellMergeOperatorTest, FullMergeOfOneOperandHandsItBackAndOfSeveralReconciles) {
  CellMergeOperator merge;
  Bytes a, b;
  EncodeCell(Live(1, "old"), a);
  EncodeCell(Live(2, "new"), b);
  std::vector<rocksdb::Slice> one{rocksdb::Slice(a)};
  std::string out;
  rocksdb::Slice operand;
  rocksdb::MergeOperator::MergeOperationOutput result(out, operand);
  using Input = rocksdb::MergeOperator::MergeOperationInput;
  const rocksdb::Slice key("k");
  ASSERT_TRUE(merge.FullMergeV2(Input(key, nullptr, one, nullptr), &result));
  EXPECT_EQ(operand.data(), a.data());  // the operand itself, not a copy
  EXPECT_EQ(operand.size(), a.size());

  std::vector<rocksdb::Slice> both{rocksdb::Slice(b), rocksdb::Slice(a)};
  rocksdb::Slice none(nullptr, 0);  // as RocksDB passes it
  rocksdb::MergeOperator::MergeOperationOutput merged(out, none);
  ASSERT_TRUE(merge.FullMergeV2(Input(key, nullptr, both, nullptr), &merged));
  EXPECT_EQ(none.data(), nullptr);
  EXPECT_EQ(DecodeCell(out)->ToCell(), Live(2, "new"));

  const rocksdb::Slice base(b);  // a compacted newer base and one older write
  out.clear();
  ASSERT_TRUE(merge.FullMergeV2(Input(key, &base, one, nullptr), &merged));
  EXPECT_EQ(DecodeCell(out)->ToCell(), Live(2, "new"));
}

TEST(CellCodecTest, RoundTrips) {
  Bytes out;
  Cell cell = Ttl(-7, 60, 1234, std::string("v\0", 2));
  EncodeCell(cell, out);
  EXPECT_EQ(DecodeCell(out)->ToCell(), cell);
  out.clear();
  EncodeLiveness({9, 3, 12}, out);
  EXPECT_EQ(DecodeLiveness(out), (LivenessInfo{9, 3, 12}));
  out.clear();
  EncodeDeletion({kNoTimestamp + 1, 77}, out);
  EXPECT_EQ(DecodeDeletion(out), (DeletionTime{kNoTimestamp + 1, 77}));
  EXPECT_FALSE(DecodeDeletion("D12"));
}

#ifdef SIBYL_HAVE_REFERENCE_ENGINE
// The same rules as the reference engine's, on random small values (ties in
// every field are frequent).
TEST(CellReconcileTest, AgreesWithTheReferenceEngine) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto random_cell = [&](bool counter) {
    int kind = pick(0, 2);
    int64_t ts = pick(1, 3);
    if (kind == 0) return Dead(ts, pick(1, 3));
    if (counter) return Delta(ts, pick(-2, 2));
    if (kind == 1) return Ttl(ts, pick(1, 2), pick(1, 3), Bytes(1, static_cast<char>(pick(0, 2))));
    return Live(ts, Bytes(pick(0, 2), static_cast<char>(pick(0, 2))));
  };
  for (int i = 0; i < 5000; ++i) {
    bool counter = i % 3 == 0;
    Cell a = random_cell(counter), b = random_cell(counter);
    ASSERT_EQ(Reconcile(a, b), ReferenceEngine::ReconcileCells(a, b)) << i;
    LivenessInfo x{pick(1, 3), pick(0, 2), pick(1, 3)};
    LivenessInfo y{pick(1, 3), pick(0, 2), pick(1, 3)};
    if (x.ttl == 0) x.local_expiration_time = kNoDeletionTime;
    if (y.ttl == 0) y.local_expiration_time = kNoDeletionTime;
    ASSERT_EQ(Reconcile(x, y), ReferenceEngine::ReconcileMarkers(x, y)) << i;
  }
}
#endif

}  // namespace
}  // namespace sibyl::storage
