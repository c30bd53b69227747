#include "query/statements/batch_statement.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "common/error.h"
#include "query/statements/batch_guards.h"
#include "query/statements/batch_markers.h"
#include "query/statements/cas_request.h"
#include "query/statements/consistency_rules.h"
#include "schema/storage_layout.h"
#include "storage/cells/mutation_merge.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

bool HasOwnTimestamp(const cql::ModificationStatement& raw) {
  return std::visit(
      [](const auto& statement) { return statement.attributes.timestamp.has_value(); }, raw);
}

protocol::BatchType ToBatchType(cql::BatchStatement::Type type) {
  switch (type) {
    case cql::BatchStatement::Type::kUnlogged:
      return protocol::BatchType::kUnlogged;
    case cql::BatchStatement::Type::kCounter:
      return protocol::BatchType::kCounter;
    case cql::BatchStatement::Type::kLogged:
      break;
  }
  return protocol::BatchType::kLogged;
}

}  // namespace

void RequireStoredTable(const schema::TableMetadata& table) {
  if (schema::IsStoredTable(table)) return;
  if (table.is_virtual) {
    ThrowInvalid("Modification is not supported by table " + table.QualifiedName());
  }
  ThrowInvalid("Writing to " + table.QualifiedName() +
               " is not supported by Sibyl: the tables of system keyspaces are read-only");
}

ModificationPlan PrepareModification(const cql::ModificationStatement& raw, int marker_count,
                                     const schema::Schema& schema,
                                     std::optional<std::string_view> keyspace) {
  ModificationPlan plan;
  plan.statement = ModificationStatement::Prepare(raw, marker_count, schema, keyspace);
  plan.has_timestamp = HasOwnTimestamp(raw);
  return plan;
}

void ValidateBatch(protocol::BatchType type, bool batch_timestamp_set,
                   const std::vector<const ModificationPlan*>& children) {
  bool has_conditions = false;
  for (const auto* child : children) has_conditions |= child->statement->has_conditions();
  if (batch_timestamp_set) {
    if (has_conditions) ThrowInvalid("Cannot provide custom timestamp for conditional BATCH");
    if (type == protocol::BatchType::kCounter) {
      ThrowInvalid("Cannot provide custom timestamp for counter BATCH");
    }
  }
  bool has_counters = false;
  bool has_non_counters = false;
  for (const auto* child : children) {
    const bool is_counter = child->statement->is_counter();
    if (batch_timestamp_set && is_counter) {
      ThrowInvalid("Cannot provide custom timestamp for a BATCH containing counters");
    }
    if (batch_timestamp_set && child->has_timestamp) {
      ThrowInvalid("Timestamp must be set either on BATCH or individual statements");
    }
    if (type == protocol::BatchType::kCounter && !is_counter) {
      ThrowInvalid("Cannot include non-counter statement in a counter batch");
    }
    if (type == protocol::BatchType::kLogged && is_counter) {
      ThrowInvalid("Cannot include a counter statement in a logged batch");
    }
    (is_counter ? has_counters : has_non_counters) = true;
  }
  if (has_counters && has_non_counters) {
    ThrowInvalid("Counter and non-counter mutations cannot exist in the same batch");
  }
  std::vector<const ModificationStatement*> statements;
  statements.reserve(children.size());
  for (const auto* child : children) statements.push_back(child->statement.get());
  ValidateConditionalBatch(statements);
}

std::shared_ptr<const BatchPlan> PrepareBatch(const cql::BatchStatement& raw, int marker_count,
                                              const schema::Schema& schema,
                                              std::optional<std::string_view> keyspace) {
  auto batch = std::make_shared<BatchPlan>();
  batch->type = ToBatchType(raw.type);
  batch->bind_specs.resize(static_cast<size_t>(marker_count));
  if (raw.attributes.ttl) ThrowInvalid("Global TTL on the BATCH statement is not supported.");
  if (raw.attributes.timestamp) {
    // Its marker (if any) comes first in the text: receive it alone.
    cql::Term term = *raw.attributes.timestamp;
    const int index = term.bind_index;
    if (term.kind == cql::Term::Kind::kBindMarker) term.bind_index = 0;
    BindSpecCollector binds("", "", term.kind == cql::Term::Kind::kBindMarker ? 1 : 0);
    PreparedTerm prepared =
        PrepareTerm(term, "[timestamp]", types::CqlType::Native(types::Kind::kBigint), binds);
    if (prepared.kind == PreparedTerm::Kind::kMarker) {
      prepared.marker = index;
      batch->bind_specs.at(static_cast<size_t>(index)) = binds.Take().front();
    }
    batch->timestamp = std::move(prepared);
  }
  std::vector<const ModificationPlan*> plans;
  batch->children.reserve(raw.statements.size());
  for (const cql::ModificationStatement& statement : raw.statements) {
    cql::ModificationStatement copy = statement;
    const RenumberedMarkers markers = RenumberMarkers(copy, marker_count);
    BatchPlan::Child child;
    child.plan = PrepareModification(copy, markers.count, schema, keyspace);
    child.first_marker = markers.first;
    const auto& specs = child.plan.statement->bind_specs();
    for (size_t i = 0; i < specs.size(); ++i) {
      batch->bind_specs.at(static_cast<size_t>(child.first_marker) + i) = specs[i];
    }
    batch->children.push_back(std::move(child));
  }
  for (const auto& child : batch->children) plans.push_back(&child.plan);
  ValidateBatch(batch->type, batch->timestamp.has_value(), plans);
  return batch;
}

