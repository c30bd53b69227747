#pragma once
// Reconciling replicas whose answers disagree (Cassandra's DataResolver and
// the read repair it drives): every replica's unfiltered answer
// (Engine::ReadUnfiltered) merged per partition (mutation_merge.h), the
// command answered from the merge by a scratch engine holding only it —
// correct by storage's contract (read_repair_randomized_test.cc), and
// simple — and, per replica, what it lacks of the merge (RepairDiff).
//
// Counter tables too when their counters are shards (a cluster's are):
// shards merge without counting twice.
// Pure functions of their inputs: safe from any thread.

#include <vector>

#include "storage/data/mutation.h"
#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"

namespace sibyl::cluster {

struct Reconciliation {
  std::vector<storage::Mutation> merged;  // one per partition any replica answered
  storage::ReadResult result;             // `command` read from `merged`
};

// `answers[i]` is replica i's unfiltered answer to `command` (or to a
// command covering it: a scan's token range).
[[nodiscard]] Reconciliation Reconcile(const storage::TableLayout& layout,
                                       const storage::ReadCommand& command,
                                       const std::vector<std::vector<storage::Mutation>>& answers);

// The mutations (at most one per partition of `merged`, none empty) a
// replica that answered `answer` lacks. Throws std::invalid_argument as
// RepairDiff does (counter deltas).
[[nodiscard]] std::vector<storage::Mutation> RepairsFor(
    const storage::TableLayout& layout, const std::vector<storage::Mutation>& merged,
    const std::vector<storage::Mutation>& answer);

}  // namespace sibyl::cluster
