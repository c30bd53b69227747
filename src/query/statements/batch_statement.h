#pragma once
// INSERT, UPDATE and DELETE as the statement layer runs them, alone or in a
// BATCH, and BATCH itself (BEGIN [UNLOGGED | COUNTER] BATCH ... APPLY BATCH
// through QUERY, and the BATCH message).
//
// A batch's mutations are merged per partition (storage/cells/mutation_merge.h,
// the storage's own reconciliation) and handed to the coordinator with the
// batch's write type: a logged batch is applied all-or-nothing
// (WriteType::kBatch; on several nodes through a batch log), an unlogged or
// counter batch partition by partition, as Cassandra applies them.
//
// Cassandra 4.1's rules and messages (BatchStatement.validate):
//   Global TTL on the BATCH statement is not supported.
//   Cannot provide custom timestamp for counter BATCH
//   Cannot provide custom timestamp for a BATCH containing counters
//   Timestamp must be set either on BATCH or individual statements
//   Cannot include non-counter statement in a counter batch
//   Cannot include a counter statement in a logged batch
//   Counter and non-counter mutations cannot exist in the same batch
// A batch with conditions (IF ...) is one lightweight transaction (cas_request.h).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/coordinator.h"
#include "cql/ast.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "query/statements/large_partition_guard.h"
#include "query/statements/modification_statement.h"
#include "query/statements/result.h"
#include "query/statements/write_guardrails.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/schema.h"
#include "storage/data/mutation.h"

namespace sibyl::query {

// An INSERT, UPDATE or DELETE, prepared.
struct ModificationPlan {
  std::shared_ptr<const ModificationStatement> statement;
  bool has_timestamp = false;  // USING TIMESTAMP on the statement itself
};

// Prepares an INSERT, UPDATE or DELETE (Throws as ModificationStatement::Prepare).
[[nodiscard]] ModificationPlan PrepareModification(const cql::ModificationStatement& raw,
                                                   int marker_count, const schema::Schema& schema,
                                                   std::optional<std::string_view> keyspace);

// BEGIN BATCH ... APPLY BATCH, prepared: each statement with its own markers.
struct BatchPlan {
  struct Child {
    ModificationPlan plan;
    int first_marker = 0;  // the child's markers are [first_marker, first_marker + count)
  };
  protocol::BatchType type = protocol::BatchType::kLogged;
  std::optional<PreparedTerm> timestamp;  // USING TIMESTAMP of the batch
  std::vector<Child> children;
  std::vector<protocol::ColumnSpec> bind_specs;  // of every marker of the batch
};

// Throws CqlError(kInvalid) with Cassandra's messages (see above).
[[nodiscard]] std::shared_ptr<const BatchPlan> PrepareBatch(
    const cql::BatchStatement& raw, int marker_count, const schema::Schema& schema,
    std::optional<std::string_view> keyspace);

// One statement of a batch being executed, with its own values.
struct BatchChildRequest {
  const ModificationPlan* plan = nullptr;
  const protocol::QueryParameters* params = nullptr;  // values, names, now_in_seconds
};

// Checks the batch rules above. `batch_timestamp_set`: USING TIMESTAMP on
// the batch (not the protocol's default timestamp).
void ValidateBatch(protocol::BatchType type, bool batch_timestamp_set,
                   const std::vector<const ModificationPlan*>& children);

// Cassandra 4.1's batch guard rails, by their cassandra.yaml names, with its defaults.
struct BatchLimits {
  int64_t size_warn_threshold_bytes = 5 * 1024;   // batch_size_warn_threshold
  int64_t size_fail_threshold_bytes = 50 * 1024;  // batch_size_fail_threshold
  int unlogged_across_partitions_warn_threshold = 10;
};

// How one batch runs.
struct BatchExecution {
  protocol::BatchType type = protocol::BatchType::kLogged;
  int64_t timestamp = 0;  // the default write timestamp of every child
  BatchLimits limits;
  // Client warnings are appended here (Cassandra's ClientWarn).
  std::vector<std::string>* warnings = nullptr;
  // The guardrails each statement is checked against (write_guardrails.h); null: none.
  const guardrails::Guardrails* guardrails = nullptr;
};

// Builds every child's mutations, merges those of a partition, checks them
// as Cassandra's BatchStatement does (a batch over several partitions larger
// than the fail threshold is refused with "Batch too large"; warnings for
// the warn threshold, unlogged batches over many partitions, and logged
// batches on tables with gc_grace_seconds = 0), and applies them atomically.
// A batch with IF conditions is instead one lightweight transaction
// (cas_request.h) and answers with its [applied] result set.
// The consistency levels are Cassandra 4.1's BatchStatement.execute's: a
// batch without conditions accepts every level (its statements' list
// operations that read first excepted, consistency_rules.h), a conditional
// one is checked as a lightweight transaction. `schema` is the one the
// batch runs against (a keyspace's replication strategy).
// REQUIRES: ValidateBatch passed.
[[nodiscard]] Result ExecuteBatch(const std::vector<BatchChildRequest>& children,
                                  const BatchExecution& execution, const schema::Schema& schema,
                                  cluster::Coordinator& coordinator);

// Runs one INSERT, UPDATE or DELETE: a VoidResult, or for a conditional
// statement the lightweight transaction's [applied] rows. Throws
// CqlError(kInvalid) for tables the engine does not store, and for the
// consistency levels Cassandra 4.1's ModificationStatement.execute refuses
// (consistency_rules.h): without conditions SERIAL and LOCAL_SERIAL (and
// ANY on a counter table), checked before the values are bound; with
// conditions those of a lightweight transaction, checked once bound.
// `checks`: the guardrails it is checked against (write_guardrails.h).
[[nodiscard]] Result ExecuteModification(const ModificationPlan& plan, const BoundValues& values,
                                         const protocol::QueryParameters& params,
                                         const schema::Schema& schema,
                                         cluster::Coordinator& coordinator,
                                         const WriteGuardrails& checks = {});

// Refuses writes to tables the engine does not store (virtual and system tables).
void RequireStoredTable(const schema::TableMetadata& table);

}  // namespace sibyl::query
