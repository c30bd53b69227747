#include "guardrails/guardrails.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "protocol/request.h"

namespace sibyl::guardrails {
namespace {

using Warnings = std::vector<std::string>;

// The message of the CqlError `f` throws; fails the test if it throws none.
template <typename F>
std::string InvalidMessage(F&& f) {
  try {
    f();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    return e.what();
  }
  ADD_FAILURE() << "no CqlError thrown";
  return {};
}

template <typename F>
std::string ConfigMessage(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return {};
}

TEST(GuardrailCatalogTest, EveryGuardrailSitsAtItsIdAndHasUniqueKeys) {
  std::set<std::string> names;
  std::set<std::string> keys;
  size_t index = 0;
  for (const GuardrailDefinition& d : AllGuardrails()) {
    EXPECT_EQ(static_cast<size_t>(d.id), index++) << d.name;
    EXPECT_TRUE(names.insert(std::string(d.name)).second) << d.name;
    EXPECT_FALSE(d.enforced.empty()) << d.name;
    if (d.kind == GuardrailKind::kMaxThreshold || d.kind == GuardrailKind::kMinThreshold) {
      if (d.id != GuardrailId::kReplicaDiskUsage) {
        EXPECT_NE(d.message, nullptr) << d.name;
      }
    }
  }
  EXPECT_EQ(index, kGuardrailCount);
}

TEST(GuardrailCatalogTest, KeysFollowCassandraYaml) {
  const auto key = [](std::string_view k) { return FindGuardrailKey(k); };
  ASSERT_TRUE(key("page_size_warn_threshold"));
  EXPECT_EQ(key("page_size_fail_threshold")->field, GuardrailField::kFailThreshold);
  EXPECT_EQ(key("allow_filtering_enabled")->id, GuardrailId::kAllowFiltering);
  EXPECT_EQ(key("allow_filtering_warned")->field, GuardrailField::kWarnedFlag);
  EXPECT_EQ(key("secondary_indexes_enabled")->id, GuardrailId::kSecondaryIndexes);
  EXPECT_EQ(key("compact_tables_enabled")->id, GuardrailId::kCompactTables);
  EXPECT_EQ(key("drop_truncate_table_enabled")->id, GuardrailId::kDropTruncateTable);
  EXPECT_EQ(key("simplestrategy_enabled")->id, GuardrailId::kSimpleStrategy);
  EXPECT_EQ(key("zero_ttl_on_twcs_warned")->field, GuardrailField::kWarnedFlag);
  EXPECT_EQ(key("read_consistency_levels_disallowed")->field, GuardrailField::kDisallowedValues);
  EXPECT_EQ(key("table_properties_ignored")->field, GuardrailField::kIgnoredValues);
  EXPECT_FALSE(key("read_consistency_levels_ignored"));
  EXPECT_EQ(key("data_disk_usage_percentage_warn_threshold")->id, GuardrailId::kLocalDataDiskUsage);
  EXPECT_EQ(key("data_disk_usage_max_disk_size")->field, GuardrailField::kMaxDiskSize);
  EXPECT_EQ(key("partition_rows_warn_threshold")->id, GuardrailId::kPartitionRows);
  EXPECT_EQ(key("compaction_large_partition_warning_threshold")->id, GuardrailId::kPartitionSize);
  EXPECT_EQ(key("table_count_warn_threshold")->id, GuardrailId::kTables);
  EXPECT_FALSE(key("non_partition_restricted_index_query_enabled_enabled"));
  EXPECT_FALSE(key("tombstone_warn_threshold"));  // not a guardrail
}

TEST(GuardrailsTest, SibylDefaultsAreTheGuidesNumbersInWarnMode) {
  Guardrails g;
  EXPECT_EQ(g.WarnThreshold(GuardrailId::kPartitionSize), 100 * 1024 * 1024);
  EXPECT_EQ(g.FailThreshold(GuardrailId::kPartitionSize), kDisabled);
  EXPECT_EQ(g.WarnThreshold(GuardrailId::kPartitionRows), 100000);
  EXPECT_EQ(g.WarnThreshold(GuardrailId::kPartitionTombstones), 10000);
  EXPECT_EQ(g.WarnThreshold(GuardrailId::kItemsPerCollection), 1000);
  EXPECT_FALSE(g.Active(GuardrailId::kPageSize));
  EXPECT_TRUE(g.Enabled(GuardrailId::kAllowFiltering));
  EXPECT_EQ(g.Get("partition_size_warn_threshold"), "100MiB");
  EXPECT_EQ(g.Get("partition_size_fail_threshold"), std::nullopt);
  EXPECT_EQ(g.Get("page_size_warn_threshold"), "-1");
  EXPECT_EQ(g.Get("allow_filtering_warned"), "true");
  EXPECT_EQ(g.Get("read_consistency_levels_disallowed"), "[]");

  Warnings warnings;
  g.EnsureEnabled(GuardrailId::kAllowFiltering, &warnings);
  EXPECT_EQ(warnings, Warnings{"Guardrail allow_filtering violated: Querying with ALLOW FILTERING "
                               "is not recommended. ALLOW FILTERING can potentially visit all the "
                               "data in the table and have unpredictable performance."});
}

TEST(GuardrailsTest, ThresholdsFailBeforeTheyWarn) {
  Guardrails g;
  g.Apply({{"page_size_warn_threshold", "100"}, {"page_size_fail_threshold", "1000"}});
  Warnings warnings;
  g.Guard(GuardrailId::kPageSize, 100, "t", &warnings);
  EXPECT_TRUE(warnings.empty());
  g.Guard(GuardrailId::kPageSize, 101, "t", &warnings);
  EXPECT_EQ(warnings, Warnings{"Guardrail page_size violated: Query for table t with page size "
                               "101 exceeds warning threshold of 100."});
  warnings.clear();
  EXPECT_EQ(InvalidMessage([&] { g.Guard(GuardrailId::kPageSize, 5000, "t", &warnings); }),
            "Guardrail page_size violated: Aborting query for table t, page size 5000 exceeds "
            "fail threshold of 1000.");
  // The failure's text goes with the error as a warning, and no warning besides.
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("Guardrail page_size violated: Aborting", 0), 0u);
}

TEST(GuardrailsTest, MessagesOfOtherThresholds) {
  Guardrails g;
  g.Apply({{"keyspaces_fail_threshold", "4"},
           {"tables_warn_threshold", "150"},
           {"columns_per_table_fail_threshold", "10"},
           {"collection_size_warn_threshold", "64KiB"},
           {"minimum_replication_factor_warn_threshold", "2"},
           {"partition_size_fail_threshold", "200MiB"}});
  Warnings warnings;
  EXPECT_EQ(InvalidMessage([&] { g.Guard(GuardrailId::kKeyspaces, 5, "ks5", &warnings); }),
            "Guardrail keyspaces violated: Cannot have more than 4 keyspaces, aborting the "
            "creation of keyspace ks5");
  EXPECT_EQ(InvalidMessage([&] { g.Guard(GuardrailId::kColumnsPerTable, 11, "t", nullptr); }),
            "Guardrail columns_per_table violated: Tables cannot have more than 10 columns, but 11 "
            "provided for table t");
  warnings.clear();
  g.Guard(GuardrailId::kTables, 151, "t151", &warnings);
  g.Guard(GuardrailId::kCollectionSize, 70000, "m", &warnings);
  g.Guard(GuardrailId::kMinimumReplicationFactor, 1, "ks", &warnings);
  g.Guard(GuardrailId::kMinimumReplicationFactor, 2, "ks", &warnings);  // not below
  EXPECT_EQ(warnings,
            (Warnings{"Guardrail tables violated: Creating table t151, current number of tables "
                      "151 exceeds warning threshold of 150.",
                      "Guardrail collection_size violated: Detected collection m of size 70000, "
                      "this exceeds the warning threshold of 65536.",
                      "Guardrail minimum_replication_factor violated: The keyspace ks has a "
                      "replication factor of 1, below the warning threshold of 2."}));
  // A 5.0 guardrail's reason follows its message.
  EXPECT_EQ(InvalidMessage([&] {
              g.Guard(GuardrailId::kPartitionSize, 300 * 1024 * 1024, "ks.t:42", nullptr);
            }),
            "Guardrail partition_size violated: Partition ks.t:42 has size 314572800, this "
            "exceeds the failure threshold of 209715200. Too large partitions can cause "
            "performance problems.");
}

TEST(GuardrailsTest, FlagsRefuseOrWarn) {
  Guardrails g;
  g.Set("drop_truncate_table_enabled", "false");
  EXPECT_EQ(InvalidMessage([&] { g.EnsureEnabled(GuardrailId::kDropTruncateTable, nullptr); }),
            "Guardrail drop_truncate_table_enabled violated: DROP and TRUNCATE TABLE "
            "functionality is not allowed");
  g.Set("secondary_indexes_enabled", "false");
  EXPECT_EQ(InvalidMessage([&] {
              g.EnsureEnabled(GuardrailId::kSecondaryIndexes, nullptr,
                              "Creating secondary indexes");
            }),
            "Guardrail secondary_indexes violated: Creating secondary indexes is not allowed");
  g.Set("allow_filtering_warned", "false");
  Warnings warnings;
  g.EnsureEnabled(GuardrailId::kAllowFiltering, &warnings);
  EXPECT_TRUE(warnings.empty());
  g.Set("allow_filtering_enabled", "false");
  EXPECT_EQ(InvalidMessage([&] { g.EnsureEnabled(GuardrailId::kAllowFiltering, nullptr); }),
            "Guardrail allow_filtering violated: Querying with ALLOW FILTERING is not allowed. "
            "ALLOW FILTERING can potentially visit all the data in the table and have "
            "unpredictable performance.");
}

TEST(GuardrailsTest, ConsistencyLevels) {
  Guardrails g;
  g.Apply({{"write_consistency_levels_disallowed", "[ANY, ALL]"},
           {"read_consistency_levels_warned", "ONE, local_one"}});
  EXPECT_EQ(g.Get("write_consistency_levels_disallowed"), "[ANY, ALL]");
  EXPECT_EQ(g.Get("read_consistency_levels_warned"), "[ONE, LOCAL_ONE]");
  const auto code = [](protocol::Consistency c) { return static_cast<uint16_t>(c); };
  const std::vector<uint16_t> any_serial{code(protocol::Consistency::kAny),
                                         code(protocol::Consistency::kSerial)};
  EXPECT_EQ(InvalidMessage([&] {
              g.GuardConsistencyLevels(GuardrailId::kWriteConsistencyLevels, any_serial, nullptr);
            }),
            "Guardrail write_consistency_levels violated: Provided values [ANY] are not allowed "
            "for write consistency levels (disallowed values are: [ANY, ALL])");
  Warnings warnings;
  const std::vector<uint16_t> one{code(protocol::Consistency::kOne)};
  g.GuardConsistencyLevels(GuardrailId::kReadConsistencyLevels, one, &warnings);
  g.GuardConsistencyLevels(GuardrailId::kWriteConsistencyLevels, one, &warnings);
  EXPECT_EQ(warnings, Warnings{"Guardrail read_consistency_levels violated: Provided values [ONE] "
                               "are not recommended for read consistency levels (warned values "
                               "are: [ONE, LOCAL_ONE])"});
}

TEST(GuardrailsTest, TableProperties) {
  Guardrails g;
  g.Apply({{"table_properties_disallowed", "[gc_grace_seconds]"},
           {"table_properties_ignored", "Comment"},
           {"table_properties_warned", "caching"}});
  EXPECT_EQ(InvalidMessage([&] {
              (void)g.GuardTableProperties({"comment", "gc_grace_seconds"}, nullptr);
            }),
            "Guardrail table_properties violated: Provided values [gc_grace_seconds] are not "
            "allowed for Table Properties (disallowed values are: [gc_grace_seconds])");
  Warnings warnings;
  EXPECT_EQ(g.GuardTableProperties({"caching", "comment"}, &warnings),
            std::set<std::string>{"comment"});
  EXPECT_EQ(warnings,
            (Warnings{"Guardrail table_properties violated: Ignoring provided values [comment] as "
                      "they are not supported for Table Properties (ignored values are: [comment])",
                      "Guardrail table_properties violated: Provided values [caching] are not "
                      "recommended for Table Properties (warned values are: [caching])"}));
}

TEST(GuardrailsTest, BadValuesAreRefusedWithCassandrasMessages) {
  Guardrails g;
  EXPECT_EQ(ConfigMessage([&] { g.Set("page_size_warn_threshold", "0"); }),
            "Invalid value for page_size_warn_threshold: 0 is not allowed; if attempting to "
            "disable use -1");
  EXPECT_EQ(ConfigMessage([&] { g.Set("page_size_warn_threshold", "-5"); }),
            "Invalid value -5 for page_size_warn_threshold: negative values are not allowed, "
            "outside of -1 which disables the guardrail");
  EXPECT_EQ(ConfigMessage([&] { g.Set("page_size_warn_threshold", "3000000000"); }),
            "Invalid value 3000000000 for page_size_warn_threshold: maximum allowed value is "
            "2147483647");
  EXPECT_EQ(ConfigMessage([&] { g.Set("collection_size_warn_threshold", "0B"); }),
            "Invalid value for collection_size_warn_threshold: 0 is not allowed; if attempting "
            "to disable use an empty value");
  EXPECT_EQ(ConfigMessage([&] { g.Set("items_per_collection_fail_threshold", "10"); }),
            "The warn threshold 1000 for items_per_collection_warn_threshold should be lower "
            "than the fail threshold 10");
  EXPECT_EQ(ConfigMessage([&] {
              g.Apply({{"minimum_replication_factor_warn_threshold", "1"},
                       {"minimum_replication_factor_fail_threshold", "2"}});
            }),
            "The warn threshold 1 for minimum_replication_factor_warn_threshold should be "
            "greater than the fail threshold 2");
  EXPECT_EQ(ConfigMessage([&] { g.Set("data_disk_usage_percentage_warn_threshold", "101"); }),
            "Invalid value 101 for data_disk_usage_percentage_warn_threshold: maximum allowed "
            "value is 100");
  EXPECT_EQ(ConfigMessage([&] { g.Set("table_properties_warned", "colour"); }),
            "Invalid value for table_properties_warned: 'colour' do not parse as valid table "
            "properties");
  EXPECT_NE(ConfigMessage([&] { g.Set("read_consistency_levels_warned", "SOME"); }).find("SOME"),
            std::string::npos);
  EXPECT_NE(ConfigMessage([&] { g.Set("allow_filtering_enabled", "maybe"); }).find("maybe"),
            std::string::npos);
  // Nothing of a refused Apply is kept.
  EXPECT_EQ(g.Get("page_size_warn_threshold"), "-1");
  EXPECT_EQ(g.Get("items_per_collection_fail_threshold"), "-1");
  // Both thresholds moved together pass where one at a time would not.
  g.Apply({{"items_per_collection_fail_threshold", "20"},
           {"items_per_collection_warn_threshold", "10"}});
  EXPECT_EQ(g.WarnThreshold(GuardrailId::kItemsPerCollection), 10);
}

TEST(GuardrailsTest, SizesAndDurationsDisableWhenEmpty) {
  Guardrails g;
  g.Set("partition_size_warn_threshold", "");
  EXPECT_FALSE(g.Active(GuardrailId::kPartitionSize));
  EXPECT_EQ(g.Get("partition_size_warn_threshold"), std::nullopt);
  g.Set("maximum_timestamp_fail_threshold", "12h");
  EXPECT_EQ(g.FailThreshold(GuardrailId::kMaximumTimestamp), 12ll * 3600 * 1000 * 1000);
  g.Set("maximum_timestamp_fail_threshold", "null");
  EXPECT_FALSE(g.Active(GuardrailId::kMaximumTimestamp));
}

TEST(GuardrailsTest, EverySettingIsListedOnce) {
  Guardrails g;
  const auto settings = g.AllSettings();
  std::set<std::string> keys;
  for (const auto& [key, value] : settings) {
    EXPECT_TRUE(keys.insert(key).second) << key;
    EXPECT_TRUE(FindGuardrailKey(key)) << key;
  }
  EXPECT_TRUE(keys.count("sai_string_term_size_warn_threshold"));
  EXPECT_TRUE(keys.count("data_disk_usage_max_disk_size"));
  EXPECT_FALSE(keys.count("table_count_warn_threshold"));  // an older name, not listed
}

}  // namespace
}  // namespace sibyl::guardrails
