#include "schema/large_data_tables.h"

#include <functional>
#include <map>

#include "schema/large_data_rules.h"
#include "schema/stored_table_names.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using guardrails::GuardrailId;
using storage::ledger::CellFigures;
using storage::ledger::LedgerSnapshot;
using storage::ledger::MeasureHistogram;
using storage::ledger::PartitionFigures;
using storage::ledger::RowFigures;
using storage::ledger::TableLedger;

Bytes Bigint(uint64_t v) { return types::EncodeBigint(static_cast<int64_t>(v)); }

// The rules joined, or null for none.
void SetRules(RowWriter& row, const std::vector<std::string_view>& rules) {
  if (rules.empty()) {
    row.SetNull("rule");
    return;
  }
  std::string text;
  for (std::string_view rule : rules) {
    if (!text.empty()) text += ", ";
    text += rule;
  }
  row.Set("rule", types::EncodeText(text));
}

// Calls `each(table metadata, table ledger)` for every measured table the
// schema knows.
void ForEachTable(const VirtualTableContext& context,
                  const std::function<void(const TableMetadata&, const TableLedger&)>& each) {
  if (!context.node.large_data) return;
  const std::shared_ptr<const LedgerSnapshot> snapshot = context.node.large_data();
  if (!snapshot) return;
  const auto tables = StoredTableNames(context.schema);
  for (const auto& [id, ledger] : snapshot->tables) {
    // An index's keys are not its base table's: left out.
    const auto it = tables.find(id);
    if (it != tables.end() && std::string_view(it->second.kind) != "index") {
      each(*it->second.metadata, *ledger);
    }
  }
}

RowWriter TableRow(const TableMetadata& view, const TableMetadata& table,
                   const TableLedger& ledger) {
  RowWriter row(view);
  row.Set("keyspace_name", types::EncodeText(table.keyspace))
      .Set("table_name", types::EncodeText(table.name))
      .Set("last_seen", types::EncodeTimestamp(ledger.measured_at_millis));
  return row;
}

class LargePartitionsTable final : public VirtualTable {
 public:
  LargePartitionsTable() : VirtualTable(std::string(kViewsKeyspace), "large_partitions") {}

 protected:
  void Produce(const TableMetadata& view, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    ForEachTable(context, [&](const TableMetadata& table, const TableLedger& ledger) {
      for (size_t i = 0; i < ledger.partitions.size(); ++i) {
        const PartitionFigures p = ledger.Current(i);  // the memtable's share included
        RowWriter row = TableRow(view, table, ledger);
        row.Set("partition_size", Bigint(p.bytes))
            .Set("partition_key", types::EncodeText(PartitionPrefixText(table, p.prefix)))
            .Set("rows", Bigint(p.rows))
            .Set("cells", Bigint(p.cells))
            .Set("tombstones", Bigint(p.tombstones))
            .Set("largest_row_size", Bigint(p.largest_row_bytes))
            .Set("largest_collection_items", Bigint(p.largest_collection_items));
        std::vector<std::string_view> rules;
        if (context.node.guardrails != nullptr) {
          for (const BrokenRule& broken : BrokenPartitionRules(*context.node.guardrails, p)) {
            rules.push_back(guardrails::Definition(broken.id).name);
          }
        }
        SetRules(row, rules);
        rows.push_back(row.Take());
      }
    });
  }
};

class LargeRowsTable final : public VirtualTable {
 public:
  LargeRowsTable() : VirtualTable(std::string(kViewsKeyspace), "large_rows") {}

 protected:
  void Produce(const TableMetadata& view, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    ForEachTable(context, [&](const TableMetadata& table, const TableLedger& ledger) {
      for (const RowFigures& r : ledger.rows) {
        RowWriter row = TableRow(view, table, ledger);
        row.Set("row_size", Bigint(r.bytes))
            .Set("partition_key", types::EncodeText(PartitionPrefixText(table, r.prefix)))
            .Set("clustering_key", types::EncodeText(ClusteringText(table, r.clustering)))
            .Set("cells", Bigint(r.cells));
        // No guardrail bounds a row: the ledger's floor (1 MiB) names it.
        SetRules(row, {});
        rows.push_back(row.Take());
      }
    });
  }
};

