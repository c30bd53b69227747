// The ReadPlan and RowFilter Restrictions::Bind builds for each accepted shape.

#include "query/restrictions/read_plan.h"

#include <gtest/gtest.h>

#include "dht/token.h"
#include "query/restrictions/clustering_slices.h"
#include "query/restrictions/restrictions_test_util.h"

namespace sibyl::query {
namespace {

using schema::ClusteringOrder;
using schema::TableBuilder;
using storage::ClusteringBound;
using storage::ClusteringSlice;
using testing::PreparedWhere;
using types::EncodeInt;

constexpr int64_t kMin = dht::kMinimumToken;

ClusteringBound Bound(std::vector<int32_t> values, bool inclusive) {
  ClusteringBound b;
  for (int32_t v : values) b.prefix.push_back(EncodeInt(v));
  b.inclusive = inclusive;
  return b;
}

ClusteringSlice Slice(ClusteringBound start, ClusteringBound end) { return {start, end}; }

// Slices as text ("[1,2]( .. [3]]": exclusive start, inclusive end), for
// comparisons with readable failures.
std::string Text(const std::vector<ClusteringSlice>& slices) {
  auto bound = [](const ClusteringBound& b) {
    std::string text = "[";
    for (size_t i = 0; i < b.prefix.size(); ++i) {
      text += (i ? "," : "") + std::to_string(types::DecodeInt(b.prefix[i]));
    }
    return text + "]";
  };
  std::string text;
  for (const auto& s : slices) {
    text += bound(s.start) + (s.start.inclusive ? "[" : "(") + " .. " + bound(s.end) +
            (s.end.inclusive ? "]" : ")") + "; ";
  }
  return text;
}

storage::PartitionKey Key(int32_t k) {
  const Bytes key = EncodeInt(k);
  return {dht::Murmur3Token(key), key};
}

class ReadPlanTest : public ::testing::Test {
 protected:
  ReadPlanTest()
      : table_(TableBuilder("ks", "t")
                   .PartitionKey("k", "int")
                   .Clustering("a", "int")
                   .Clustering("b", "int")
                   .Column("v", "int")
                   .Column("m", "map<text, int>")
                   .Build()),
        desc_(TableBuilder("ks", "d")
                  .PartitionKey("k", "int")
                  .Clustering("a", "int", ClusteringOrder::kDesc)
                  .Clustering("b", "int", ClusteringOrder::kDesc)
                  .Build()),
        mixed_(TableBuilder("ks", "x")
                   .PartitionKey("k", "int")
                   .Clustering("a", "int", ClusteringOrder::kAsc)
                   .Clustering("b", "int", ClusteringOrder::kDesc)
                   .Build()),
        composite_(
            TableBuilder("ks", "c").PartitionKey("k1", "int").PartitionKey("k2", "int").Build()) {}

  BoundRestrictions Plan(const schema::TableMetadata& table, const std::string& where,
                         std::vector<std::optional<Bytes>> values = {}) {
    prepared_ = std::make_unique<PreparedWhere>(table, "SELECT * FROM t WHERE " + where);
    return prepared_->Bind(std::move(values));
  }
  BoundRestrictions Plan(const std::string& where, std::vector<std::optional<Bytes>> values = {}) {
    return Plan(*table_, where, std::move(values));
  }

  static schema::Row Row(const schema::TableMetadata& table, std::vector<int32_t> key_values) {
    schema::Row row(table.columns.size());
    for (size_t i = 0; i < key_values.size(); ++i) row[i] = EncodeInt(key_values[i]);
    return row;
  }

