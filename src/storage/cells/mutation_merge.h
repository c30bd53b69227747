#pragma once
// Several Mutations of one partition as one: what a BATCH sends when its
// statements write the same partition. The merge follows the storage's own
// reconciliation (reconcile.h), so applying the merged mutation leaves
// exactly what applying each of them would, in any order: two writes of
// one cell keep the one Cassandra's Cells.reconcile keeps (at equal
// timestamps an expiring cell beats a plain one), counters merge,
// row markers and deletions keep the stronger.

#include <vector>

#include "storage/data/mutation.h"

namespace sibyl::storage {

// Adds the changes of `other` to `into`.
// REQUIRES: both are on the same table and partition.
void MergeMutation(Mutation& into, Mutation&& other);

// One mutation per partition (table and key) of `mutations`, in the order
// the partitions are first seen.
[[nodiscard]] std::vector<Mutation> MergeByPartition(std::vector<Mutation> mutations);

}  // namespace sibyl::storage
