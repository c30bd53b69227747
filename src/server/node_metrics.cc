#include "server/node_metrics.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "schema/large_data_rules.h"
#include "schema/stored_table_names.h"
#include "types/uuid.h"

namespace sibyl::server {
namespace {

using metrics::ExpositionWriter;
using metrics::Label;
using metrics::MetricType;

void CollectConnections(const CqlServer& server, ExpositionWriter& out) {
  out.Family("sibyl_cql_connections", "CQL client connections open now.", MetricType::kGauge);
  out.Sample("sibyl_cql_connections", {}, static_cast<uint64_t>(server.open_connections()));
  out.Family("sibyl_cql_connections_opened_total", "CQL client connections accepted.",
             MetricType::kCounter);
  out.Sample("sibyl_cql_connections_opened_total", {}, server.connections_opened());
}

void CollectStorage(const storage::Engine& engine, const schema::SchemaStore* schemas,
                    ExpositionWriter& out) {
  const storage::StorageStatistics stats = engine.Statistics();
  std::map<types::Uuid, schema::StoredTableName> names;
  if (schemas != nullptr) names = schema::StoredTableNames(*schemas->snapshot());
  struct Row {
    schema::StoredTableName name;
    const storage::TableStorageStatistics* stats;
  };
  std::vector<Row> rows;
  for (const storage::TableStorageStatistics& table : stats.tables) {
    const auto it = names.find(table.table_id);
    // A family the schema does not name (a table being dropped, or created
    // and not yet published) is left out rather than shown by its id.
    if (it == names.end()) continue;
    rows.push_back({it->second, &table});
  }
  auto per_table = [&](const char* name, const char* help, MetricType type, auto value) {
    out.Family(name, help, type);
    for (const Row& row : rows) {
      out.Sample(name, {{"keyspace", row.name.keyspace}, {"table", row.name.table}},
                 static_cast<uint64_t>(value(*row.stats)));
    }
  };
  using T = storage::TableStorageStatistics;
  per_table("sibyl_storage_memtable_bytes",
            "Bytes in the table's memtables, active and waiting to be flushed "
            "(rocksdb.cur-size-all-mem-tables).",
            MetricType::kGauge, [](const T& t) { return t.memtable_bytes; });
  per_table("sibyl_storage_sstable_bytes",
            "Bytes of the table's SSTable files, those only old readers still use included "
            "(rocksdb.total-sst-files-size).",
            MetricType::kGauge, [](const T& t) { return t.sstable_bytes; });
  per_table("sibyl_storage_live_sstable_bytes",
            "Bytes of the table's current SSTable files (rocksdb.live-sst-files-size).",
            MetricType::kGauge, [](const T& t) { return t.live_sstable_bytes; });
  per_table("sibyl_storage_live_versions",
            "Versions of the table's file set still referenced; above 1 while readers pin "
            "files compaction replaced (rocksdb.num-live-versions).",
            MetricType::kGauge, [](const T& t) { return t.live_versions; });
  per_table("sibyl_storage_pending_compaction_bytes",
            "Bytes compaction estimates it must rewrite to settle the table's levels "
            "(rocksdb.estimate-pending-compaction-bytes).",
            MetricType::kGauge, [](const T& t) { return t.pending_compaction_bytes; });
  per_table("sibyl_storage_compaction_read_bytes_total",
            "Bytes compactions of the table read, since the node started (rocksdb.cfstats; "
            "RocksDB reports it in GiB with two decimals, so it moves in steps of ~10MiB).",
            MetricType::kCounter, [](const T& t) { return t.compaction_read_bytes; });
  per_table("sibyl_storage_compaction_written_bytes_total",
            "Bytes compactions of the table wrote, since the node started (rocksdb.cfstats, "
            "as above).",
            MetricType::kCounter, [](const T& t) { return t.compaction_written_bytes; });

  out.Family("sibyl_storage_sstables", "SSTable files of the table at each LSM level.",
             MetricType::kGauge);
  for (const Row& row : rows) {
    for (size_t level = 0; level < row.stats->sstables_per_level.size(); ++level) {
      const std::string level_text = std::to_string(level);
      out.Sample(
          "sibyl_storage_sstables",
          {{"keyspace", row.name.keyspace}, {"table", row.name.table}, {"level", level_text}},
          row.stats->sstables_per_level[level]);
    }
  }

  out.Family("sibyl_storage_running_compactions", "Compactions running now.", MetricType::kGauge);
  out.Sample("sibyl_storage_running_compactions", {}, stats.running_compactions);
  out.Family("sibyl_storage_running_flushes", "Memtable flushes running now.", MetricType::kGauge);
  out.Sample("sibyl_storage_running_flushes", {}, stats.running_flushes);
  out.Family("sibyl_storage_block_cache_capacity_bytes",
             "Capacity of the block cache all tables share.", MetricType::kGauge);
  out.Sample("sibyl_storage_block_cache_capacity_bytes", {}, stats.block_cache_capacity_bytes);
  out.Family("sibyl_storage_block_cache_usage_bytes",
             "Bytes of blocks in the block cache, pinned ones included.", MetricType::kGauge);
  out.Sample("sibyl_storage_block_cache_usage_bytes", {}, stats.block_cache_usage_bytes);
  out.Family("sibyl_storage_block_cache_pinned_bytes",
             "Bytes of blocks in the block cache that readers hold now.", MetricType::kGauge);
  out.Sample("sibyl_storage_block_cache_pinned_bytes", {}, stats.block_cache_pinned_bytes);
}

// The memtable's share included, for the partitions the ledger names.
uint64_t LargestPartitionBytes(const storage::ledger::TableLedger& table) {
  uint64_t largest = table.histograms.bytes.max();
  for (size_t i = 0; i < table.partitions.size(); ++i) {
    largest = std::max(largest, table.Current(i).bytes);
  }
  return largest;
}

void CollectLargeData(const storage::Engine& engine, const schema::SchemaStore* schemas,
                      const guardrails::Guardrails* guardrails, ExpositionWriter& out) {
  const auto snapshot = engine.LargeData();
  if (!snapshot || schemas == nullptr) return;
  const std::map<types::Uuid, schema::StoredTableName> names =
      schema::StoredTableNames(*schemas->snapshot());
  out.Family("sibyl_ledger_named_partitions",
             "Partitions of the table the large-data ledger names (at least 1MiB, 1000 rows, 100 "
             "tombstones or a collection of 100 elements), as its SSTables measure them.",
             MetricType::kGauge);
  for (const auto& [id, table] : snapshot->tables) {
    if (auto it = names.find(id); it != names.end()) {
      out.Sample("sibyl_ledger_named_partitions",
                 {{"keyspace", it->second.keyspace}, {"table", it->second.table}},
                 static_cast<uint64_t>(table->partitions.size()));
    }
  }
  out.Family("sibyl_ledger_largest_partition_bytes",
             "Bytes of the table's largest partition, summed over its SSTables.",
             MetricType::kGauge);
  for (const auto& [id, table] : snapshot->tables) {
    if (auto it = names.find(id); it != names.end()) {
      out.Sample("sibyl_ledger_largest_partition_bytes",
                 {{"keyspace", it->second.keyspace}, {"table", it->second.table}},
                 LargestPartitionBytes(*table));
    }
  }
  if (guardrails == nullptr) return;
  out.Family("sibyl_ledger_partitions_breaking_rule",
             "Partitions of the table over a partition guardrail's warn or fail threshold now "
             "(partition_size, partition_rows, partition_tombstones, items_per_collection).",
             MetricType::kGauge);
  for (const auto& [id, table] : snapshot->tables) {
    const auto it = names.find(id);
    if (it == names.end()) continue;
    std::map<std::string_view, uint64_t> breaking;
    for (size_t i = 0; i < table->partitions.size(); ++i) {
      for (const schema::BrokenRule& rule :
           schema::BrokenPartitionRules(*guardrails, table->Current(i))) {
        ++breaking[guardrails::Definition(rule.id).name];
      }
    }
    for (const auto& [rule, count] : breaking) {
      out.Sample("sibyl_ledger_partitions_breaking_rule",
                 {{"keyspace", it->second.keyspace},
                  {"table", it->second.table},
                  {"rule", std::string(rule)}},
                 count);
    }
  }
}

void CollectModelWarnings(const guardrails::ModelWarnings& warnings, ExpositionWriter& out) {
  out.Family("sibyl_model_warnings_total",
             "Statements that broke a rule of the data model (a guardrail, a ledger rule, "
             "Cassandra's tombstone, batch and aggregation warnings), by rule and table, since "
             "the node started (system_views.model_warnings).",
             MetricType::kCounter);
  for (const guardrails::ModelWarning& w : warnings.Entries()) {
    out.Sample("sibyl_model_warnings_total",
               {{"rule", w.rule}, {"keyspace", w.keyspace}, {"table", w.table}}, w.count);
  }
}

void CollectHints(const cluster::HintStore& hints, ExpositionWriter& out) {
  const cluster::HintStore::Counts counts = hints.counts();
  out.Family("sibyl_hints_pending_bytes",
             "Bytes of hints this node keeps for replicas that missed writes, waiting to be "
             "replayed.",
             MetricType::kGauge);
  out.Sample("sibyl_hints_pending_bytes", {}, hints.TotalPendingBytes());
  out.Family("sibyl_hints_pending_targets", "Nodes this node keeps hints for.", MetricType::kGauge);
  out.Sample("sibyl_hints_pending_targets", {}, static_cast<uint64_t>(hints.Targets().size()));
  out.Family("sibyl_hints_stored_total", "Hints written since the node started.",
             MetricType::kCounter);
  out.Sample("sibyl_hints_stored_total", {}, counts.stored);
  out.Family("sibyl_hints_delivered_total",
             "Replayed hints their target acknowledged, since the node started.",
             MetricType::kCounter);
  out.Sample("sibyl_hints_delivered_total", {}, counts.delivered);
  out.Family("sibyl_hints_dropped_bytes_total",
             "Bytes of hints deleted unreplayed (their target left the cluster), since the node "
             "started.",
             MetricType::kCounter);
  out.Sample("sibyl_hints_dropped_bytes_total", {}, counts.dropped_bytes);
}

void CollectDiskUsage(const DiskUsageMonitor& monitor, ExpositionWriter& out) {
  const std::optional<DiskUsageMonitor::Reading> reading = monitor.last();
  if (!reading) return;
  out.Family("sibyl_data_disk_used_bytes",
             "Bytes the files of the data directory take, at the disk usage monitor's last "
             "measure.",
             MetricType::kGauge);
  out.Sample("sibyl_data_disk_used_bytes", {}, reading->space.used_bytes);
  out.Family("sibyl_data_disk_available_bytes",
             "Bytes left on the data directory's file system, at the last measure.",
             MetricType::kGauge);
  out.Sample("sibyl_data_disk_available_bytes", {}, reading->space.available_bytes);
  out.Family("sibyl_data_disk_usage_percent",
             "Used over used plus available (at most data_disk_usage_max_disk_size), in percent "
             "rounded up: what the disk usage guardrails compare with their thresholds.",
             MetricType::kGauge);
  out.Sample("sibyl_data_disk_usage_percent", {}, static_cast<uint64_t>(reading->percent));
  out.Family("sibyl_data_disk_usage_state",
             "The node's disk usage state: 0 NOT_AVAILABLE (guardrail off), 1 SPACIOUS, "
             "2 STUFFED (over the warn threshold), 3 FULL (over the fail threshold: writes to "
             "its partitions are refused).",
             MetricType::kGauge);
  out.Sample("sibyl_data_disk_usage_state", {}, static_cast<uint64_t>(reading->state));
}

void CollectPaxos(const cluster::paxos::PaxosMetrics& paxos, ExpositionWriter& out) {
  using cluster::paxos::PaxosOperation;
  using cluster::paxos::PaxosOperationCounts;
  using cluster::paxos::PaxosPhase;
  static constexpr std::pair<PaxosOperation, const char*> kOperations[] = {
      {PaxosOperation::kTransaction, "transaction"},
      {PaxosOperation::kSerialRead, "serial_read"},
      {PaxosOperation::kSerialScan, "serial_scan"}};
  struct Family {
    const char* name;
    const char* help;
    uint64_t PaxosOperationCounts::*count;
  };
  static constexpr Family kFamilies[] = {
      {"sibyl_paxos_operations_total",
       "Lightweight transactions, SERIAL reads and SERIAL scans this node coordinated.",
       &PaxosOperationCounts::started},
      {"sibyl_paxos_contentions_total",
       "Paxos attempts lost to another proposer and retried after a random wait.",
       &PaxosOperationCounts::contentions},
      {"sibyl_paxos_timeouts_total",
       "Operations that ended with a CAS WriteTimeout (a ReadTimeout for reads).",
       &PaxosOperationCounts::timeouts},
      {"sibyl_paxos_unavailables_total", "Operations refused: too few replicas alive.",
       &PaxosOperationCounts::unavailables},
      {"sibyl_paxos_unknown_results_total",
       "Transactions whose proposal some replicas but not a quorum accepted (CAS_WRITE_UNKNOWN).",
       &PaxosOperationCounts::unknown_results},
      {"sibyl_paxos_unfinished_commits_total",
       "Rounds another proposer left unfinished, finished before the operation's own.",
       &PaxosOperationCounts::unfinished_commits},
      {"sibyl_paxos_conditions_not_met_total",
       "Transactions whose condition did not hold ([applied] false).",
       &PaxosOperationCounts::conditions_not_met},
      {"sibyl_paxos_decided_at_prepare_total",
       "Paxos v2 attempts decided on the reads their promises carried, with nothing in flight.",
       &PaxosOperationCounts::decided_at_prepare},
  };
  for (const Family& family : kFamilies) {
    out.Family(family.name, family.help, MetricType::kCounter);
    for (const auto& [operation, label] : kOperations) {
      if (family.count == &PaxosOperationCounts::conditions_not_met &&
          operation != PaxosOperation::kTransaction) {
        continue;
      }
      out.Sample(family.name, {{"operation", label}}, paxos.Counts(operation).*family.count);
    }
  }
  out.Family("sibyl_paxos_rounds_total",
             "Paxos rounds this node sent, by phase (each to every participant).",
             MetricType::kCounter);
  for (const auto& [phase, label] :
       {std::pair{PaxosPhase::kPrepare, "prepare"}, std::pair{PaxosPhase::kPropose, "propose"},
        std::pair{PaxosPhase::kCommit, "commit"}}) {
    out.Sample("sibyl_paxos_rounds_total", {{"phase", label}}, paxos.Rounds(phase));
  }
}

}  // namespace

void AddNodeCollectors(metrics::MetricRegistry& registry, const NodeMetricSources& sources) {
  if (sources.requests != nullptr) {
    registry.Add("cql requests",
                 [requests = sources.requests](ExpositionWriter& out) { requests->Collect(out); });
  }
  if (sources.cql_server != nullptr) {
    registry.Add("cql connections", [server = sources.cql_server](ExpositionWriter& out) {
      CollectConnections(*server, out);
    });
  }
  if (sources.engine != nullptr) {
    registry.Add("storage", [engine = sources.engine, schemas = sources.schemas](
                                ExpositionWriter& out) { CollectStorage(*engine, schemas, out); });
  }
  if (sources.engine != nullptr) {
    registry.Add("large data", [engine = sources.engine, schemas = sources.schemas,
                                guardrails = sources.guardrails](ExpositionWriter& out) {
      CollectLargeData(*engine, schemas, guardrails, out);
    });
  }
  if (sources.model_warnings != nullptr) {
    registry.Add("model warnings", [warnings = sources.model_warnings](ExpositionWriter& out) {
      CollectModelWarnings(*warnings, out);
    });
  }
  if (sources.disk_usage != nullptr) {
    registry.Add("disk usage", [monitor = sources.disk_usage](ExpositionWriter& out) {
      CollectDiskUsage(*monitor, out);
    });
  }
  if (sources.paxos != nullptr) {
    registry.Add("paxos",
                 [paxos = sources.paxos](ExpositionWriter& out) { CollectPaxos(*paxos, out); });
  }
  if (sources.hints != nullptr) {
    registry.Add("hints",
                 [hints = sources.hints](ExpositionWriter& out) { CollectHints(*hints, out); });
  }
}

std::unique_ptr<metrics::MetricsHttpServer> ListenForMetrics(const Config& config,
                                                             metrics::MetricRegistry& registry) {
  if (!config.prometheus_enabled) return nullptr;
  auto server = std::make_unique<metrics::MetricsHttpServer>(
      metrics::MetricsHttpServer::Options{.address = config.metrics_address(),
                                          .port = static_cast<uint16_t>(config.prometheus_port)},
      [&registry] { return registry.Render(); });
  try {
    server->Listen();
  } catch (const metrics::MetricsListenError& e) {
    throw ConfigError("Cannot listen for Prometheus scrapes on " + std::string(e.what()) +
                      " (prometheus_port; prometheus_enabled: false turns the endpoint off)");
  }
  return server;
}

}  // namespace sibyl::server