  schema::TablePtr table_;
  schema::TablePtr desc_;
  schema::TablePtr mixed_;
  schema::TablePtr composite_;
  std::unique_ptr<PreparedWhere> prepared_;
};

TEST_F(ReadPlanTest, NamedPartitions) {
  auto one = Plan("k = 1");
  ASSERT_TRUE(one.plan.partitions);
  EXPECT_EQ(*one.plan.partitions, std::vector<storage::PartitionKey>{Key(1)});
  EXPECT_TRUE(one.plan.slices.empty());
  EXPECT_TRUE(one.filter.empty());

  auto in = Plan("k IN (2, -1, 2)");
  ASSERT_TRUE(in.plan.partitions);
  EXPECT_EQ(*in.plan.partitions, (std::vector<storage::PartitionKey>{Key(-1), Key(2)}));

  auto marker = Plan("k IN ?", {types::EncodeList({EncodeInt(4), EncodeInt(5)})});
  ASSERT_TRUE(marker.plan.partitions);
  EXPECT_EQ(*marker.plan.partitions, (std::vector<storage::PartitionKey>{Key(4), Key(5)}));

  auto none = Plan("k IN ()");
  EXPECT_TRUE(none.plan.selects_nothing);

  auto product = Plan(*composite_, "k1 IN (2, 1) AND k2 IN (4, 3)");
  ASSERT_TRUE(product.plan.partitions);
  ASSERT_EQ(product.plan.partitions->size(), 4u);
  // In key order: (1, 3), (1, 4), (2, 3), (2, 4).
  const Bytes key = schema::RoutingKey({EncodeInt(2), EncodeInt(3)});
  EXPECT_EQ((*product.plan.partitions)[2].key, key);
  EXPECT_EQ((*product.plan.partitions)[2].token, dht::Murmur3Token(key));
}

TEST_F(ReadPlanTest, TokenRanges) {
  auto gt = Plan("token(k) > 5");
  EXPECT_FALSE(gt.plan.partitions);
  EXPECT_EQ(gt.plan.range.start, 5);
  EXPECT_EQ(gt.plan.range.end, kMin);

  auto ge_le = Plan("token(k) >= 5 AND token(k) <= 10");
  EXPECT_EQ(ge_le.plan.range.start, 4);
  EXPECT_EQ(ge_le.plan.range.end, 10);

  auto lt = Plan("token(k) < 10");
  EXPECT_EQ(lt.plan.range.start, kMin);
  EXPECT_EQ(lt.plan.range.end, 9);

  auto eq = Plan("token(k) = 7");
  EXPECT_EQ(eq.plan.range.start, 6);
  EXPECT_EQ(eq.plan.range.end, 7);

  EXPECT_TRUE(Plan("token(k) > 10 AND token(k) < 5").plan.selects_nothing);
  EXPECT_TRUE(Plan("token(k) > 5 AND token(k) < 6").plan.selects_nothing);
  EXPECT_TRUE(Plan("token(k) > 5 AND token(k) <= 5").plan.selects_nothing);
  EXPECT_FALSE(Plan("token(k) >= 5 AND token(k) <= 5").plan.selects_nothing);
  // The minimum token as an end means the end of the ring.
  auto to_end = Plan("token(k) > 5 AND token(k) <= -9223372036854775808");
  EXPECT_FALSE(to_end.plan.selects_nothing);
  EXPECT_EQ(to_end.plan.range.end, kMin);

  auto whole = Plan("v = 1 ALLOW FILTERING");
  EXPECT_EQ(whole.plan.range.start, kMin);
  EXPECT_EQ(whole.plan.range.end, kMin);
}

TEST_F(ReadPlanTest, TokenFiltersNamedPartitions) {
  const int64_t token = Key(1).token;
  auto kept = Plan("token(k) >= ? AND k = 1", {types::EncodeBigint(token)});
  ASSERT_TRUE(kept.plan.partitions);
  EXPECT_EQ(kept.plan.partitions->size(), 1u);
  auto dropped = Plan("token(k) > ? AND k = 1", {types::EncodeBigint(token)});
  EXPECT_TRUE(dropped.plan.selects_nothing);
  // TokenFilter wraps a slice whose start is after its end.
  auto wrapped = Plan("token(k) > ? AND token(k) < ? AND k = 1",
                      {types::EncodeBigint(token + 1), types::EncodeBigint(token + 1)});
  EXPECT_TRUE(wrapped.plan.selects_nothing);
  auto wrapped_in = Plan("token(k) > ? AND token(k) < ? AND k = 1",
                         {types::EncodeBigint(token + 1), types::EncodeBigint(token - 1)});
  EXPECT_TRUE(wrapped_in.plan.selects_nothing);
  auto around = Plan("token(k) > ? AND token(k) <= ? AND k = 1",
                     {types::EncodeBigint(token + 1), types::EncodeBigint(token)});
  EXPECT_FALSE(around.plan.selects_nothing);
}

TEST_F(ReadPlanTest, PartialKeyFilters) {
  auto partial = Plan(*composite_, "k1 = 1 ALLOW FILTERING");
  EXPECT_FALSE(partial.plan.partitions);
  ASSERT_EQ(partial.filter.conditions().size(), 1u);
  EXPECT_EQ(partial.filter.conditions()[0].column, 0u);
  EXPECT_TRUE(partial.filter.Matches(Row(*composite_, {1, 9})));
  EXPECT_FALSE(partial.filter.Matches(Row(*composite_, {2, 9})));
}

TEST_F(ReadPlanTest, ClusteringPrefixAndSlice) {
  auto plan = Plan("k = 1 AND a IN (3, 1) AND b > 2");
  EXPECT_EQ(Text(plan.plan.slices), Text({
                                        Slice(Bound({1, 2}, false), Bound({1}, true)),
                                        Slice(Bound({3, 2}, false), Bound({3}, true)),
                                    }));
  EXPECT_TRUE(plan.filter.empty());

  auto eq = Plan("k = 1 AND a = 1 AND b = 2");
  EXPECT_EQ(Text(eq.plan.slices), Text({Slice(Bound({1, 2}, true), Bound({1, 2}, true))}));

  auto both = Plan("k = 1 AND a >= 1 AND a < 5");
  EXPECT_EQ(Text(both.plan.slices), Text({Slice(Bound({1}, true), Bound({5}, false))}));

  EXPECT_TRUE(Plan("k = 1 AND a > 5 AND a < 1").plan.selects_nothing);
  EXPECT_TRUE(Plan("k = 1 AND a IN ()").plan.selects_nothing);
}

TEST_F(ReadPlanTest, DescendingClusteringPutsTheUpperBoundFirst) {
  auto plan = Plan(*desc_, "k = 1 AND a > 1 AND a <= 5");
  EXPECT_EQ(Text(plan.plan.slices), Text({Slice(Bound({5}, true), Bound({1}, false))}));
  auto in = Plan(*desc_, "k = 1 AND a IN (1, 3)");
  EXPECT_EQ(Text(in.plan.slices), Text({
                                      Slice(Bound({3}, true), Bound({3}, true)),
                                      Slice(Bound({1}, true), Bound({1}, true)),
                                  }));
  auto tuple = Plan(*desc_, "k = 1 AND (a, b) > (1, 2)");
  EXPECT_EQ(Text(tuple.plan.slices), Text({Slice(ClusteringBound{}, Bound({1, 2}, false))}));
}

TEST_F(ReadPlanTest, MultiColumnSlices) {
  auto gt = Plan("k = 1 AND (a, b) > (1, 2)");
  EXPECT_EQ(Text(gt.plan.slices), Text({Slice(Bound({1, 2}, false), ClusteringBound{})}));

  auto between = Plan("k = 1 AND (a, b) > (1, 2) AND (a) < (3)");
  EXPECT_EQ(Text(between.plan.slices), Text({Slice(Bound({1, 2}, false), Bound({3}, false))}));

  auto converted = Plan("k = 1 AND (a, b) >= (1, 2) AND a <= 3");
  EXPECT_EQ(Text(converted.plan.slices), Text({Slice(Bound({1, 2}, true), Bound({3}, true))}));

  auto in = Plan("k = 1 AND (a, b) IN ((3, 4), (1, 2), (3, 4))");
  EXPECT_EQ(Text(in.plan.slices), Text({
                                      Slice(Bound({1, 2}, true), Bound({1, 2}, true)),
                                      Slice(Bound({3, 4}, true), Bound({3, 4}, true)),
                                  }));

  auto marker = Plan("k = 1 AND (a, b) = ?",
                     {types::EncodeTuple({BytesView(EncodeInt(7)), BytesView(EncodeInt(8))})});
  EXPECT_EQ(Text(marker.plan.slices), Text({Slice(Bound({7, 8}, true), Bound({7, 8}, true))}));
}

TEST_F(ReadPlanTest, MixedOrderTupleSlicesSplit) {
  // a ASC, b DESC: (a, b) > (1, 2) is a > 1, or a = 1 and b > 2 (stored first in a = 1).
  auto gt = Plan(*mixed_, "k = 1 AND (a, b) > (1, 2)");
  EXPECT_EQ(Text(gt.plan.slices), Text({
                                      Slice(Bound({1}, true), Bound({1, 2}, false)),
                                      Slice(Bound({1}, false), ClusteringBound{}),
                                  }));
  auto between = Plan(*mixed_, "k = 1 AND (a, b) >= (1, 2) AND (a, b) < (3, 4)");
  EXPECT_EQ(Text(between.plan.slices), Text({
                                           Slice(Bound({1}, true), Bound({1, 2}, true)),
                                           Slice(Bound({1}, false), Bound({3}, false)),
                                           Slice(Bound({3, 4}, false), Bound({3}, true)),
                                       }));
  // The plan holds exactly the rows the tuple comparison selects.
  for (int a = 0; a <= 4; ++a) {
    for (int b = 0; b <= 5; ++b) {
      const bool wanted = (a > 1 || (a == 1 && b >= 2)) && (a < 3 || (a == 3 && b < 4));
      EXPECT_EQ(between.plan.Contains(*mixed_, Row(*mixed_, {1, a, b})), wanted) << a << "," << b;
    }
  }
}

TEST_F(ReadPlanTest, FilteredClusteringAndRegularColumns) {
  auto gap = Plan("k = 1 AND b = 5 ALLOW FILTERING");
  EXPECT_TRUE(gap.plan.slices.empty());
  ASSERT_EQ(gap.filter.conditions().size(), 1u);
  EXPECT_EQ(gap.filter.conditions()[0].column, 2u);

  auto after_slice = Plan("k = 1 AND a > 1 AND b = 5 ALLOW FILTERING");
  EXPECT_EQ(Text(after_slice.plan.slices), Text({Slice(Bound({1}, false), ClusteringBound{})}));
  EXPECT_EQ(after_slice.filter.conditions().size(), 1u);

  auto regular = Plan("k = 1 AND v > 3 AND m['x'] = 2 ALLOW FILTERING");
  ASSERT_EQ(regular.filter.conditions().size(), 2u);
  schema::Row row = Row(*table_, {1, 1, 1});
  row[4] = EncodeInt(4);  // v (regular columns sort by name: m, v)
  row[3] = types::EncodeMap({{"x", EncodeInt(2)}});
  EXPECT_TRUE(regular.filter.Matches(row));
  row[3] = types::EncodeMap({{"x", EncodeInt(3)}});
  EXPECT_FALSE(regular.filter.Matches(row));
}

TEST_F(ReadPlanTest, ContainsChecksPartitionsRangesAndSlices) {
  auto named = Plan("k IN (1, 2) AND a = 3");
  EXPECT_TRUE(named.plan.Contains(*table_, Row(*table_, {2, 3, 0})));
  EXPECT_FALSE(named.plan.Contains(*table_, Row(*table_, {5, 3, 0})));
  EXPECT_FALSE(named.plan.Contains(*table_, Row(*table_, {1, 4, 0})));

  const int64_t token = Key(7).token;
  auto range = Plan("token(k) >= ? AND token(k) <= ?",
                    {types::EncodeBigint(token), types::EncodeBigint(token)});
  EXPECT_TRUE(range.plan.Contains(*table_, Row(*table_, {7, 0, 0})));
  EXPECT_FALSE(range.plan.Contains(*table_, Row(*table_, {8, 0, 0})));
}

TEST(NormalizeSlicesTest, MergesOverlapsAndDropsEmpty) {
  auto table = TableBuilder("ks", "t").PartitionKey("k", "int").Clustering("a", "int").Build();
  std::vector<ClusteringSlice> slices{
      Slice(Bound({5}, true), Bound({9}, true)),   Slice(Bound({1}, true), Bound({6}, false)),
      Slice(Bound({7}, false), Bound({7}, false)),  // empty
      Slice(Bound({9}, false), Bound({10}, true)),  // touches the first
      Slice(Bound({20}, true), Bound({21}, true)),
  };
  NormalizeSlices(*table, slices);
  EXPECT_EQ(Text(slices), Text({
                              Slice(Bound({1}, true), Bound({10}, true)),
                              Slice(Bound({20}, true), Bound({21}, true)),
                          }));
}

}  // namespace
}  // namespace sibyl::query
