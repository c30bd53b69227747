#include "guardrails/model_warnings.h"

#include <gtest/gtest.h>

namespace sibyl::guardrails {
namespace {

TEST(ModelWarningsTest, NamesTheRuleOfEveryWarningKind) {
  EXPECT_EQ(ModelWarnings::RuleOf("Guardrail allow_filtering violated: Querying with ALLOW "
                                  "FILTERING is not recommended."),
            "allow_filtering");
  EXPECT_EQ(ModelWarnings::RuleOf("Guardrail partition_size violated: Partition ks.t (k=1) has "
                                  "size 131MiB, over the warning threshold of 100MiB; ..."),
            "partition_size");
  EXPECT_EQ(ModelWarnings::RuleOf("1 nodes scanned up to 1001 tombstones and issued tombstone "
                                  "warnings for query SELECT * FROM ks.t  (see "
                                  "tombstone_warn_threshold)"),
            "tombstone_warn_threshold");
  EXPECT_EQ(ModelWarnings::RuleOf("1 nodes scanned over 100001 tombstones and aborted the query "
                                  "SELECT * FROM ks.t (see tombstone_failure_threshold)"),
            "tombstone_failure_threshold");
  EXPECT_EQ(ModelWarnings::RuleOf("Unlogged batch covering 11 partitions detected against table "
                                  "[ks.t]. You should use a logged batch for atomicity, or "
                                  "asynchronous writes for performance."),
            "unlogged_batch_across_partitions_warn_threshold");
  EXPECT_EQ(ModelWarnings::RuleOf("Batch for [ks.t] is of size 6000, exceeding specified "
                                  "threshold of 5120 by 880."),
            "batch_size_warn_threshold");
  EXPECT_EQ(ModelWarnings::RuleOf("Aggregation query used without partition key"),
            "aggregation_without_partition_key");
  EXPECT_EQ(ModelWarnings::RuleOf("Tracing is not supported by Sibyl yet: this request was "
                                  "executed without a trace"),
            std::nullopt);
  EXPECT_EQ(ModelWarnings::RuleOf("Guardrail without the word"), std::nullopt);
}

TEST(ModelWarningsTest, CountsPerRuleAndTableKeepingTheLastExample) {
  ModelWarnings warnings;
  const std::string filtering = "Guardrail allow_filtering violated: not recommended";
  warnings.RecordWarnings({filtering}, "ks", "t", "SELECT * FROM t WHERE v = 1 ALLOW FILTERING",
                          1000);
  warnings.RecordWarnings({filtering, "Tracing is not supported"}, "ks", "t",
                          "SELECT * FROM t WHERE v = 2 ALLOW FILTERING", 2000);
  warnings.RecordWarnings({filtering}, "ks", "u", "SELECT * FROM u WHERE v = 3 ALLOW FILTERING",
                          3000);
  const std::vector<ModelWarning> entries = warnings.Entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].rule, "allow_filtering");
  EXPECT_EQ(entries[0].table, "t");
  EXPECT_EQ(entries[0].count, 2u);
  EXPECT_EQ(entries[0].example, "SELECT * FROM t WHERE v = 2 ALLOW FILTERING");
  EXPECT_EQ(entries[0].last_message, filtering);
  EXPECT_EQ(entries[0].first_seen_millis, 1000);
  EXPECT_EQ(entries[0].last_seen_millis, 2000);
  EXPECT_EQ(entries[1].table, "u");
  EXPECT_EQ(entries[1].count, 1u);
}

TEST(ModelWarningsTest, CutsLongExamples) {
  ModelWarnings warnings;
  warnings.RecordWarnings({"Guardrail page_size violated: x"}, "ks", "t", std::string(5000, 'x'),
                          1);
  EXPECT_EQ(warnings.Entries().at(0).example.size(), ModelWarnings::kMaxExampleLength);
}

}  // namespace
}  // namespace sibyl::guardrails
