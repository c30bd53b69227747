#include "query/statements/batch_statement.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "common/error.h"
#include "query/read/storage_layout.h"
#include "query/statements/cas_request.h"
#include "storage/mutation_merge.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

// Every bind marker of a statement, so a batch's statement can be prepared
// with its markers renumbered from 0.
class MarkerCollector {
 public:
  void Add(cql::Term& term) {
    if (term.kind == cql::Term::Kind::kBindMarker) markers_.push_back(&term);
    for (auto& element : term.elements) Add(element);
  }
  void Add(std::optional<cql::Term>& term) {
    if (term) Add(*term);
  }
  void Add(std::vector<cql::Term>& terms) {
    for (auto& term : terms) Add(term);
  }
  void Add(cql::Attributes& attributes) {
    Add(attributes.timestamp);
    Add(attributes.ttl);
  }
  void Add(std::vector<cql::Relation>& where) {
    for (auto& relation : where) {
      Add(relation.map_key);
      Add(relation.terms);
    }
  }
  void Add(std::vector<cql::Condition>& conditions) {
    for (auto& condition : conditions) {
      Add(condition.element);
      Add(condition.values);
    }
  }
  void Add(cql::InsertStatement& insert) {
    Add(insert.values);
    Add(insert.json_value);
    Add(insert.attributes);
  }
  void Add(cql::UpdateStatement& update) {
    Add(update.attributes);
    for (auto& operation : update.operations) {
      Add(operation.value);
      Add(operation.element);
    }
    Add(update.where);
    Add(update.conditions);
  }
  void Add(cql::DeleteStatement& del) {
    for (auto& deletion : del.deletions) Add(deletion.element);
    Add(del.attributes);
    Add(del.where);
    Add(del.conditions);
  }

  const std::vector<cql::Term*>& markers() const { return markers_; }

 private:
  std::vector<cql::Term*> markers_;
};

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
  if (IsStoredTable(table)) return;
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
    MarkerCollector collector;
    std::visit([&](auto& s) { collector.Add(s); }, copy);
    int first = marker_count;
    for (const cql::Term* marker : collector.markers()) first = std::min(first, marker->bind_index);
    const int count = static_cast<int>(collector.markers().size());
    for (cql::Term* marker : collector.markers()) marker->bind_index -= first;
    BatchPlan::Child child;
    child.plan = PrepareModification(copy, count, schema, keyspace);
    child.first_marker = count == 0 ? 0 : first;
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

int64_t BatchDataSize(const storage::Mutation& mutation) {
  // Cassandra's Cell.dataSize: timestamp (8), ttl (4), local deletion time (4).
  constexpr int64_t kCellOverhead = 16;
  constexpr int64_t kDeletionTimeSize = 12;
  int64_t size = 0;
  for (const storage::RowWrite& row : mutation.rows) {
    for (const Bytes& value : row.clustering) size += static_cast<int64_t>(value.size());
    size += kDeletionTimeSize * static_cast<int64_t>(row.collection_deletions.size());
    for (const storage::CellWrite& cell : row.cells) {
      size += kCellOverhead + static_cast<int64_t>(cell.cell.value.size());
      if (cell.path) size += static_cast<int64_t>(cell.path->size());
    }
  }
  return size;
}

