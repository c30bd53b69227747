#include "query/statements/large_partition_guard.h"

#include <algorithm>

#include "common/error.h"
#include "schema/large_data_rules.h"

namespace sibyl::query {

bool AddsData(const storage::Mutation& mutation) {
  return std::any_of(mutation.rows.begin(), mutation.rows.end(), [](const storage::RowWrite& row) {
    return row.marker.timestamp != storage::kNoTimestamp ||
           std::any_of(row.cells.begin(), row.cells.end(), [](const storage::CellWrite& c) {
             return c.cell.kind != storage::Cell::Kind::kTombstone;
           });
  });
}

namespace {

// The warnings (and, over a fail threshold for a write that adds data, the
// refusal) for a partition the ledger measured.
void ReportBrokenRules(const schema::TableMetadata& table,
                       const storage::ledger::PartitionFigures& figures, bool adds_data,
                       const LargePartitionChecks& checks) {
  for (const schema::BrokenRule& rule : schema::BrokenPartitionRules(*checks.guardrails, figures)) {
    std::string message = schema::LargePartitionMessage(table, figures.prefix, rule);
    if (checks.warnings != nullptr) checks.warnings->push_back(message);
    if (rule.failed && adds_data) ThrowInvalid(std::move(message));
  }
}

}  // namespace

void GuardLargePartition(const schema::TableMetadata& table, const storage::PartitionKey& key,
                         bool adds_data, const LargePartitionChecks& checks) {
  if (checks.guardrails == nullptr || checks.ledger == nullptr) return;
  if (const auto figures = checks.ledger->FindLargePartition(table.id, key)) {
    ReportBrokenRules(table, *figures, adds_data, checks);
  }
}

void GuardLargePartitions(const schema::TableMetadata& table,
                          const std::vector<storage::Mutation>& mutations,
                          const LargePartitionChecks& checks) {
  if (checks.guardrails == nullptr || checks.ledger == nullptr) return;
  for (const storage::Mutation& mutation : mutations) {
    // Whether it adds data is asked only of a partition the ledger names.
    if (const auto figures = checks.ledger->FindLargePartition(table.id, mutation.partition)) {
      ReportBrokenRules(table, *figures, AddsData(mutation), checks);
    }
  }
}

}  // namespace sibyl::query
