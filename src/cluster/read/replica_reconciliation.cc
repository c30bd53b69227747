#include "cluster/read/replica_reconciliation.h"

#include "storage/cells/mutation_merge.h"
#include "storage/read/repair_diff.h"
#include "storage/reference/reference_engine.h"

namespace sibyl::cluster {

Reconciliation Reconcile(const storage::TableLayout& layout, const storage::ReadCommand& command,
                         const std::vector<std::vector<storage::Mutation>>& answers) {
  std::vector<storage::Mutation> all;
  for (const auto& answer : answers) all.insert(all.end(), answer.begin(), answer.end());
  Reconciliation reconciliation;
  reconciliation.merged = storage::MergeByPartition(std::move(all));

  storage::ReferenceEngine scratch;
  scratch.SyncTables({layout});
  for (const storage::Mutation& mutation : reconciliation.merged) scratch.Apply(mutation);
  // The replicas answered an index read with the rows their indexes found
  // (IndexingEngine::ReadUnfiltered): the merge holds only those, so it is
  // read whole; the statement's filter re-checks the indexed value.
  storage::ReadCommand merged_read = command;
  merged_read.index.reset();
  reconciliation.result = scratch.Read(merged_read);
  return reconciliation;
}

std::vector<storage::Mutation> RepairsFor(const storage::TableLayout& layout,
                                          const std::vector<storage::Mutation>& merged,
                                          const std::vector<storage::Mutation>& answer) {
  std::vector<storage::Mutation> repairs;
  for (const storage::Mutation& partition : merged) {
    storage::Mutation held;  // the replica had nothing of the partition
    held.table_id = partition.table_id;
    held.partition = partition.partition;
    for (const storage::Mutation& mine : answer) {
      if (mine.partition == partition.partition) held = mine;
    }
    storage::Mutation diff = storage::RepairDiff(layout, partition, held);
    if (!diff.empty()) repairs.push_back(std::move(diff));
  }
  return repairs;
}

}  // namespace sibyl::cluster
