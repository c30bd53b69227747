#include "cluster/read/read_result_accumulator.h"

#include <iterator>

namespace sibyl::cluster {

ReadResultAccumulator::ReadResultAccumulator(const storage::ReadCommand& command)
    : rows_left_(command.row_limit),
      partitions_left_(command.partition_limit),
      resume_(command.resume_after) {}

storage::ReadCommand ReadResultAccumulator::Limit(storage::ReadCommand step) const {
  step.row_limit = rows_left_;
  step.partition_limit = partitions_left_;
  return step;
}

storage::ReadPosition ReadResultAccumulator::StopAfter(const storage::ReadPartition& partition,
                                                       bool row_limit) const {
  if (partition.rows.empty()) return {partition.key, std::nullopt, true, 0};
  if (!row_limit) return {partition.key, std::nullopt, false, 0};
  // Rows of the partition returned over all pages: per_partition_limit
  // counts on from them.
  int32_t before = 0;
  if (resume_ && resume_->partition == partition.key && resume_->last_row) {
    before = resume_->rows_in_partition;
  }
  return {partition.key, partition.rows.back().clustering, false,
          before + static_cast<int32_t>(partition.rows.size())};
}

bool ReadResultAccumulator::Add(storage::ReadResult step) {
  for (size_t i = 0; i < step.partitions.size(); ++i) {
    storage::ReadPartition& partition = step.partitions[i];
    if (rows_left_ <= 0 || partitions_left_ <= 0) {
      // A step started before the steps ahead of it answered (a concurrent
      // read) returned more than the limits left: cut it here.
      step.partitions.resize(i);
      break;
    }
    const int32_t rows = partition.rows.empty() ? 1 : static_cast<int32_t>(partition.rows.size());
    if (rows > rows_left_) {
      partition.rows.resize(static_cast<size_t>(rows_left_));
      step.next = StopAfter(partition, /*row_limit=*/true);
      step.partitions.resize(i + 1);
      rows_left_ = 0;
      --partitions_left_;
      break;
    }
    rows_left_ -= rows;
    --partitions_left_;
    if (rows_left_ <= 0 || partitions_left_ <= 0) {
      step.partitions.resize(i + 1);
      break;
    }
  }
  if (!step.next && !step.partitions.empty() && (rows_left_ <= 0 || partitions_left_ <= 0)) {
    // The limits ran out at the end of a partition: the read stops after it,
    // as an engine read that met its limit there says.
    step.next = StopAfter(step.partitions.back(), rows_left_ <= 0);
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
