#include "tools/admin/table_histograms_reader.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

using types::EncodeBigint;

TEST(TableHistogramsReaderTest, LatencyRowsByOperation) {
  TableHistogramsAnswer answer;
  AddLatencyRow({"read", EncodeBigint(3), EncodeBigint(20), EncodeBigint(35), EncodeBigint(35),
                 EncodeBigint(420), EncodeBigint(420), EncodeBigint(420), EncodeBigint(420)},
                answer);
  AddLatencyRow({"write", EncodeBigint(0), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                 std::nullopt, std::nullopt, std::nullopt},
                answer);
  ASSERT_TRUE(answer.reads.has_value());
  EXPECT_EQ(answer.reads->count, 3);
  EXPECT_EQ(answer.reads->min, 20);
  EXPECT_EQ(answer.reads->p95, 420);
  ASSERT_TRUE(answer.writes.has_value());
  EXPECT_EQ(answer.writes->count, 0);
  EXPECT_EQ(answer.writes->max, 0);
  EXPECT_THROW(AddLatencyRow({std::nullopt, EncodeBigint(1)}, answer), AdminError);
  EXPECT_THROW(AddLatencyRow({"read", Bytes("x")}, answer), AdminError);
}

}  // namespace
}  // namespace sibyl::tools::admin
