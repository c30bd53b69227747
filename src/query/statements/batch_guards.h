#pragma once
// The checks Cassandra 4.1 runs on a batch's merged mutations before
// applying them, with its messages, log lines and client warnings:
//   - a batch over several partitions larger than batch_size_fail_threshold
//     is refused ("Batch too large"); over batch_size_warn_threshold, a warning;
//   - an unlogged batch over more partitions than
//     unlogged_batch_across_partitions_warn_threshold, a warning;
//   - a logged batch on a table with gc_grace_seconds = 0, a warning.

#include <cstdint>
#include <vector>

#include "query/statements/batch_statement.h"
#include "storage/data/mutation.h"

namespace sibyl::query {

// The size Cassandra's batch thresholds measure (PartitionUpdate.dataSize):
// clustering values, and per cell its timestamp, ttl and local deletion time
// (16 bytes), value and element path; 12 bytes per collection deletion.
[[nodiscard]] int64_t BatchDataSize(const storage::Mutation& mutation);

// BatchStatement.verifyBatchSize. Throws CqlError(kInvalid) "Batch too large".
void CheckBatchSize(const std::vector<storage::Mutation>& mutations,
                    const std::vector<BatchChildRequest>& children,
                    const BatchExecution& execution);
// BatchStatement.verifyBatchType: unlogged batches over many partitions.
void CheckUnloggedSpread(const std::vector<storage::Mutation>& mutations,
                         const std::vector<BatchChildRequest>& children,
                         const BatchExecution& execution);
// Logged batches on tables whose gc_grace_seconds is 0.
void CheckLoggedGcGrace(const std::vector<BatchChildRequest>& children,
                        const BatchExecution& execution);

}  // namespace sibyl::query
