#pragma once
// The large-data ledger's rules at the statement that touches a partition
// (schema/large_data_rules.h): a SELECT of named partitions, an INSERT,
// UPDATE or DELETE, each statement of a BATCH. For each rule the partition
// breaks, as the ledger of this node measured it, the client gets a warning
// naming the rule, the key, the evidence and the guides' fix. A write that
// adds data to a partition over a fail threshold is refused with the same
// text (InvalidRequest, as a guardrail's failure); reads and deletions go
// through, so the data can still be read and removed.
//
// Costs one atomic load per partition while no table has a partition large
// enough for the ledger to name (storage/ledger/large_data_ledger.h).
//
// The ledger is this node's: on a ring, a coordinator that holds no replica
// of the partition does not know it (the replicas' ledgers do).

#include <string>
#include <vector>

#include "guardrails/guardrails.h"
#include "schema/table_metadata.h"
#include "storage/data/mutation.h"
#include "storage/engine.h"

namespace sibyl::query {

struct LargePartitionChecks {
  const guardrails::Guardrails* guardrails = nullptr;  // null: nothing is checked
  const storage::Engine* ledger = nullptr;             // whose ledger; null: nothing is checked
  std::vector<std::string>* warnings = nullptr;        // client warnings; null: dropped
};

// A statement touching `key` of `table`; `adds_data`: a write that is not
// only deletions.
void GuardLargePartition(const schema::TableMetadata& table, const storage::PartitionKey& key,
                         bool adds_data, const LargePartitionChecks& checks);

// Each partition `mutations` write.
void GuardLargePartitions(const schema::TableMetadata& table,
                          const std::vector<storage::Mutation>& mutations,
                          const LargePartitionChecks& checks);

// Whether `mutation` writes anything but deletions.
[[nodiscard]] bool AddsData(const storage::Mutation& mutation);

}  // namespace sibyl::query
