#include "schema/large_data_rules.h"

#include <gtest/gtest.h>

#include "dht/token.h"
#include "schema/storage_layout.h"
#include "schema/table_builder.h"
#include "storage/codec/key_codec.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using guardrails::GuardrailId;
using storage::ledger::PartitionFigures;

TablePtr Readings() {
  return TableBuilder("iot", "readings")
      .PartitionKey("sensor", "int")
      .Clustering("ts", "timestamp")
      .Column("v", "blob")
      .Build();
}

Bytes Prefix(BytesView routing_key) {
  Bytes prefix;
  storage::AppendPartitionPrefix({42, Bytes(routing_key)}, prefix);
  return prefix;
}

TEST(LargeDataRulesTest, BreaksWhatIsOverWarnOrFail) {
  guardrails::Guardrails g;  // Sibyl's defaults
  PartitionFigures p;
  p.bytes = 150ull << 20;
  p.rows = 99'999;
  p.tombstones = 10'001;
  p.largest_collection_items = 1000;  // at the threshold: not over
  const std::vector<BrokenRule> broken = BrokenPartitionRules(g, p);
  ASSERT_EQ(broken.size(), 2u);
  EXPECT_EQ(broken[0].id, GuardrailId::kPartitionSize);
  EXPECT_FALSE(broken[0].failed);
  EXPECT_EQ(broken[0].threshold, 100ll << 20);
  EXPECT_EQ(broken[1].id, GuardrailId::kPartitionTombstones);

  g.Set("partition_size_fail_threshold", "120MiB");
  const std::vector<BrokenRule> failed = BrokenPartitionRules(g, p);
  EXPECT_TRUE(failed[0].failed);
  EXPECT_EQ(failed[0].threshold, 120ll << 20);
}

TEST(LargeDataRulesTest, NamesTheRuleKeyEvidenceAndFix) {
  const TablePtr table = Readings();
  const Bytes prefix = Prefix(types::EncodeInt(42));
  EXPECT_EQ(LargePartitionMessage(*table, prefix,
                                  {GuardrailId::kPartitionSize, false, 131ull << 20, 100 << 20}),
            "Guardrail partition_size violated: Partition iot.readings (sensor=42) has size "
            "131MiB, over the warning threshold of 100MiB; bucket it by time: "
            "PRIMARY KEY ((sensor, day), ts)");
  EXPECT_EQ(LargePartitionMessage(*table, prefix,
                                  {GuardrailId::kPartitionRows, true, 1'234'567, 1'000'000}),
            "Guardrail partition_rows violated: Partition iot.readings (sensor=42) has 1,234,567 "
            "rows, over the fail threshold of 1,000,000; bucket it by time: "
            "PRIMARY KEY ((sensor, day), ts)");
}

TEST(LargeDataRulesTest, FixesFollowTheTablesShape) {
  const TablePtr by_time = Readings();
  const TablePtr composite = TableBuilder("ks", "users")
                                 .PartitionKey("country", "text")
                                 .PartitionKey("City", "text")
                                 .Clustering("id", "int")
                                 .Clustering("name", "text")
                                 .Build();
  const TablePtr single_row =
      TableBuilder("ks", "blobs").PartitionKey("k", "int").Column("v", "blob").Build();
  EXPECT_EQ(ModelFix(*by_time, GuardrailId::kPartitionTombstones),
            "bucket it by time so old data leaves whole partitions: "
            "PRIMARY KEY ((sensor, day), ts)");
  EXPECT_EQ(ModelFix(*composite, GuardrailId::kPartitionRows),
            "split it with a bucket in the partition key: "
            "PRIMARY KEY ((country, \"City\", bucket), id, name)");
  EXPECT_EQ(ModelFix(*single_row, GuardrailId::kPartitionSize),
            "keep large values out of one row: split them into chunks, one row per chunk");
  EXPECT_EQ(ModelFix(*composite, GuardrailId::kItemsPerCollection),
            "collections should be small: store the items as rows, one per clustering key");
}

TEST(LargeDataRulesTest, ShowsKeysAndClusteringsAsLiterals) {
  const TablePtr composite = TableBuilder("ks", "t")
                                 .PartitionKey("a", "int")
                                 .PartitionKey("b", "text")
                                 .Clustering("c", "text", ClusteringOrder::kDesc)
                                 .Build();
  const Bytes a = types::EncodeInt(1);
  const Bytes routing = dht::CompositeRoutingKey({a, "it's"});
  EXPECT_EQ(PartitionKeyText(*composite, routing), "a=1, b='it''s'");
  EXPECT_EQ(PartitionPrefixText(*composite, Prefix(routing)), "a=1, b='it''s'");
  Bytes clustering;
  storage::AppendClustering(MakeTableLayout(*composite), {"x"}, clustering);
  EXPECT_EQ(ClusteringText(*composite, clustering), "c='x'");
  EXPECT_EQ(ClusteringText(*composite, ""), "");
  // What does not decode is shown raw, never thrown.
  EXPECT_EQ(PartitionKeyText(*composite, "\x01"), "0x01");
  EXPECT_EQ(PartitionPrefixText(*composite, "\x01\x02"), "0x0102");
}

TEST(LargeDataRulesTest, SizesAsCassandraYamlSpellsThem) {
  EXPECT_EQ(DataSizeText(0), "0B");
  EXPECT_EQ(DataSizeText(1023), "1023B");
  EXPECT_EQ(DataSizeText(1024), "1KiB");
  EXPECT_EQ(DataSizeText(1536), "1.5KiB");
  EXPECT_EQ(DataSizeText(100ull << 20), "100MiB");
  EXPECT_EQ(DataSizeText((150ull << 20) + 15'000), "150MiB");
  EXPECT_EQ(DataSizeText((3ull << 30) / 2), "1.5GiB");
}

}  // namespace
}  // namespace sibyl::schema
