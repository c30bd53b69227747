#include "tools/admin/partition_stats_reader.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

using types::EncodeBigint;

TEST(PartitionStatsReaderTest, PartitionStatsRowsByTableAndMeasure) {
  // Rows as the contract of system_views.partition_stats gives them.
  PartitionStats stats;
  stats.available = true;
  AddPartitionStatsRow(
      {"ks", "t", "bytes", EncodeBigint(7), EncodeBigint(61), EncodeBigint(310), EncodeBigint(372),
       EncodeBigint(1109), EncodeBigint(1331), EncodeBigint(1331), EncodeBigint(1331)},
      stats);
  AddPartitionStatsRow(
      {"ks", "t", "cells", EncodeBigint(7), EncodeBigint(1), EncodeBigint(4), EncodeBigint(5),
       EncodeBigint(10), EncodeBigint(10), EncodeBigint(10), EncodeBigint(10)},
      stats);
  const PartitionMeasure* bytes = stats.Find("ks", "t", "bytes");
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(bytes->count, 7);
  EXPECT_EQ(bytes->min, 61);
  EXPECT_EQ(bytes->p98, 1331);
  const PartitionMeasure* cells = stats.Find("ks", "t", "cells");
  ASSERT_NE(cells, nullptr);
  EXPECT_EQ(cells->p50, 4);
  EXPECT_EQ(stats.Find("ks", "t", "rows"), nullptr);
  EXPECT_EQ(stats.Find("ks", "u", "bytes"), nullptr);
  EXPECT_THROW(AddPartitionStatsRow({"ks", std::nullopt, "bytes"}, stats), AdminError);
}

}  // namespace
}  // namespace sibyl::tools::admin
