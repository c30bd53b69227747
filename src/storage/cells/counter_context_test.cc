#include "storage/cells/counter_context.h"

#include <gtest/gtest.h>

#include <random>

namespace sibyl::storage {
namespace {

types::Uuid Id(uint8_t n) {
  types::Uuid id;
  id.bytes[15] = n;
  return id;
}

Bytes CounterDelta(int64_t amount) {
  Bytes out;
  AppendBE64(out, static_cast<uint64_t>(amount));
  return out;
}

Bytes Merge(BytesView a, BytesView b) {
  Bytes out;
  MergeCounterValues(a, b, out);
  return out;
}

TEST(CounterContextTest, DeltasAddUpAndStayDeltas) {
  const Bytes merged = Merge(CounterDelta(5), CounterDelta(-7));
  EXPECT_EQ(merged, CounterDelta(-2));
  EXPECT_EQ(CounterTotal(merged), -2);
  EXPECT_TRUE(HoldsCounterDelta(merged));
}

TEST(CounterContextTest, AShardKeepsItsHighestClockWhateverTheOrder) {
  const Bytes old_shard = EncodeCounterShards({{Id(1), 3, 10}});
  const Bytes new_shard = EncodeCounterShards({{Id(1), 4, 12}});
  EXPECT_EQ(Merge(old_shard, new_shard), new_shard);
  EXPECT_EQ(Merge(new_shard, old_shard), new_shard);
  EXPECT_EQ(Merge(new_shard, new_shard), new_shard) << "a shard applied twice counts once";
  EXPECT_FALSE(HoldsCounterDelta(new_shard));
}

TEST(CounterContextTest, ShardsOfDifferentLeadersAddUp) {
  const Bytes merged = Merge(EncodeCounterShards({{Id(2), 1, 5}}),
                             EncodeCounterShards({{Id(1), 7, 3}, {Id(3), 2, -1}}));
  EXPECT_EQ(DecodeCounterShards(merged),
            (std::vector<CounterShard>{{Id(1), 7, 3}, {Id(2), 1, 5}, {Id(3), 2, -1}}));
  EXPECT_EQ(CounterTotal(merged), 7);
  EXPECT_EQ(FindCounterShard(merged, Id(2)), (CounterShard{Id(2), 1, 5}));
  EXPECT_EQ(FindCounterShard(merged, Id(9)), std::nullopt);
}

TEST(CounterContextTest, ADeltaMetWithShardsBecomesTheZeroIdShard) {
  const Bytes merged = Merge(CounterDelta(4), EncodeCounterShards({{Id(1), 1, 6}}));
  EXPECT_EQ(CounterTotal(merged), 10);
  EXPECT_TRUE(HoldsCounterDelta(merged));
  EXPECT_EQ(CounterTotal(Merge(merged, CounterDelta(1))), 11) << "further deltas still add";
}

TEST(CounterContextTest, ReadValueIsTheEightByteTotal) {
  Bytes out;
  AssignCounterReadValue(EncodeCounterShards({{Id(1), 1, 6}, {Id(2), 9, 30}}), out);
  EXPECT_EQ(out, CounterDelta(36));
  AssignCounterReadValue(CounterDelta(-3), out);
  EXPECT_EQ(out, CounterDelta(-3));
}

TEST(CounterContextTest, ValidationRefusesWrongSizesAndUnsortedIds) {
  EXPECT_TRUE(IsValidCounterValue(CounterDelta(1)));
  EXPECT_FALSE(IsValidCounterValue(""));
  EXPECT_FALSE(IsValidCounterValue(Bytes(7, '\0')));
  EXPECT_FALSE(IsValidCounterValue(Bytes(40, '\0')));
  Bytes unsorted = EncodeCounterShards({{Id(2), 1, 1}});
  unsorted += EncodeCounterShards({{Id(1), 1, 1}});
  EXPECT_FALSE(IsValidCounterValue(unsorted));
  Bytes duplicate = EncodeCounterShards({{Id(2), 1, 1}});
  duplicate += duplicate;
  EXPECT_FALSE(IsValidCounterValue(duplicate));
}

// Replicas receive shard versions in any order, some twice: they agree.
TEST(CounterContextTest, MergeIsCommutativeAssociativeAndIdempotentForShards) {
  const uint32_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 random(seed);
  std::vector<Bytes> versions;
  for (int i = 0; i < 30; ++i) {
    std::vector<CounterShard> shards;
    for (uint8_t id = 1; id <= 3; ++id) {
      if (random() % 2 == 0) continue;
      const int64_t clock = static_cast<int64_t>(random() % 5);
      shards.push_back({Id(id), clock, clock * 10 + static_cast<int64_t>(random() % 2)});
    }
    if (!shards.empty()) versions.push_back(EncodeCounterShards(shards));
  }
  Bytes forward = versions.front();
  for (size_t i = 1; i < versions.size(); ++i) forward = Merge(forward, versions[i]);
  std::vector<Bytes> shuffled = versions;
  shuffled.insert(shuffled.end(), versions.begin(), versions.begin() + 5);  // duplicates
  std::shuffle(shuffled.begin(), shuffled.end(), random);
  Bytes backward = shuffled.back();
  for (size_t i = shuffled.size() - 1; i-- > 0;) backward = Merge(shuffled[i], backward);
  EXPECT_EQ(forward, backward);
  EXPECT_TRUE(IsValidCounterValue(forward));
}

}  // namespace
}  // namespace sibyl::storage
