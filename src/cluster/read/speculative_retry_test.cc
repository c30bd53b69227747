#include "cluster/read/speculative_retry.h"

#include <gtest/gtest.h>

namespace sibyl::cluster {
namespace {

using std::chrono::milliseconds;

TEST(SpeculativeRetryTest, ParsesCassandrasForms) {
  const milliseconds timeout(5000);
  EXPECT_EQ(ParseSpeculativeRetry("NEVER", timeout).kind, SpeculativeRetry::Kind::kNever);
  EXPECT_EQ(ParseSpeculativeRetry("none", timeout).kind, SpeculativeRetry::Kind::kNever);
  EXPECT_EQ(ParseSpeculativeRetry("ALWAYS", timeout).kind, SpeculativeRetry::Kind::kAlways);
  const SpeculativeRetry fixed = ParseSpeculativeRetry("50ms", timeout);
  EXPECT_EQ(fixed.kind, SpeculativeRetry::Kind::kAfter);
  EXPECT_EQ(fixed.after, milliseconds(50));
  EXPECT_EQ(ParseSpeculativeRetry("12.5MS", timeout).after, milliseconds(12));
  for (const char* estimated : {"99p", "95PERCENTILE", "MIN(99p,50ms)", "max(90p,10ms)"}) {
    const SpeculativeRetry retry = ParseSpeculativeRetry(estimated, timeout);
    EXPECT_EQ(retry.kind, SpeculativeRetry::Kind::kAfter) << estimated;
    EXPECT_EQ(retry.after, milliseconds(2500)) << estimated;
  }
  EXPECT_EQ(ParseSpeculativeRetry("xms", timeout).kind, SpeculativeRetry::Kind::kNever);
}

}  // namespace
}  // namespace sibyl::cluster
