#include "tools/stress_report.h"

#include <gtest/gtest.h>

#include "tools/stress_options.h"

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

TEST(StressReportTest, OtherWorkloadsHaveNoSplit) {
  const StressOptions options = ParseStressArguments({"write"});
  StressResult result = MixedResult();
  EXPECT_EQ(FormatJsonReport(options, result).find("\"writes\""), std::string::npos);
  EXPECT_EQ(FormatTextReport(options, result).find("  writes"), std::string::npos);
}

}  // namespace
}  // namespace sibyl::tools
