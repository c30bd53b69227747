#include "cluster/read/read_result_accumulator.h"

#include <iterator>

namespace sibyl::cluster {

ReadResultAccumulator::ReadResultAccumulator(const storage::ReadCommand& command)
    : rows_left_(command.row_limit), partitions_left_(command.partition_limit) {}

storage::ReadCommand ReadResultAccumulator::Limit(storage::ReadCommand step) const {
  step.row_limit = rows_left_;
  step.partition_limit = partitions_left_;
  return step;
}

bool ReadResultAccumulator::Add(storage::ReadResult step) {
  for (const storage::ReadPartition& partition : step.partitions) {
    rows_left_ -= partition.rows.empty() ? 1 : static_cast<int32_t>(partition.rows.size());
    --partitions_left_;
  }
  result_.partitions.insert(result_.partitions.end(),
                            std::make_move_iterator(step.partitions.begin()),
                            std::make_move_iterator(step.partitions.end()));
  result_.tombstones_scanned += step.tombstones_scanned;
  if (step.next) {
    result_.next = std::move(step.next);
    return true;
  }
  return rows_left_ <= 0 || partitions_left_ <= 0;
}

}  // namespace sibyl::cluster
