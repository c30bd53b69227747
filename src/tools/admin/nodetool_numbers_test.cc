#include "tools/admin/nodetool_numbers.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

TEST(NodetoolNumbersTest, FileSizesTakeTheLargestUnitAndTwoDecimalsAtMost) {
  EXPECT_EQ(FormatFileSize(0), "0 bytes");
  EXPECT_EQ(FormatFileSize(512), "512 bytes");
  EXPECT_EQ(FormatFileSize(1023), "1023 bytes");
  EXPECT_EQ(FormatFileSize(1024), "1 KiB");
  EXPECT_EQ(FormatFileSize(1536), "1.5 KiB");
  EXPECT_EQ(FormatFileSize(72212), "70.52 KiB");
  EXPECT_EQ(FormatFileSize(5 * 1024 * 1024 + 10), "5 MiB");
  EXPECT_EQ(FormatFileSize(3328599654), "3.1 GiB");
  EXPECT_EQ(FormatFileSize(int64_t{2} << 40), "2 TiB");
}

TEST(NodetoolNumbersTest, PercentagesKeepTheirDecimals) {
  EXPECT_EQ(FormatPercent(1.0, 1), "100.0%");
  EXPECT_EQ(FormatPercent(1.0 / 3, 1), "33.3%");
  EXPECT_EQ(FormatPercent(1.0 / 3, 2), "33.33%");
  EXPECT_EQ(FormatPercent(0.0, 2), "0.00%");
  EXPECT_EQ(FormatPercent(0.6667, 1), "66.7%");
  // Half to even, as DecimalFormat: 0.125 → 12.5 exactly at one decimal is kept;
  // 0.00125 (0.125%) rounds to 0.12% at two decimals.
  EXPECT_EQ(FormatPercent(0.125, 1), "12.5%");
  EXPECT_EQ(FormatPercent(0.00125, 2), "0.12%");
}

}  // namespace
}  // namespace sibyl::tools::admin
