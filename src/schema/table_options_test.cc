#include "schema/table_options.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "schema/replication_params.h"

namespace sibyl::schema {
namespace {

PropertyDefinitions Options(
    std::initializer_list<std::pair<std::string, std::string>> strings,
    std::initializer_list<std::pair<std::string, PropertyDefinitions::Map>> maps = {}) {
  PropertyDefinitions p;
  for (const auto& [name, value] : strings) p.AddString(name, value);
  for (const auto& [name, value] : maps) p.AddMap(name, value);
  return p;
}

// The error `build` throws; fails the test if it does not throw.
template <typename F>
CqlError ErrorOf(F&& build) {
  try {
    build();
  } catch (const CqlError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error";
  return CqlError(ErrorCode::kServerError, "");
}

std::string TableError(PropertyDefinitions options) {
  return ErrorOf([&] { (void)BuildTableParams(options, TableParams{}, true); }).what();
}

TEST(TableOptionsTest, DefaultsAreCassandras) {
  TableParams p = BuildTableParams(PropertyDefinitions{}, TableParams{}, true);
  EXPECT_EQ(p.compaction.at("class"),
            "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy");
  EXPECT_EQ(p.bloom_filter_fp_chance, 0.01);
  EXPECT_EQ(p.speculative_retry, "99p");
}

TEST(TableOptionsTest, NumbersAreCheckedWithCassandrasMessages) {
  EXPECT_EQ(TableError(Options({{"gc_grace_seconds", "x"}})),
            "Invalid integer value x for 'gc_grace_seconds'");
  EXPECT_EQ(TableError(Options({{"bloom_filter_fp_chance", "2"}})),
            "bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to 1.0 "
            "(got 2.0)");
  EXPECT_EQ(TableError(Options({{"default_time_to_live", "-1"}})),
            "default_time_to_live must be greater than or equal to 0 (got -1)");
  EXPECT_EQ(TableError(Options({{"default_time_to_live", "630720001"}})),
            "default_time_to_live must be less than or equal to 630720000 (got 630720001)");
  EXPECT_EQ(TableError(Options({{"min_index_interval", "0"}})),
            "min_index_interval must be greater than or equal to 1 (got 0)");
  EXPECT_EQ(TableError(Options({{"max_index_interval", "64"}})),
            "max_index_interval must be greater than or equal to min_index_interval (128) (got "
            "64)");
  EXPECT_EQ(TableError(Options({{"crc_check_chance", "1.5"}})),
            "crc_check_chance must be larger than or equal to 0 and smaller than or equal to 1.0 "
            "(got 1.5)");
  TableParams valid = BuildTableParams(
      Options({{"comment", "x"}}, {{"caching", {{"keys", "ALL"}}}}), TableParams{}, true);
  EXPECT_EQ(valid.comment, "x");
}

TEST(TableOptionsTest, CompactionIsResolvedAndChecked) {
  OptionMap twcs = BuildCompaction({{"class", "TimeWindowCompactionStrategy"},
                                    {"compaction_window_unit", "DAYS"},
                                    {"compaction_window_size", "1"}});
  EXPECT_EQ(twcs.at("class"), "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy");
  EXPECT_EQ(twcs.at("min_threshold"), "4");
  EXPECT_EQ(ErrorOf([] {
              (void)BuildCompaction({{"min_threshold", "2"}});
            }).what(),
            std::string("Missing sub-option 'class' for the 'compaction' option"));
  EXPECT_EQ(ErrorOf([] {
              (void)BuildCompaction({{"class", "Foo"}});
            }).what(),
            std::string("Unable to find compaction strategy class "
                        "'org.apache.cassandra.db.compaction.Foo'"));
  EXPECT_EQ(ErrorOf([] {
              (void)BuildCompaction({{"class", "SizeTieredCompactionStrategy"}, {"foo", "1"}});
            }).what(),
            std::string("Properties specified [foo] are not understood by "
                        "SizeTieredCompactionStrategy"));
  EXPECT_EQ(
      ErrorOf([] {
        (void)BuildCompaction({{"class", "SizeTieredCompactionStrategy"}, {"min_threshold", "1"}});
      }).what(),
      std::string("Min compaction threshold cannot be less than 2 (got 1)"));
  EXPECT_EQ(ErrorOf([] {
              (void)BuildCompaction(
                  {{"class", "LeveledCompactionStrategy"}, {"sstable_size_in_mb", "0"}});
            }).what(),
            std::string("sstable_size_in_mb must be larger than 0, but was 0"));
  EXPECT_EQ(ErrorOf([] {
              (void)BuildCompaction(
                  {{"class", "TimeWindowCompactionStrategy"}, {"compaction_window_unit", "WEEKS"}});
            }).what(),
            std::string("WEEKS is not valid for compaction_window_unit"));
}

TEST(TableOptionsTest, CompressionCachingAndRetryPolicies) {
  std::optional<double> crc;
  EXPECT_EQ(BuildCompression({{"class", "ZstdCompressor"}, {"compression_level", "3"}}, crc),
            (OptionMap{{"chunk_length_in_kb", "16"},
                       {"class", "org.apache.cassandra.io.compress.ZstdCompressor"},
                       {"compression_level", "3"}}));
  EXPECT_EQ(BuildCompression({{"enabled", "false"}}, crc), (OptionMap{{"enabled", "false"}}));
  EXPECT_EQ(
      ErrorOf([&] {
        (void)BuildCompression({{"class", "LZ4Compressor"}, {"chunk_length_in_kb", "3"}}, crc);
      }).what(),
      std::string("chunk_length_in_kb must be a power of 2"));
  EXPECT_EQ(ErrorOf([&] {
              (void)BuildCompression({{"chunk_length_in_kb", "16"}}, crc);
            }).what(),
            std::string("Missing sub-option 'class' for the 'compression' option."));
  EXPECT_EQ(ErrorOf([&] {
              (void)BuildCompression({{"class", "BadCompressor"}}, crc);
            }).what(),
            std::string("Could not create Compression for type "
                        "org.apache.cassandra.io.compress.BadCompressor"));

  EXPECT_EQ(BuildCaching({{"rows_per_partition", "ALL"}}),
            (OptionMap{{"keys", "NONE"}, {"rows_per_partition", "ALL"}}));
  EXPECT_EQ(ErrorOf([] {
              (void)BuildCaching({{"foo", "1"}});
            }).what(),
            std::string("Invalid caching sub-options [foo]: only 'keys' and "
                        "'rows_per_partition' are allowed"));

  EXPECT_EQ(NormalizeSpeculativeRetry("99PERCENTILE"), "99p");
  EXPECT_EQ(NormalizeSpeculativeRetry("99.5p"), "99.5p");
  EXPECT_EQ(NormalizeSpeculativeRetry("50MS"), "50ms");
  EXPECT_EQ(NormalizeSpeculativeRetry("always"), "ALWAYS");
  EXPECT_EQ(NormalizeSpeculativeRetry("none"), "NONE");
  EXPECT_EQ(NormalizeSpeculativeRetry("min(99p, 10ms)"), "MIN(99p,10ms)");
  EXPECT_EQ(ErrorOf([] { (void)NormalizeSpeculativeRetry("sometimes"); }).what(),
            std::string("Invalid value sometimes for option 'speculative_retry'"));
  EXPECT_EQ(ErrorOf([] { (void)NormalizeSpeculativeRetry("100p"); }).what(),
            std::string("Invalid value 100p for PERCENTILE option 'speculative_retry': must be "
                        "between (0.0 and 100.0)"));
}

TEST(ReplicationParamsTest, AlterKeepsWhatTheNewOptionsLeaveOut) {
  ReplicationContext context;
  context.datacenters = {"dc1", "dc2"};
  ReplicationMap nts =
      PrepareReplication({{"class", "NetworkTopologyStrategy"}, {"dc1", "2"}}, {}, context);
  EXPECT_EQ(nts, (ReplicationMap{{"class", kNetworkTopologyStrategy}, {"dc1", "2"}}));
  // replication_factor expands to every datacenter the keyspace does not name yet.
  ReplicationMap expanded = PrepareReplication(
      {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "3"}}, nts, context);
  EXPECT_EQ(expanded,
            (ReplicationMap{{"class", kNetworkTopologyStrategy}, {"dc1", "2"}, {"dc2", "3"}}));
  // NTS → SimpleStrategy without a factor takes the default.
  ReplicationMap simple = PrepareReplication({{"class", "SimpleStrategy"}}, nts, context);
  EXPECT_EQ(simple.at("replication_factor"), "1");
  // Datacenters at 0 are left out; none left is refused.
  ReplicationMap zero =
      PrepareReplication({{"class", "NetworkTopologyStrategy"}, {"dc1", "0"}}, {}, context);
  EXPECT_EQ(ErrorOf([&] { ValidateReplication("ks", zero, context); }).what(),
            std::string("Configuration for at least one datacenter must be present"));
}

TEST(ReplicationParamsTest, WarnsWhenTheFactorExceedsTheNodes) {
  ReplicationContext context;
  context.datacenters = {"dc1", "dc2"};
  context.node_counts = {{"dc1", 1}, {"dc2", 3}};
  const ReplicationMap simple =
      PrepareReplication({{"class", "SimpleStrategy"}, {"replication_factor", "4"}}, {}, context);
  EXPECT_TRUE(ReplicationWarnings("ks", simple, context).empty());  // 4 nodes in all
  const ReplicationMap five =
      PrepareReplication({{"class", "SimpleStrategy"}, {"replication_factor", "5"}}, {}, context);
  EXPECT_EQ(ReplicationWarnings("ks", five, context),
            std::vector<std::string>{
                "Your replication factor 5 for keyspace ks is higher than the number of nodes 4"});
  const ReplicationMap nts = PrepareReplication(
      {{"class", "NetworkTopologyStrategy"}, {"dc1", "2"}, {"dc2", "3"}}, {}, context);
  EXPECT_EQ(ReplicationWarnings("ks", nts, context),
            std::vector<std::string>{"Your replication factor 2 for keyspace ks is higher than "
                                     "the number of nodes 1 for datacenter dc1"});
  // System keyspaces are never warned about.
  EXPECT_TRUE(ReplicationWarnings("system_auth", nts, context).empty());
}

}  // namespace
}  // namespace sibyl::schema