namespace {

// A batch with IF conditions: one lightweight transaction on one partition.
RowsResult ExecuteConditionalChildren(const std::vector<BatchChildRequest>& children,
                                      const schema::Schema& schema,
                                      cluster::Coordinator& coordinator) {
  std::vector<std::unique_ptr<BoundValues>> values;
  std::vector<std::pair<const ModificationStatement*, const BoundValues*>> statements;
  values.reserve(children.size());
  statements.reserve(children.size());
  for (const BatchChildRequest& child : children) {
    const ModificationStatement& statement = *child.plan->statement;
    RequireStoredTable(*statement.table());
    values.push_back(std::make_unique<BoundValues>(statement.bind_specs(), *child.params));
    statements.emplace_back(&statement, values.back().get());
  }
  RowsResult result = ExecuteConditionalBatch(statements, *children.front().params, schema,
                                              coordinator.clock(), coordinator);
  result.always_send_metadata = true;
  return result;
}

}  // namespace

Result ExecuteBatch(const std::vector<BatchChildRequest>& children, const BatchExecution& execution,
                    const schema::Schema& schema, cluster::Coordinator& coordinator) {
  const bool has_conditions = std::any_of(
      children.begin(), children.end(),
      [](const BatchChildRequest& child) { return child.plan->statement->has_conditions(); });
  // 5.0 checks each statement of a batch, and the batch's consistency once;
  // not the timestamp guardrails.
  const WriteGuardrails checks{execution.guardrails, execution.warnings};
  if (!children.empty())
    GuardWriteConsistency(*children.front().params, checks);  // BEGIN BATCH APPLY BATCH: none
  for (const BatchChildRequest& child : children)
    GuardWriteStatement(*child.plan->statement, checks);
  if (coordinator.AnyReplicaStuffedOrFull()) {
    for (const BatchChildRequest& child : children) {
      const ModificationStatement& statement = *child.plan->statement;
      GuardReplicaDiskUsage(statement, BoundValues(statement.bind_specs(), *child.params),
                            coordinator, checks);
    }
  }
  if (has_conditions) return ExecuteConditionalChildren(children, schema, coordinator);
  // 4.1's BatchStatement.executeWithoutConditions checks no consistency
  // level: a batch at SERIAL, or of counters at ANY, is written.

  std::vector<storage::Mutation> all;
  for (const BatchChildRequest& child : children) {
    const ModificationStatement& statement = *child.plan->statement;
    RequireStoredTable(*statement.table());
    protocol::QueryParameters params = *child.params;
    params.default_timestamp = execution.timestamp;
    const BoundValues values(statement.bind_specs(), params);
    std::vector<storage::Mutation> mutations =
        statement.BuildMutations(values, params, coordinator.clock(), &coordinator);
    GuardWrittenValues(*statement.table(), mutations, checks);
    GuardLargePartitions(*statement.table(), mutations,
                         {checks.guardrails, &coordinator.engine(), checks.warnings});
    for (auto& mutation : mutations) all.push_back(std::move(mutation));
  }
  CheckLoggedGcGrace(children, execution);
  std::vector<storage::Mutation> merged = storage::MergeByPartition(std::move(all));
  if (merged.empty()) return VoidResult{};
  CheckBatchSize(merged, children, execution);
  CheckUnloggedSpread(merged, children, execution);
  const bool is_counter = execution.type == protocol::BatchType::kCounter;
  cluster::WriteOptions options{.consistency = children.front().params->consistency,
                                .type = is_counter ? cluster::WriteType::kCounter
                                        : execution.type == protocol::BatchType::kLogged
                                            ? cluster::WriteType::kBatch
                                            : cluster::WriteType::kUnloggedBatch};
  coordinator.Mutate(merged, options);
  return VoidResult{};
}

Result ExecuteModification(const ModificationPlan& plan, const BoundValues& values,
                           const protocol::QueryParameters& params, const schema::Schema& schema,
                           cluster::Coordinator& coordinator, const WriteGuardrails& checks) {
  const ModificationStatement& statement = *plan.statement;
  RequireStoredTable(*statement.table());
  GuardWriteStatement(statement, checks);
  GuardWriteConsistency(params, checks);
  if (statement.has_conditions()) {
    RowsResult result =
        statement.ExecuteConditional(values, params, schema, coordinator.clock(), coordinator);
    result.always_send_metadata = true;
    return result;
  }
  // ModificationStatement.executeWithoutCondition: before anything is bound.
  ValidateConsistencyForWrite(params.consistency, *statement.table(), statement.is_counter());
  GuardReplicaDiskUsage(statement, values, coordinator, checks);
  if (checks.guardrails != nullptr && statement.attributes().has_timestamp()) {
    GuardWriteTimestamp(*statement.table(),
                        statement.attributes().Timestamp(values, /*fallback=*/0),
                        coordinator.clock().NowMicros(), checks);
  }
  std::vector<storage::Mutation> mutations =
      statement.BuildMutations(values, params, coordinator.clock(), &coordinator);
  GuardWrittenValues(*statement.table(), mutations, checks);
  GuardLargePartitions(*statement.table(), mutations,
                       {checks.guardrails, &coordinator.engine(), checks.warnings});
  // One mutation per partition, each applied atomically (as Cassandra applies
  // a statement's partitions independently).
  if (!mutations.empty()) {
    coordinator.Mutate(mutations, {.consistency = params.consistency,
                                   .type = statement.is_counter() ? cluster::WriteType::kCounter
                                                                  : cluster::WriteType::kSimple});
  }
  return VoidResult{};
}

}  // namespace sibyl::query
