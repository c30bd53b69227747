#pragma once
// The guardrails an INSERT, UPDATE, DELETE or BATCH checks, where Cassandra
// 5.0 checks them (ModificationStatement, BatchStatement, UpdateParameters,
// and the Lists / Sets / Maps setters):
//   - before anything is bound: user_timestamps (USING TIMESTAMP), the list
//     operations that read first (read_before_write_list_operations), and
//     write_consistency_levels (the consistency and the serial consistency);
//   - once bound, for a statement outside a batch: maximum_timestamp and
//     minimum_timestamp against now;
//   - replica_disk_usage, where Cassandra validates disk usage (each
//     statement of a batch, conditional or not; a statement outside a batch
//     without IF conditions, before the timestamp guardrails): each replica
//     of each partition written that is STUFFED warns, FULL fails;
//   - on the cells built: column_value_size (each regular and static value,
//     with a collection element's key), collection_size and
//     items_per_collection (the elements one statement writes to a
//     collection: not what it already holds, which Cassandra reads at
//     compaction and Sibyl's large-data ledger will).
// Each costs a few loads when its guardrail is off.

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/coordinator.h"
#include "guardrails/guardrails.h"
#include "protocol/request.h"
#include "query/statements/modification_statement.h"
#include "schema/table_metadata.h"
#include "storage/data/mutation.h"

namespace sibyl::query {

// What the checks of one write need.
struct WriteGuardrails {
  const guardrails::Guardrails* guardrails = nullptr;  // null: nothing is checked
  std::vector<std::string>* warnings = nullptr;        // client warnings; null: dropped
};

// The checks of one statement before binding: user_timestamps and
// read_before_write_list_operations (each statement of a batch).
void GuardWriteStatement(const ModificationStatement& statement, const WriteGuardrails& checks);
// write_consistency_levels for a request (a statement, or a whole batch).
void GuardWriteConsistency(const protocol::QueryParameters& params, const WriteGuardrails& checks);

// replica_disk_usage for the partitions `statement` writes with `values`.
// One atomic load while no member is STUFFED or FULL; only then is the
// statement bound to find its partitions.
void GuardReplicaDiskUsage(const ModificationStatement& statement, const BoundValues& values,
                           const cluster::Coordinator& coordinator, const WriteGuardrails& checks);

// maximum_timestamp / minimum_timestamp for a write with USING TIMESTAMP
// `timestamp`, at `now_micros`.
void GuardWriteTimestamp(const schema::TableMetadata& table, int64_t timestamp, int64_t now_micros,
                         const WriteGuardrails& checks);

// The checks of the values in `mutations` (the last group above).
void GuardWrittenValues(const schema::TableMetadata& table,
                        const std::vector<storage::Mutation>& mutations,
                        const WriteGuardrails& checks);

}  // namespace sibyl::query
