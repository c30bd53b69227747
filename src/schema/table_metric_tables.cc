#include "schema/table_metric_tables.h"

#include <functional>
#include <map>

#include "schema/stored_table_names.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using storage::TableLatency;
using storage::TableStorageStatistics;

// Calls `each(name, figures)` for every stored table the engine reports and
// the schema names (a family being dropped, or not yet published, is left out).
template <typename Each>
void ForEachStoredTable(const VirtualTableContext& context, const Each& each) {
  if (!context.node.storage_statistics) return;
  const storage::StorageStatistics stats = context.node.storage_statistics();
  const std::map<types::Uuid, StoredTableName> names = StoredTableNames(context.schema);
  for (const TableStorageStatistics& figures : stats.tables) {
    if (const auto it = names.find(figures.table_id); it != names.end()) each(it->second, figures);
  }
}

using TableRowWriter = std::function<void(RowWriter&, const TableStorageStatistics&)>;

// A table with a row per stored table (ForEachStoredTable).
class TableMetricTable final : public VirtualTable {
 public:
  TableMetricTable(const char* name, TableRowWriter write)
      : VirtualTable(std::string(kViewsKeyspace), name), write_(std::move(write)) {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    ForEachStoredTable(context,
                       [&](const StoredTableName& name, const TableStorageStatistics& figures) {
                         RowWriter row(table);
                         row.Set("keyspace_name", types::EncodeText(name.keyspace))
                             .Set("table_name", types::EncodeText(name.table));
                         if (table.name == "table_stats")
                           row.Set("kind", types::EncodeText(name.kind));
                         write_(row, figures);
                         rows.push_back(row.Take());
                       });
  }

 private:
  TableRowWriter write_;
};

// A latency in milliseconds, as 4.1 writes it (whole µs: three decimals).
Bytes Milliseconds(uint64_t micros) {
  return types::EncodeDouble(static_cast<double>(micros) / 1000.0);
}

Bytes Bigint(uint64_t value) { return types::EncodeBigint(static_cast<int64_t>(value)); }

void WriteLatency(RowWriter& row, const TableLatency::Snapshot& latency) {
  row.Set("count", Bigint(latency.count))
      .Set("50th_ms", Milliseconds(latency.Percentile(0.5)))
      .Set("99th_ms", Milliseconds(latency.Percentile(0.99)))
      .Set("max_ms", Milliseconds(latency.max_micros))
      .SetNull("per_second");
}

void WriteTableStats(RowWriter& row, const TableStorageStatistics& t) {
  row.Set("sstables", Bigint(t.sstables()))
      .Set("live_bytes", Bigint(t.live_sstable_bytes))
      .Set("total_bytes", Bigint(t.sstable_bytes))
      .Set("compressed_bytes", Bigint(t.sstable_data_bytes))
      .Set("uncompressed_bytes", Bigint(t.sstable_raw_bytes))
      .Set("memtable_entries", Bigint(t.memtable_entries))
      .Set("memtable_bytes", Bigint(t.memtable_bytes))
      .Set("pending_flushes", Bigint(t.immutable_memtables))
      .Set("bloom_filter_bytes", Bigint(t.filter_bytes))
      .Set("read_count", Bigint(t.read_latency.count))
      .Set("read_total_micros", Bigint(t.read_latency.total_micros))
      .Set("write_count", Bigint(t.write_latency.count))
      .Set("write_total_micros", Bigint(t.write_latency.total_micros));
}

// Two rows per table: one per operation.
class TableLatenciesTable final : public VirtualTable {
 public:
  TableLatenciesTable() : VirtualTable(std::string(kViewsKeyspace), "table_latencies") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    ForEachStoredTable(
        context, [&](const StoredTableName& name, const TableStorageStatistics& figures) {
          for (const auto& [operation, latency] : {std::pair{"read", &figures.read_latency},
                                                   std::pair{"write", &figures.write_latency}}) {
            RowWriter row(table);
            row.Set("keyspace_name", types::EncodeText(name.keyspace))
                .Set("table_name", types::EncodeText(name.table))
                .Set("operation", types::EncodeText(operation))
                .Set("count", Bigint(latency->count));
            if (latency->count > 0) {
              row.Set("min", Bigint(latency->min_micros))
                  .Set("p50", Bigint(latency->Percentile(0.5)))
                  .Set("p75", Bigint(latency->Percentile(0.75)))
                  .Set("p95", Bigint(latency->Percentile(0.95)))
                  .Set("p98", Bigint(latency->Percentile(0.98)))
                  .Set("p99", Bigint(latency->Percentile(0.99)))
                  .Set("max", Bigint(latency->max_micros));
            }
            rows.push_back(row.Take());
          }
        });
  }
};

}  // namespace

std::vector<std::unique_ptr<VirtualTable>> MakeTableMetricTables() {
  std::vector<std::unique_ptr<VirtualTable>> tables;
  tables.push_back(std::make_unique<TableMetricTable>(
      "local_read_latency",
      [](RowWriter& row, const TableStorageStatistics& t) { WriteLatency(row, t.read_latency); }));
  tables.push_back(std::make_unique<TableMetricTable>(
      "local_write_latency",
      [](RowWriter& row, const TableStorageStatistics& t) { WriteLatency(row, t.write_latency); }));
  tables.push_back(std::make_unique<TableMetricTable>(
      "disk_usage", [](RowWriter& row, const TableStorageStatistics& t) {
        constexpr uint64_t kMebibyte = uint64_t{1} << 20;
        row.Set("mebibytes", Bigint((t.sstable_bytes + kMebibyte - 1) / kMebibyte));
      }));
  tables.push_back(std::make_unique<TableMetricTable>("table_stats", WriteTableStats));
  tables.push_back(std::make_unique<TableLatenciesTable>());
  return tables;
}

}  // namespace sibyl::schema
