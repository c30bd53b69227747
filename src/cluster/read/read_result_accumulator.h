#pragma once
// A read answered in steps — one partition, or one of the ring's ranges, at
// a time, in token order — gathered into one ReadResult with the command's
// limits counted across the steps: each step is asked only for what the
// limits still allow, and the read stops at the first step a limit stopped
// (its ReadResult::next, as the engine set it, is the read's). Rows count
// as the engine counts them: a partition returning only its static row
// counts one row.
//
// Not thread-safe: one read's steps run one after the other.

#include <cstdint>
#include <optional>

#include "storage/data/read_command.h"

namespace sibyl::cluster {

class ReadResultAccumulator {
 public:
  explicit ReadResultAccumulator(const storage::ReadCommand& command);

  // `step` (the command narrowed to one partition or range) with the limits
  // reduced by what earlier steps returned.
  [[nodiscard]] storage::ReadCommand Limit(storage::ReadCommand step) const;
  // Adds a step's answer. True when the read is complete: a limit stopped
  // the step or is met. A step that answers more than the limits left (it
  // was asked before the steps ahead of it answered) is cut where the
  // limits end, and the read's `next` set there.
  bool Add(storage::ReadResult step);
  [[nodiscard]] storage::ReadResult Take() { return std::move(result_); }

 private:
  // Where the read resumes when it stops after `partition` (the last of the
  // answer): inside it when the row limit stopped it.
  storage::ReadPosition StopAfter(const storage::ReadPartition& partition, bool row_limit) const;

  int32_t rows_left_;
  int32_t partitions_left_;
  std::optional<storage::ReadPosition> resume_;  // the command's
  storage::ReadResult result_;
};

}  // namespace sibyl::cluster
