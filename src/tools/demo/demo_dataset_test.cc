#include "tools/demo/demo_dataset.h"

#include <gtest/gtest.h>

#include "cql/parser.h"

namespace sibyl::tools::demo {
namespace {

constexpr int64_t kNow = 1795000000000;  // 2026-11-18

// Every statement the demo sends is CQL the parser accepts.
TEST(DemoDatasetTest, EveryStatementParses) {
  for (const auto& statement : DemoSchema()) {
    EXPECT_NO_THROW(cql::ParseStatement(statement)) << statement;
  }
  const auto data = DemoData(7, kNow);
  EXPECT_GT(data.size(), 2000u);
  for (const auto& statement : data) {
    EXPECT_NO_THROW(cql::ParseStatement(statement)) << statement;
  }
  for (const auto& example : DemoExamples(kNow)) {
    EXPECT_NO_THROW(cql::ParseStatement(example.cql)) << example.cql;
    EXPECT_FALSE(example.why.empty());
  }
}

TEST(DemoDatasetTest, DeterministicForASeedAndClock) {
  EXPECT_EQ(DemoData(7, kNow), DemoData(7, kNow));
  EXPECT_NE(DemoData(7, kNow), DemoData(8, kNow));
}

TEST(DemoDatasetTest, DenormalizedCopiesShareOneLoggedBatch) {
  size_t video_batches = 0;
  for (const auto& statement : DemoData(7, kNow)) {
    if (statement.find("INSERT INTO killrvideo.videos ") == std::string::npos) continue;
    ++video_batches;
    EXPECT_EQ(statement.rfind("BEGIN BATCH", 0), 0u);
    EXPECT_NE(statement.find("killrvideo.latest_videos"), std::string::npos);
    EXPECT_NE(statement.find("killrvideo.user_videos"), std::string::npos);
    EXPECT_NE(statement.find("killrvideo.videos_by_tag"), std::string::npos);
  }
  EXPECT_EQ(video_batches, 200u);
}

TEST(DemoDatasetTest, DayBuckets) {
  EXPECT_EQ(DayBucket(0), "19700101");
  EXPECT_EQ(DayBucket(kNow), "20261118");
}

}  // namespace
}  // namespace sibyl::tools::demo