class LargeCellsTable final : public VirtualTable {
 public:
  LargeCellsTable() : VirtualTable(std::string(kViewsKeyspace), "large_cells") {}

 protected:
  void Produce(const TableMetadata& view, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    const guardrails::Guardrails* g = context.node.guardrails;
    ForEachTable(context, [&](const TableMetadata& table, const TableLedger& ledger) {
      for (const CellFigures& c : ledger.cells) {
        RowWriter row = TableRow(view, table, ledger);
        row.Set("cell_size", Bigint(c.bytes))
            .Set("partition_key", types::EncodeText(PartitionPrefixText(table, c.prefix)))
            .Set("clustering_key", types::EncodeText(ClusteringText(table, c.clustering)))
            .Set("column_name", types::EncodeText(c.column))
            .Set("collection_elements", Bigint(c.items));
        std::vector<std::string_view> rules;
        const auto over = [&](GuardrailId id, uint64_t value) {
          if (g == nullptr) return;
          for (int64_t threshold : {g->WarnThreshold(id), g->FailThreshold(id)}) {
            if (threshold != guardrails::kDisabled && value > static_cast<uint64_t>(threshold)) {
              rules.push_back(guardrails::Definition(id).name);
              return;
            }
          }
        };
        if (c.items == 0) {
          over(GuardrailId::kColumnValueSize, c.bytes);
        } else {
          over(GuardrailId::kCollectionSize, c.bytes);
          over(GuardrailId::kItemsPerCollection, c.items);
        }
        SetRules(row, rules);
        rows.push_back(row.Take());
      }
    });
  }
};

class PartitionStatsTable final : public VirtualTable {
 public:
  PartitionStatsTable() : VirtualTable(std::string(kViewsKeyspace), "partition_stats") {}

 protected:
  void Produce(const TableMetadata& view, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    ForEachTable(context, [&](const TableMetadata& table, const TableLedger& ledger) {
      if (ledger.histograms.bytes.count() == 0) return;
      const std::pair<const char*, const MeasureHistogram*> measures[] = {
          {"bytes", &ledger.histograms.bytes},
          {"rows", &ledger.histograms.rows},
          {"cells", &ledger.histograms.cells},
          {"tombstones", &ledger.histograms.tombstones},
      };
      for (const auto& [measure, histogram] : measures) {
        RowWriter row(view);
        row.Set("keyspace_name", types::EncodeText(table.keyspace))
            .Set("table_name", types::EncodeText(table.name))
            .Set("measure", types::EncodeText(measure))
            .Set("partitions", Bigint(histogram->count()))
            .Set("min", Bigint(histogram->min()))
            .Set("p50", Bigint(histogram->Percentile(0.5)))
            .Set("p75", Bigint(histogram->Percentile(0.75)))
            .Set("p95", Bigint(histogram->Percentile(0.95)))
            .Set("p98", Bigint(histogram->Percentile(0.98)))
            .Set("p99", Bigint(histogram->Percentile(0.99)))
            .Set("max", Bigint(histogram->max()));
        rows.push_back(row.Take());
      }
    });
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeLargePartitionsTable() {
  return std::make_unique<LargePartitionsTable>();
}
std::unique_ptr<VirtualTable> MakeLargeRowsTable() { return std::make_unique<LargeRowsTable>(); }
std::unique_ptr<VirtualTable> MakeLargeCellsTable() { return std::make_unique<LargeCellsTable>(); }
std::unique_ptr<VirtualTable> MakePartitionStatsTable() {
  return std::make_unique<PartitionStatsTable>();
}

}  // namespace sibyl::schema