namespace {

// Java's Set.toString of table names ("[ks.a, ks.b]"), sorted so the
// message does not depend on hashing.
std::string TableSet(std::set<std::string> names) {
  std::string out = "[";
  for (const std::string& name : names) {
    if (out.size() > 1) out += ", ";
    out += name;
  }
  return out + "]";
}

std::string QualifiedTableName(const std::vector<BatchChildRequest>& children,
                               const types::Uuid& table_id) {
  for (const BatchChildRequest& child : children) {
    const schema::TableMetadata& table = *child.plan->statement->table();
    if (table.id == table_id) return table.QualifiedName();
  }
  return table_id.ToString();
}

// BatchStatement.verifyBatchSize: only batches over several partitions.
void CheckBatchSize(const std::vector<storage::Mutation>& mutations,
                    const std::vector<BatchChildRequest>& children,
                    const BatchExecution& execution) {
  if (mutations.size() <= 1) return;
  int64_t size = 0;
  for (const storage::Mutation& mutation : mutations) size += BatchDataSize(mutation);
  const BatchLimits& limits = execution.limits;
  if (size <= limits.size_warn_threshold_bytes) return;
  std::set<std::string> tables;
  for (const storage::Mutation& m : mutations)
    tables.insert(QualifiedTableName(children, m.table_id));
  if (size > limits.size_fail_threshold_bytes) {
    spdlog::error(
        "Batch for {} is of size {}, exceeding specified threshold of {} by {}. (see "
        "batch_size_fail_threshold)",
        TableSet(tables), size, limits.size_fail_threshold_bytes,
        size - limits.size_fail_threshold_bytes);
    ThrowInvalid("Batch too large");
  }
  std::string warning = "Batch for " + TableSet(tables) + " is of size " + std::to_string(size) +
                        ", exceeding specified threshold of " +
                        std::to_string(limits.size_warn_threshold_bytes) + " by " +
                        std::to_string(size - limits.size_warn_threshold_bytes) + ".";
  spdlog::warn("{}", warning);
  if (execution.warnings != nullptr) execution.warnings->push_back(std::move(warning));
}

// BatchStatement.verifyBatchType: unlogged batches over many partitions.
void CheckUnloggedSpread(const std::vector<storage::Mutation>& mutations,
                         const std::vector<BatchChildRequest>& children,
                         const BatchExecution& execution) {
  if (execution.type == protocol::BatchType::kLogged || mutations.size() <= 1) return;
  std::set<std::pair<int64_t, Bytes>> keys;
  std::set<std::string> tables;
  for (const storage::Mutation& m : mutations) {
    keys.emplace(m.partition.token, m.partition.key);
    tables.insert(QualifiedTableName(children, m.table_id));
  }
  if (static_cast<int64_t>(keys.size()) <=
      execution.limits.unlogged_across_partitions_warn_threshold)
    return;
  std::string warning = "Unlogged batch covering " + std::to_string(keys.size()) +
                        " partitions detected against table" + (tables.size() == 1 ? "" : "s") +
                        " " + TableSet(tables) +
                        ". You should use a logged batch for atomicity, or asynchronous writes "
                        "for performance.";
  spdlog::warn("{}", warning);
  if (execution.warnings != nullptr) execution.warnings->push_back(std::move(warning));
}

// A logged batch's batch log entries live gc_grace_seconds: Cassandra warns
// when a table of the batch has none.
void CheckLoggedGcGrace(const std::vector<BatchChildRequest>& children,
                        const BatchExecution& execution) {
  if (execution.type != protocol::BatchType::kLogged) return;
  std::set<std::string> tables;
  for (const BatchChildRequest& child : children) {
    const schema::TableMetadata& table = *child.plan->statement->table();
    if (table.params.gc_grace_seconds == 0) tables.insert(table.QualifiedName());
  }
  if (tables.empty()) return;
  std::string warning =
      "Executing a LOGGED BATCH on table" + std::string(tables.size() == 1 ? "" : "s") + " " +
      TableSet(tables) +
      ", configured with a gc_grace_seconds of 0. The gc_grace_seconds is used to TTL batchlog "
      "entries, so setting gc_grace_seconds too low on tables involved in an atomic batch might "
      "cause batchlog entries to expire before being replayed.";
  spdlog::warn("{}", warning);
  if (execution.warnings != nullptr) execution.warnings->push_back(std::move(warning));
}

}  // namespace

namespace {

// A batch with IF conditions: one lightweight transaction on one partition.
RowsResult ExecuteConditionalChildren(const std::vector<BatchChildRequest>& children,
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
  RowsResult result = ExecuteConditionalBatch(statements, *children.front().params,
                                              coordinator.clock(), coordinator);
  result.always_send_metadata = true;
  return result;
}

}  // namespace

Result ExecuteBatch(const std::vector<BatchChildRequest>& children, const BatchExecution& execution,
                    cluster::Coordinator& coordinator) {
  const bool has_conditions = std::any_of(
      children.begin(), children.end(),
      [](const BatchChildRequest& child) { return child.plan->statement->has_conditions(); });
  if (has_conditions) return ExecuteConditionalChildren(children, coordinator);
  std::vector<storage::Mutation> all;
  for (const BatchChildRequest& child : children) {
    const ModificationStatement& statement = *child.plan->statement;
    RequireStoredTable(*statement.table());
    protocol::QueryParameters params = *child.params;
    params.default_timestamp = execution.timestamp;
    const BoundValues values(statement.bind_specs(), params);
    std::vector<storage::Mutation> mutations =
        statement.BuildMutations(values, params, coordinator.clock(), &coordinator);
    for (auto& mutation : mutations) all.push_back(std::move(mutation));
  }
  CheckLoggedGcGrace(children, execution);
  std::vector<storage::Mutation> merged = storage::MergeByPartition(std::move(all));
  if (merged.empty()) return VoidResult{};
  CheckBatchSize(merged, children, execution);
  CheckUnloggedSpread(merged, children, execution);
  coordinator.Mutate(merged, /*atomic=*/true);
  return VoidResult{};
}

Result ExecuteModification(const ModificationPlan& plan, const BoundValues& values,
                           const protocol::QueryParameters& params,
                           cluster::Coordinator& coordinator) {
  const ModificationStatement& statement = *plan.statement;
  RequireStoredTable(*statement.table());
  if (statement.has_conditions()) {
    RowsResult result =
        statement.ExecuteConditional(values, params, coordinator.clock(), coordinator);
    result.always_send_metadata = true;
    return result;
  }
  std::vector<storage::Mutation> mutations =
      statement.BuildMutations(values, params, coordinator.clock(), &coordinator);
  // One mutation per partition, each applied atomically (as Cassandra applies
  // a statement's partitions independently).
  if (!mutations.empty()) coordinator.Mutate(mutations, /*atomic=*/false);
  return VoidResult{};
}

}  // namespace sibyl::query
