// The accumulator cuts a step that answered more than the limits left (a
// concurrent index read asks steps before those ahead of them answered)
// exactly where one read with those limits would have stopped.

#include "cluster/read/read_result_accumulator.h"

#include <gtest/gtest.h>

#include "types/value_codec.h"

namespace sibyl::cluster {
namespace {

using storage::ReadPartition;
using storage::ReadResult;
using storage::ReadRow;

ReadPartition Partition(int32_t k, int rows) {
  ReadPartition p;
  p.key = {k, types::EncodeInt(k)};
  for (int c = 0; c < rows; ++c) p.rows.push_back(ReadRow{{types::EncodeInt(c)}, {}, {}});
  return p;
}

ReadResult Step(std::vector<ReadPartition> partitions) {
  ReadResult r;
  r.partitions = std::move(partitions);
  return r;
}

TEST(ReadResultAccumulatorTest, AStepBeyondTheRowLimitIsCutInsideAPartition) {
  storage::ReadCommand command;
  command.row_limit = 4;
  ReadResultAccumulator accumulator(command);
  EXPECT_FALSE(accumulator.Add(Step({Partition(1, 2)})));
  EXPECT_TRUE(accumulator.Add(Step({Partition(2, 3), Partition(3, 1)})));
  const ReadResult result = accumulator.Take();
  ASSERT_EQ(result.partitions.size(), 2u);
  EXPECT_EQ(result.partitions[1].rows.size(), 2u);
  ASSERT_TRUE(result.next);
  EXPECT_EQ(result.next->partition.token, 2);
  ASSERT_TRUE(result.next->last_row);
  EXPECT_EQ(*result.next->last_row, storage::Clustering{types::EncodeInt(1)});
  EXPECT_EQ(result.next->rows_in_partition, 2);
}

TEST(ReadResultAccumulatorTest, LimitsMetAtAPartitionsEndStopAfterIt) {
  storage::ReadCommand command;
  command.row_limit = 3;
  ReadResultAccumulator accumulator(command);
  EXPECT_TRUE(accumulator.Add(Step({Partition(1, 3), Partition(2, 1)})));
  ReadResult result = accumulator.Take();
  ASSERT_EQ(result.partitions.size(), 1u);
  ASSERT_TRUE(result.next);
  EXPECT_EQ(result.next->partition.token, 1);
  EXPECT_EQ(result.next->rows_in_partition, 3);

  command.row_limit = 100;
  command.partition_limit = 2;
  ReadResultAccumulator partitions(command);
  EXPECT_TRUE(partitions.Add(Step({Partition(1, 1), Partition(2, 0), Partition(3, 1)})));
  result = partitions.Take();
  ASSERT_EQ(result.partitions.size(), 2u);
  ASSERT_TRUE(result.next);
  EXPECT_EQ(result.next->partition.token, 2);
  EXPECT_FALSE(result.next->last_row);
  EXPECT_TRUE(result.next->last_was_static);  // counted through its static row
}

TEST(ReadResultAccumulatorTest, RowsOfTheResumePartitionCountOnFromItsPosition) {
  storage::ReadCommand command;
  command.row_limit = 2;
  command.resume_after = storage::ReadPosition{
      {1, types::EncodeInt(1)}, storage::Clustering{types::EncodeInt(0)}, false, 5};
  ReadResultAccumulator accumulator(command);
  EXPECT_TRUE(accumulator.Add(Step({Partition(1, 3)})));
  const ReadResult result = accumulator.Take();
  ASSERT_TRUE(result.next);
  EXPECT_EQ(result.next->rows_in_partition, 7);
}

}  // namespace
}  // namespace sibyl::cluster
