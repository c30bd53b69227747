// Cassandra 4.1's batch guard rails (BatchStatement.verifyBatchSize and
// verifyBatchType, and the logged batch gc_grace_seconds warning).

#include "query/statements/batch_guards.h"

#include <spdlog/spdlog.h>

#include <set>
#include <string>
#include <utility>

#include "common/error.h"

namespace sibyl::query {
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

}  // namespace

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

}  // namespace sibyl::query
