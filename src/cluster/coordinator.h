#pragma once
// The coordinator: every write and read of a stored table goes through it,
// even on a ring of one node, so that replication and consistency levels
// extend it later rather than rewrite its callers (design.md, "Later").
// Today every replica is the local engine.

#include <vector>

#include "common/clock.h"
#include "storage/engine.h"
#include "storage/mutation.h"
#include "storage/read_command.h"

namespace sibyl::cluster {

class Coordinator {
 public:
  // Both must outlive the coordinator.
  Coordinator(storage::Engine& engine, Clock& clock) : engine_(engine), clock_(clock) {}

  // Applies the mutations; all of them atomically when `atomic` (a logged
  // batch, or one partition's changes), else each on its own.
  void Mutate(const std::vector<storage::Mutation>& mutations, bool atomic);
  [[nodiscard]] storage::ReadResult Read(const storage::ReadCommand& command) const;
  void Truncate(const types::Uuid& table_id);

  storage::Engine& engine() { return engine_; }
  Clock& clock() { return clock_; }

 private:
  storage::Engine& engine_;
  Clock& clock_;
};

}  // namespace sibyl::cluster
