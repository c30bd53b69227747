#include "tools/stress/stress_report.h"

#include <gtest/gtest.h>

#include "tools/stress/stress_options.h"

namespace sibyl::tools {
namespace {

StressResult MixedResult() {
  StressResult result;
  result.elapsed = std::chrono::seconds(2);
  for (int i = 0; i < 3; ++i) {
    result.latency.Record(1'000'000);  // 1 ms writes
    result.writes.Record(1'000'000);
    ++result.ops;
  }
  result.latency.Record(4'000'000);  // a 4 ms read
  result.reads.Record(4'000'000);
  ++result.ops;
  return result;
}

TEST(StressReportTest, MixedReportsWritesAndReadsApart) {
  const StressOptions options = ParseStressArguments({"mixed", "--ratio", "3:1"});
  const std::string json = FormatJsonReport(options, MixedResult());
  EXPECT_NE(json.find("\"ops\": 4,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"writes\": {\"ops\": 3, \"ops_per_s\": 1.5, \"latency_ms\": {"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"reads\": {\"ops\": 1, \"ops_per_s\": 0.5, \"latency_ms\": {"),
            std::string::npos)
      << json;
  const std::string text = FormatTextReport(options, MixedResult());
  EXPECT_NE(text.find("  writes        3 ops (2 ops/s)"), std::string::npos) << text;
  EXPECT_NE(text.find("  reads         1 ops (0 ops/s)"), std::string::npos) << text;
}

TEST(StressReportTest, SaysHowRequestsWereSentAndAtWhichLevel) {
  const StressOptions one_node = ParseStressArguments({"write", "--connections", "3"});
  const std::string text = FormatTextReport(one_node, MixedResult());
  EXPECT_NE(text.find("  connections   3 x 16 in flight\n  consistency   ONE\n"), std::string::npos)
      << text;
  EXPECT_NE(FormatJsonReport(one_node, MixedResult())
                .find("\"token_aware\": false, \"consistency\": \"ONE\""),
            std::string::npos);

  const StressOptions ring = ParseStressArguments(
      {"write", "--host", "a,b", "--connections", "2", "--consistency", "quorum"});
  EXPECT_NE(FormatTextReport(ring, MixedResult())
                .find("  connections   2 to each node, token-aware; 16 in flight per worker\n"
                      "  consistency   QUORUM\n"),
            std::string::npos);
  EXPECT_NE(FormatJsonReport(ring, MixedResult())
                .find("\"token_aware\": true, \"consistency\": \"QUORUM\""),
            std::string::npos);
}

TEST(StressReportTest, OtherWorkloadsHaveNoSplit) {
  const StressOptions options = ParseStressArguments({"write"});
  StressResult result = MixedResult();
  EXPECT_EQ(FormatJsonReport(options, result).find("\"writes\""), std::string::npos);
  EXPECT_EQ(FormatTextReport(options, result).find("  writes"), std::string::npos);
}

}  // namespace
}  // namespace sibyl::tools
