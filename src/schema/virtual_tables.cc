#include "schema/virtual_tables.h"

#include "common/check.h"
#include "schema/decommission_table.h"
#include "schema/flushes_table.h"
#include "schema/gossip_info_table.h"
#include "schema/guardrails_table.h"
#include "schema/index_tables.h"
#include "schema/large_data_tables.h"
#include "schema/model_warnings_table.h"
#include "schema/node_tables.h"
#include "schema/removenode_table.h"
#include "schema/schema_tables.h"
#include "schema/settings_table.h"
#include "schema/table_metric_tables.h"
#include "schema/view_build_tables.h"
#include "schema/view_check_table.h"
#include "schema/virtual_schema_tables.h"

namespace sibyl::schema {

VirtualTables VirtualTables::SystemTables() {
  VirtualTables registry;
  registry.Add(MakeLocalTable());
  registry.Add(MakePeersTable());
  registry.Add(MakePeersV2Table());
  for (auto& table : MakeSchemaTables()) registry.Add(std::move(table));
  for (auto& table : MakeVirtualSchemaTables()) registry.Add(std::move(table));
  registry.Add(MakeSettingsTable());
  registry.Add(MakeGossipInfoTable());
  registry.Add(MakeIndexInfoTable());
  registry.Add(MakeIndexBuildsTable());
  registry.Add(MakeBuiltViewsTable());
  registry.Add(MakeViewBuildsInProgressTable());
  registry.Add(MakeViewBuildsTable());
  registry.Add(MakeViewChecksTable());
  registry.Add(MakeGuardrailsTable());
  registry.Add(MakeLargePartitionsTable());
  registry.Add(MakeLargeRowsTable());
  registry.Add(MakeLargeCellsTable());
  registry.Add(MakePartitionStatsTable());
  registry.Add(MakeModelWarningsTable());
  registry.Add(MakeFlushesTable());
  registry.Add(MakeDecommissionTable());
  registry.Add(MakeRemoveNodeTable());
  for (auto& table : MakeTableMetricTables()) registry.Add(std::move(table));
  return registry;
}

void VirtualTables::Add(std::unique_ptr<VirtualTable> table) {
  auto key = std::make_pair(table->keyspace(), table->name());
  [[maybe_unused]] bool inserted = tables_.emplace(std::move(key), std::move(table)).second;
  SIBYL_CHECK(inserted);
}

const VirtualTable* VirtualTables::Find(std::string_view keyspace, std::string_view table) const {
  auto it = tables_.find(std::pair<std::string_view, std::string_view>(keyspace, table));
  return it == tables_.end() ? nullptr : it->second.get();
}

}  // namespace sibyl::schema
